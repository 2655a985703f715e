#!/usr/bin/env python3
"""Loads a photomirror gallery in headless Chromium (Selenium + chromedriver) and checks what a
person would see: every thumbnail loaded at its size, feed pages' links open the mirrored
originals, placeholders instead of broken images, and no console errors (CSP violations
included). Saves screenshots. Prints one line per check; exits 0 when all pass, 1 on the first
failure, 77 when chromium, chromedriver or selenium is not installed.

Usage: gallery_browser_check.py --url URL --screenshots PREFIX --originals N --placeholders N [--scale 2]
       gallery_browser_check.py --viewer --url URL --screenshots PREFIX --transparent NAME
       gallery_browser_check.py --unreachable-thumbnails N --url URL --screenshots PREFIX
With --viewer it checks, instead, the feed page's viewer (a click opens an original, the arrow
keys step, Escape closes, no original is fetched before it is shown), a transparent image drawn
over a checkerboard that stands out from the page in the light and the dark theme (pixels of
the screenshot), and both pages at 390 CSS pixels wide without sideways scrolling.
With --unreachable-thumbnails (a cache whose thumbnail files were removed) it checks that each
of the N thumbnails of the feed page, none of which loads, is painted with its inline
placeholder in the light and the dark theme: the <img>'s computed background is the data URL,
and the screenshot shows colours there that are neither the page's nor the checkerboard's.
"""
import argparse
import json
import os
import shutil
import struct
import sys
import zlib

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
    # The viewer's originals are lazy and hidden until opened: viewer_checks covers them.
    images = driver.find_elements("css selector", "img:not(.lb img)")
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
            # The folder is the size, or the size and its variant: 80x80/, 80x80-contain.webp/.
            wanted = "/%dx%d" % (expected[0] * 2, expected[1] * 2)
            if not any(wanted + end in state["src"] for end in ("/", "-", ".")):
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
    parser.add_argument("--originals", type=int, default=0, help="thumbnails expected to link an original")
    parser.add_argument("--placeholders", type=int, default=0, help="failed items expected")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--viewer", action="store_true", help="check the viewer, transparency and 390 px instead")
    parser.add_argument("--transparent", help="with --viewer: the file name of a transparent image in the feed")
    parser.add_argument("--unreachable-thumbnails", type=int, default=0,
                        help="check the placeholders of this many thumbnails whose files are gone instead")
    args = parser.parse_args()

    driver = start_browser(args.scale)
    if args.unreachable_thumbnails:
        try:
            placeholder_checks(driver, args)
        finally:
            driver.quit()
        print("PASS")
        return
    if args.viewer:
        try:
            viewer_checks(driver, args)
        finally:
            driver.quit()
        print("PASS")
        return
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
        thumbs = driver.find_elements("css selector", "a.thumb")
        originals = [a.get_attribute("href") for a in driver.find_elements("css selector", ".lb figcaption a")]
        if len(thumbs) != len(originals):
            fail("feed page: %d thumbnails open a viewer, %d viewers" % (len(thumbs), len(originals)))
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


def decode_png(data):
    """Rows of (r, g, b) from an 8-bit RGB or RGBA, non-interlaced PNG (Chromium's screenshots)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail("screenshot PNG of an unexpected kind: %s" % (header,))
    channels = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return rows


def viewport_shot(driver, path):
    import base64
    data = base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"])
    with open(path, "wb") as file:
        file.write(data)
    return data


def wait_for(driver, script, what, *arguments):
    import time
    for _ in range(100):
        value = driver.execute_script(script, *arguments)
        if value:
            return value
        time.sleep(0.05)
    fail("gave up waiting for " + what)


def check_checkerboard(driver, name, theme, path):
    """The transparent thumbnail's corner (transparent in the image) must show two colours, at
    least one of them unlike the page's background: the image is seen, not a hole."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
    image = driver.find_element("css selector", "img[src*='%s'], img[alt*='%s']" % (name, name))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
    wait_for(driver, "return arguments[0].complete && arguments[0].naturalWidth > 0", "the transparent thumbnail", image)
    rect = driver.execute_script("""
        const r = arguments[0].getBoundingClientRect();
        const bg = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
        return [r.left, r.top, r.width, r.height, devicePixelRatio, bg];""", image)
    left, top, width, height, ratio, background = rect
    rows = decode_png(viewport_shot(driver, path))
    corner = set()
    for y in range(int((top + 2) * ratio), int((top + min(height, 40) / 3) * ratio)):
        for x in range(int((left + 2) * ratio), int((left + min(width, 40) / 3) * ratio)):
            corner.add(rows[y][x])
    unlike = [c for c in corner if max(abs(c[i] - background[i]) for i in range(3)) > 12]
    if len(corner) < 2 or not unlike:
        fail("%s theme: the transparent tile's corner shows %s on a page of %s: no checkerboard"
             % (theme, sorted(corner)[:6], background))
    print("ok: %s theme, the transparent image is over a checkerboard (%d colours, page %s)" % (theme, len(corner), background))


def open_viewer_hash(driver):
    return driver.execute_script(
        "const v = document.querySelector('.lb:target'); return v && getComputedStyle(v).display !== 'none' ? v.id : null")


def check_viewer(driver, prefix):
    fetched = driver.execute_script(
        "return [...document.querySelectorAll('.lb img')].filter(i => i.naturalWidth > 0).length")
    if fetched:
        fail("%d originals were fetched before their viewer was opened" % fetched)
    thumbs = driver.find_elements("css selector", "a.thumb")
    if len(thumbs) < 2:
        fail("the feed page has %d thumbnails opening a viewer, expected 2 or more" % len(thumbs))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", thumbs[0])
    thumbs[0].click()
    first = wait_for(driver, "return document.querySelector('.lb:target') && document.querySelector('.lb:target').id",
                     "the viewer to open")
    shown = "const i = document.querySelector('.lb:target img'); return i && i.complete && i.naturalWidth > 100"
    wait_for(driver, shown, "the original in the viewer")
    viewport_shot(driver, prefix + "-viewer.png")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    second = wait_for(driver, "const v = document.querySelector('.lb:target'); return v && v.id !== arguments[0] && v.id",
                      "the right arrow to show the next item", first)
    wait_for(driver, shown, "the next original")
    viewport_shot(driver, prefix + "-viewer-next.png")
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    wait_for(driver, "const v = document.querySelector('.lb:target'); return v && v.id === arguments[0]",
             "the left arrow to come back", first)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, "return !document.querySelector('.lb:target')", "Escape to close the viewer")
    if open_viewer_hash(driver):
        fail("the viewer is still shown after Escape")
    print("ok: the viewer opens %s, steps to %s with the right arrow, back with the left, closes with Escape"
          % (first, second))


def check_narrow(driver, feed, root, prefix):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    for url, page in ((root, "root"), (feed, "feed")):
        driver.get(url)
        wide = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        if wide[0] > wide[1] or wide[1] > 400:
            fail("%s page at 390 px: %d px wide in a %d px viewport" % (page, wide[0], wide[1]))
        screenshot(driver, "%s-390-%s.png" % (prefix, page))
    driver.find_elements("css selector", "a.thumb")[0].click()
    wait_for(driver, "const i = document.querySelector('.lb:target img'); return i && i.complete && i.naturalWidth > 100",
             "the viewer at 390 px")
    box = driver.execute_script("const r = document.querySelector('.lb:target img').getBoundingClientRect();"
                                "return [r.left, r.right, innerWidth]")
    if box[0] < 0 or box[1] > box[2]:
        fail("the viewer's original overflows 390 px: %s" % box)
    viewport_shot(driver, prefix + "-390-viewer.png")
    print("ok: root, feed page and viewer fit 390 px")


def viewer_checks(driver, args):
    driver.get(args.url)
    feed = driver.find_elements("css selector", ".feed h2 a")[0].get_attribute("href")
    driver.get(feed)
    check_viewer(driver, args.screenshots)
    check_checkerboard(driver, args.transparent, "light", args.screenshots + "-light-transparent.png")
    check_checkerboard(driver, args.transparent, "dark", args.screenshots + "-dark-transparent.png")
    errors = console_errors(driver)
    if errors:
        fail("console errors on the feed page: %s" % errors)
    check_narrow(driver, feed, args.url, args.screenshots)


def check_placeholders(driver, expected, theme, path):
    """Each thumbnail <img> of the page has not loaded (its file is gone) and is painted with
    its placeholder: a data: URL background over the checkerboard, and in the screenshot a
    colour at its centre that is neither the page's background nor one of the checkerboard's."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
    images = driver.find_elements("css selector", "a.thumb img")
    if len(images) != expected:
        fail("%s theme: %d thumbnails on the feed page, expected %d" % (theme, len(images), expected))
    driver.execute_script("window.scrollTo(0, 0)")
    states = driver.execute_script("""
        return arguments[0].map(i => { const r = i.getBoundingClientRect(); const s = getComputedStyle(i);
            return {loaded: i.complete && i.naturalWidth > 0, background: s.backgroundImage,
                    rect: [r.left, r.top, r.width, r.height]}; });""", images)
    ratio = driver.execute_script("return devicePixelRatio")
    page = driver.execute_script("return getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number)")
    check = [(255, 255, 255), (207, 207, 204)] if theme == "light" else [(74, 74, 74), (46, 46, 46)]
    rows = decode_png(viewport_shot(driver, path))
    painted = 0
    for state in states:
        if state["loaded"]:
            fail("%s theme: a thumbnail loaded although its file is gone: %s" % (theme, state))
        if not state["background"].startswith('url("data:image/png;base64,') or "conic-gradient" not in state["background"]:
            fail("%s theme: the thumbnail's background is %s, not its placeholder over the checkerboard"
                 % (theme, state["background"][:80]))
        left, top, width, height = state["rect"]
        if top + height > len(rows) / ratio:
            continue  # below the window: its computed style was checked, its pixels are not in the shot
        # Lower right of the box: the broken image's icon and alt text are at its upper left.
        x, y = int((left + width * 0.8) * ratio), int((top + height * 0.8) * ratio)
        colour = rows[y][x]
        near = lambda other: max(abs(colour[i] - other[i]) for i in range(3)) <= 6
        if near(page) or any(near(c) for c in check):
            fail("%s theme: the unloaded thumbnail shows %s, the page's or the checkerboard's colour, not a placeholder"
                 % (theme, colour))
        painted += 1
    if painted == 0:
        fail("%s theme: no thumbnail was in the window to look at" % theme)
    print("ok: %s theme, %d thumbnails whose files are gone show their placeholder (%d looked at in the screenshot)"
          % (theme, len(states), painted))


def placeholder_checks(driver, args):
    driver.get(args.url)
    feed = driver.find_elements("css selector", ".feed h2 a")[0].get_attribute("href")
    driver.get(feed)
    check_placeholders(driver, args.unreachable_thumbnails, "light", args.screenshots + "-light.png")
    check_placeholders(driver, args.unreachable_thumbnails, "dark", args.screenshots + "-dark.png")
    # The missing thumbnails are the test's doing; anything else on the console still fails.
    errors = [e for e in console_errors(driver) if "/thumbs/" not in e]
    if errors:
        fail("console errors on the feed page: %s" % errors)


if __name__ == "__main__":
    main()
