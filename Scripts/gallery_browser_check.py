#!/usr/bin/env python3
"""Loads a photomirror gallery in headless Chromium (Selenium + chromedriver) and checks what a
person would see: every thumbnail loaded at its size, feed pages' links open the mirrored
originals, placeholders instead of broken images, and no console errors (CSP violations
included). Saves screenshots. Prints one line per check; exits 0 when all pass, 1 on the first
failure, 77 when chromium, chromedriver or selenium is not installed.

Usage: gallery_browser_check.py --url URL --screenshots PREFIX --originals N --placeholders N [--scale 2]
"""
import argparse
import json
import os
import shutil
import sys

SKIP = 77


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def start_browser(scale):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("SKIP: selenium is not installed (Scripts/setup installs it with pip)")
        sys.exit(SKIP)
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    driver_path = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
    for path in (chromium, driver_path):
        if not os.access(path, os.X_OK):
            print("SKIP: %s is not installed (Scripts/setup installs chromium and chromium-driver)" % path)
            sys.exit(SKIP)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1000,800", "--hide-scrollbars", "--force-device-scale-factor=%s" % scale,
                     "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A browser that cannot start is a failure, not a skip: the exception propagates.
    return webdriver.Chrome(service=Service(driver_path), options=options)


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def check_images(driver, scale, page):
    """Every <img> scrolled into view must load, with naturalWidth/Height equal to its width/height
    attributes (srcset densities included); at scale 2 a 2x candidate must be the one chosen."""
    images = driver.find_elements("css selector", "img")
    for image in images:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
        state = driver.execute_async_script("""
            const [img, done] = arguments;
            const report = () => done({complete: img.complete, natural: [img.naturalWidth, img.naturalHeight],
                size: [img.getAttribute('width'), img.getAttribute('height')], src: img.currentSrc,
                srcset: img.getAttribute('srcset'), alt: img.getAttribute('alt')});
            if (img.complete) { report(); } else { img.addEventListener('load', report); img.addEventListener('error', report); }
        """, image)
        expected = [int(state["size"][0]), int(state["size"][1])]
        if not state["complete"] or state["natural"] != expected:
            fail("%s: image %s did not load at %s: %s" % (page, state["src"], expected, json.dumps(state)))
        if not state["alt"]:
            fail("%s: image %s has no alt text" % (page, state["src"]))
        if scale == 2 and state["srcset"] and " 2x" in state["srcset"]:
            wanted = "/%dx%d/" % (expected[0] * 2, expected[1] * 2)
            if wanted not in state["src"]:
                fail("%s: at 2x the browser chose %s, not the %s thumbnail" % (page, state["src"], wanted))
    return len(images)


def screenshot(driver, path):
    """The whole page, not just the window, through the DevTools protocol."""
    import base64
    width, height = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 6000), "scale": 1}})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the gallery root (http://127.0.0.1:PORT/ or file:///…/index.html)")
    parser.add_argument("--screenshots", required=True, help="path prefix for the PNG screenshots")
    parser.add_argument("--originals", type=int, required=True, help="thumbnails expected to link an original")
    parser.add_argument("--placeholders", type=int, required=True, help="failed items expected")
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()

    driver = start_browser(args.scale)
    try:
        driver.get(args.url)
        root_images = check_images(driver, args.scale, "root")
        print("ok: root page, %d thumbnails loaded" % root_images)
        feed_links = [a.get_attribute("href") for a in driver.find_elements("css selector", ".feed h2 a")]
        if not feed_links or root_images == 0:
            fail("the root page lists no feed with thumbnails")
        screenshot(driver, args.screenshots + "-root.png")
        errors = console_errors(driver)
        if errors:
            fail("console errors on the root page: %s" % errors)

        driver.get(feed_links[0])
        images = check_images(driver, args.scale, "feed page")
        originals = [a.get_attribute("href") for a in driver.find_elements("css selector", "a.thumb")]
        placeholders = driver.find_elements("css selector", ".missing")
        if len(originals) != args.originals or images != args.originals:
            fail("feed page: %d images and %d original links, expected %d" % (images, len(originals), args.originals))
        if len(placeholders) != args.placeholders:
            fail("feed page: %d placeholders, expected %d" % (len(placeholders), args.placeholders))
        print("ok: feed page, %d thumbnails loaded, %d placeholders" % (images, len(placeholders)))
        screenshot(driver, args.screenshots + "-feed.png")
        errors = console_errors(driver)
        if errors:
            fail("console errors on the feed page: %s" % errors)

        for href in originals:
            driver.get(href)
            size = driver.execute_script(
                "const i = document.images[0]; return i && i.complete ? [i.naturalWidth, i.naturalHeight] : null")
            if not size or size[0] < 100 or size[1] < 100 or not href.endswith((".jpg", ".png")):
                fail("the link %s did not open a mirrored original (%s)" % (href, size))
        print("ok: %d originals open" % len(originals))
        # An image shown on its own is Chromium's page, not ours: it asks for /favicon.ico,
        # which a cache doesn't have. Any other error still fails.
        errors = [e for e in console_errors(driver) if not ("/favicon.ico " in e and "404" in e)]
        if errors:
            fail("console errors opening originals: %s" % errors)
    finally:
        driver.quit()
    print("PASS")


if __name__ == "__main__":
    main()
