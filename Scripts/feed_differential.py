#!/usr/bin/env python3
"""Differential test of `photomirror sync` against feedparser over the real-feed corpus.

Every document under Tests/Fixtures/RealFeeds/<source>/ is served by one local HTTP server and
synced by the built binary into a cache of its own; feedparser (the oracle) parses the very bytes
that were served, and the images it finds per entry are compared with the feed's manifest.

    python3 Scripts/feed_differential.py [--binary .build/debug/photomirror] [--only PATTERN]
                                          [--keep] [--json OUT] [--image JPEG] [--verbose]

Exit 0 when every assertion holds, 1 with the list of violations otherwise, 2 on a usage or
setup error (no binary, no JPEG), 77 when feedparser cannot be imported (Scripts/setup
--for-tests installs it). It installs nothing itself.

The server (127.0.0.1, ephemeral port) is both an HTTP proxy and the origin: the binary runs with
http_proxy=http://127.0.0.1:PORT (libcurl honours it; no_proxy cleared), so every request, for
any host, reaches it with an absolute URL. /feeds/<source>/<file> on 127.0.0.1:PORT answers the
document, with the Content-Type in <file>.content-type when there is one, else application/json
for .json and application/xml for anything else; every other request answers one small real
JPEG. A plain proxy can't serve https:// (that would take a CONNECT tunnel and TLS), so each
document is served with https:// rewritten to http:// (also the JSON-escaped https:\\/\\/):
on the decoded text for UTF-16/UTF-32 documents, on the bytes for ASCII-compatible ones. A
CONNECT is logged and refused (502).

The oracle, per entry, in document order:
  (a) media images: media_content with medium image, an image/* type, or neither medium nor type
      and an image extension; enclosures (RSS enclosure, Atom rel=enclosure) with an image/*
      type, or no type and an image extension; each picture once (see "Pictures" below).
      media_thumbnail (wherever feedparser found it: in the item, a media:group or a
      media:content, as url= or as the element's text) only when there is neither (a) nor (b):
      the item's cover, counted as one image, mirrored when one of its thumbnails is or, when an
      <img> of (c) is the same picture at another size, that <img> is.
  (b) itunes:image: the entry's image.href (feedparser maps an item's itunes:image there).
  (c) html: <img> in content[].value, then summary (parsed with html.parser, unsanitised so
      srcset and data-src survive): src, the largest srcset candidate and data-src, skipping
      data: and other non-http URLs and width=1/height=1 pixels, resolved against the content's
      xml:base (feedparser's 'base') or the feed URL.
  An entry is media-image (has (a) or a thumbnail), itunes-only ((b), no (a)), html-only ((c), no
  (a), (b) or thumbnail) or image-less. feedparser 6 has no JSON Feed reader, so .json documents
  that feedparser does not recognise are read by a JSON Feed 1.0/1.1 reader here (version
  "json*"): image, banner_image and image/* attachments are (a), <img> in content_html/summary is
  (c); like photomirror it reads a lone attachment object as a list of one and an image given as
  a one-element list as its string, and skips fields of other types.

Pictures: photomirror lists each picture of an item once, and so does the oracle: URLs that
differ only in scheme, host case, fragment, the query parameters w, h, width, height, resize,
fit, crop, zoom and quality, a path segment or "=" suffix of the last one made of size options
(s72-c, s1600, w640-h426-p-k-no-nu) or a -WIDTHxHEIGHT before the file extension are one picture.

Entries and manifest items are matched by position when the counts agree (both in document
order); otherwise each entry is looked up by id, then by link, among the items (an entry found
neither way is unmatched and its images count as not mirrored). URLs are compared normalised:
https -> http as served, resolved, scheme and host lower-cased, :80 and the fragment dropped,
unsafe characters percent-encoded. An image is mirrored when its URL is among the item's media
with status ok (manifest `media` list) or, with a manifest without `media`, is the item's
media_url and the item's status is ok. An html-only entry counts once: mirrored when any of the
URLs its html offers is.

Assertions:
  1. no real feed refused: where feedparser (or the JSON Feed reader) found a version or an
     entry, the binary must not exit 3 (nor time out, crash, or leave no manifest);
  2. every (a) image is mirrored;
  3. >= 90 % of the html-only entries' images and >= 95 % of the itunes-only images are
     mirrored (totals over the corpus);
  4. no image-less entry's item is `failed`.
"""

import argparse
import codecs
import fnmatch
import glob
import html.parser
import http.server
import json
import os
import posixpath
import re
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

try:
    import feedparser
except ImportError:
    print("feed_differential: feedparser cannot be imported: run Scripts/setup --for-tests", file=sys.stderr)
    sys.exit(77)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "Tests", "Fixtures", "RealFeeds")
NOT_DOCUMENTS = {"PROVENANCE.md", ".gitattributes"}
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".avif", ".heic")
RUN_TIMEOUT = 30
# Images photomirror keeps per item (its --max-images-per-item default, passed explicitly).
MAX_IMAGES = 20
HTML_SHARE, ITUNES_SHARE = 0.90, 0.95


# ---------------------------------------------------------------- corpus and serving

def documents(only):
    found = []
    for root, dirs, names in os.walk(CORPUS):
        dirs.sort()
        for name in sorted(names):
            if name in NOT_DOCUMENTS or name.startswith("LICENSE") or name.endswith(".content-type"):
                continue
            rel = os.path.relpath(os.path.join(root, name), CORPUS).replace(os.sep, "/")
            if only and not any(fnmatch.fnmatch(rel, p if any(c in p for c in "*?[") else f"*{p}*") for p in only):
                continue
            found.append(rel)
    return found


def content_type(rel):
    sidecar = os.path.join(CORPUS, rel + ".content-type")
    if os.path.exists(sidecar):
        with open(sidecar, "rb") as f:
            return f.read().decode("latin-1").strip()
    return "application/json" if rel.endswith(".json") else "application/xml"


WIDE = [(codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]
WIDE_NO_BOM = [(b"\x00\x00\x00<", "utf-32-be"), (b"<\x00\x00\x00", "utf-32-le"),
               (b"\x00<\x00?", "utf-16-be"), (b"<\x00?\x00", "utf-16-le")]


def wide_codec(data, kind):
    """(BOM, codec) of a UTF-16/UTF-32 document (BOM, its first bytes, or the served charset), else (b"", None)."""
    for mark, name in WIDE:
        if data.startswith(mark):
            return mark, name
    for start, name in WIDE_NO_BOM:
        if data.startswith(start):
            return b"", name
    charset = re.search(r"charset\s*=\s*[\"']?([\w-]+)", kind or "", re.I)
    charset = charset.group(1).lower().replace("_", "-") if charset else ""
    if charset in ("utf-16be", "utf-16le", "utf-32be", "utf-32le"):
        return b"", charset[:6] + "-" + charset[6:]
    head = data[:4]
    if len(head) == 4 and head[0] == 0 and head[2] == 0 and head[1] and head[3]:
        return b"", "utf-16-be"
    if len(head) == 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        return b"", "utf-16-le"
    return b"", None


def served_bytes(data, kind=""):
    """The document as served: https:// rewritten to http:// (see the module comment)."""
    bom, codec = wide_codec(data, kind)
    if codec:
        try:
            text = data[len(bom):].decode(codec)
        except UnicodeDecodeError:
            return data
        rewritten = text.replace("https://", "http://").replace("https:\\/\\/", "http:\\/\\/")
        return data if rewritten == text else bom + rewritten.encode(codec)
    return data.replace(b"https://", b"http://").replace(b"https:\\/\\/", b"http:\\/\\/")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512
    allow_reuse_address = True

    def __init__(self, feeds, jpeg):
        self.feeds = feeds          # "/feeds/<rel>" -> (bytes, content type)
        self.jpeg = jpeg
        self.log = []               # (time, method, url, status, bytes)
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)

    def record(self, *entry):
        with self.lock:
            self.log.append((time.time(),) + entry)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "feed-differential"

    def log_message(self, *args):
        pass

    def answer(self, head):
        url = self.path
        parts = urllib.parse.urlsplit(url)
        origin = f"127.0.0.1:{self.server.server_address[1]}"
        local = not parts.netloc or parts.netloc == origin
        path = urllib.parse.unquote(parts.path) if parts.scheme else urllib.parse.unquote(url.split("?")[0])
        if local and path.startswith("/feeds/"):
            found = self.server.feeds.get(path)
            if found is None:
                body, kind, status = b"no such feed\n", "text/plain", 404
            else:
                (body, kind), status = found, 200
        else:
            body, kind, status = self.server.jpeg, "image/jpeg", 200
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
        self.server.record(self.command, url, status, 0 if head else len(body))

    def do_GET(self):
        self.answer(head=False)

    def do_HEAD(self):
        self.answer(head=True)

    def do_CONNECT(self):
        self.server.record("CONNECT", self.path, 502, 0)
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True


# ---------------------------------------------------------------- the oracle

def norm(url, base=None):
    """An image URL as compared: resolved, https -> http (as served), normalised."""
    if not isinstance(url, str):
        return None
    url = url.strip()
    if not url:
        return None
    if base:
        url = urllib.parse.urljoin(base, url)
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme == "https":
        scheme = "http"
    if scheme != "http" or not parts.netloc:
        return None
    host = parts.netloc.lower()
    if host.endswith(":80"):
        host = host[:-3]
    safe = "/:@!$&'()*+,;=~%-._"
    path = urllib.parse.quote(parts.path or "/", safe=safe)
    query = urllib.parse.quote(parts.query, safe=safe + "?/")
    return urllib.parse.urlunsplit((scheme, host, path, query, ""))


SIZE_PARAMETERS = {"w", "h", "width", "height", "resize", "fit", "crop", "zoom", "quality"}
SIZE_OPTIONS = re.compile(r"[swh][0-9]+(-[a-z]{1,3}[0-9]*)*")
DIMENSIONS = re.compile(r"-[0-9]+x[0-9]+(\.[^./]*)$")


def picture_key(url):
    """A URL without what only says the size of its picture (see "Pictures" in the module comment)."""
    parts = urllib.parse.urlsplit(url or "")
    if not parts.netloc:
        return url
    segments = parts.path.split("/")
    last = segments[-1]
    if "=" in last and SIZE_OPTIONS.fullmatch(last.rsplit("=", 1)[1]):
        last = last.rsplit("=", 1)[0]
    last = DIMENSIONS.sub(r"\1", last)
    kept = [seg for seg in segments[:-1] if not SIZE_OPTIONS.fullmatch(seg)]
    if not SIZE_OPTIONS.fullmatch(last):
        kept.append(last)
    query = "&".join(p for p in parts.query.split("&") if p and p.split("=", 1)[0].lower() not in SIZE_PARAMETERS)
    return parts.netloc.lower() + "/".join(kept) + ("?" + query if query else "")


def unique_pictures(urls):
    seen, out = set(), []
    for url in urls:
        key = picture_key(url)
        if key not in seen:
            seen.add(key)
            out.append(url)
    return out


def image_extension(url):
    path = urllib.parse.urlsplit(url or "").path.lower()
    return path.endswith(IMAGE_EXTENSIONS)


class ImgCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.images = []  # one list of candidate URLs per <img>

    def handle_starttag(self, tag, attrs):
        if tag != "img":
            return
        a = {k.lower(): (v or "") for k, v in attrs}
        if a.get("width", "").strip() in ("1", "1px") or a.get("height", "").strip() in ("1", "1px"):
            return
        candidates = []
        if a.get("src"):
            candidates.append(a["src"])
        srcset = a.get("srcset", "")
        if srcset:
            best, best_w = None, -1.0
            for piece in srcset.split(","):
                bits = piece.strip().split()
                if not bits:
                    continue
                w = 1.0
                if len(bits) > 1:
                    m = re.match(r"([\d.]+)([wx])", bits[1])
                    if m:
                        w = float(m.group(1)) * (1 if m.group(2) == "w" else 1000)
                if w > best_w:
                    best, best_w = bits[0], w
            if best:
                candidates.append(best)
        for key in ("data-src", "data-lazy-src", "data-original"):
            if a.get(key):
                candidates.append(a[key])
        candidates = [c for c in candidates if not c.strip().lower().startswith("data:")]
        if candidates:
            self.images.append(candidates)


def html_images(value, base):
    if not value or "<" not in value:
        return []
    collector = ImgCollector()
    try:
        collector.feed(value)
        collector.close()
    except Exception:
        pass
    out = []
    for candidates in collector.images:
        urls = [u for u in (norm(c, base) for c in candidates) if u]
        if urls:
            out.append(urls)
    return out


def classify(media, itunes, html):
    if media:
        return "media"
    if itunes:
        return "itunes"
    if html:
        return "html"
    return "none"


def oracle_feedparser(d, feed_url):
    entries = []
    for e in d.entries:
        media = []
        for m in e.get("media_content", []) or []:
            url, kind, medium = m.get("url"), (m.get("type") or "").lower(), (m.get("medium") or "").lower()
            if medium == "image" or kind.startswith("image/") or (not medium and not kind and image_extension(url)):
                u = norm(url, feed_url)
                if u:
                    media.append(u)
        for enc in e.get("enclosures", []) or []:
            url, kind = enc.get("href") or enc.get("url"), (enc.get("type") or "").lower()
            if kind.startswith("image/") or (not kind and image_extension(url)):
                u = norm(url, feed_url)
                if u:
                    media.append(u)
        media = unique_pictures(media)
        itunes = None
        image = e.get("image")
        if isinstance(image, dict):
            itunes = norm(image.get("href") or image.get("url"), feed_url)
        # Thumbnails count only when no full-size file is given, and then as one image, the
        # item's cover: they are sizes or frames of one picture (YouTube's 0-3.jpg, Yahoo's 40
        # and 80 px), of which photomirror takes the largest.
        thumbnails = []
        if not media and not itunes:
            thumbnails = list(dict.fromkeys(filter(None, (norm(t.get("url"), feed_url)
                                                          for t in e.get("media_thumbnail", []) or []))))
        html = []
        for c in e.get("content", []) or []:
            html += html_images(c.get("value"), c.get("base") or feed_url)
        detail = e.get("summary_detail") or {}
        html += html_images(e.get("summary"), detail.get("base") or feed_url)
        entries.append({"id": e.get("id"), "link": norm(e.get("link"), feed_url) or e.get("link"),
                        "media": media, "thumbnails": thumbnails, "itunes": itunes, "html": html,
                        "kind": classify(media or thumbnails, itunes, html)})
    return entries


def one_string(value):
    """A string, or the one string of a one-element list (photomirror reads that as the string)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value if isinstance(value, str) else None


def oracle_jsonfeed(data, feed_url):
    """A JSON Feed 1.0/1.1 reader (feedparser 6 has none): (version, entries) or (None, [])."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except Exception:
        return None, []
    # The version is the spec's URL; some feeds write a bare 1.0 / 1.1 (or 1), which counts too.
    declared = str(doc.get("version", "")) if isinstance(doc, dict) else ""
    bare = declared in ("1", "1.0", "1.1") and isinstance(doc.get("items"), list)
    if not ("jsonfeed.org" in declared or bare):
        return None, []
    version = "json" + declared.rstrip("/").rsplit("/", 1)[-1].replace(".", "").replace("version", "")
    entries = []
    for item in doc.get("items") or []:
        if not isinstance(item, dict):
            continue
        media = [norm(one_string(item.get(k)), feed_url) for k in ("image", "banner_image")]
        attachments = item.get("attachments")
        if isinstance(attachments, dict):
            attachments = [attachments]
        for att in attachments if isinstance(attachments, list) else []:
            if isinstance(att, dict) and str(att.get("mime_type", "")).lower().startswith("image/"):
                media.append(norm(att.get("url"), feed_url))
        media = unique_pictures(u for u in media if u)
        html = html_images(one_string(item.get("content_html")), feed_url) + html_images(one_string(item.get("summary")), feed_url)
        entries.append({"id": str(item.get("id")) if item.get("id") is not None else None,
                        "link": norm(item.get("url"), feed_url) or item.get("url"),
                        "media": media, "itunes": None, "html": html, "kind": classify(media, None, html)})
    return version, entries


# ---------------------------------------------------------------- the manifest

def manifest_items(manifest):
    """Per item: status, the set of mirrored (ok) media URLs, id and link."""
    out = []
    for item in manifest.get("items", []):
        ok = set()
        if isinstance(item.get("media"), list):
            for m in item["media"]:
                if isinstance(m, dict) and m.get("status") == "ok":
                    u = norm(m.get("url"))
                    if u:
                        ok.add(u)
        elif item.get("status") == "ok":
            u = norm(item.get("media_url"))
            if u:
                ok.add(u)
        out.append({"status": item.get("status"), "ok": ok, "id": item.get("id"),
                    "link": norm(item.get("link")) or item.get("link")})
    return out


def match(entries, items):
    """Entry index -> item (or None): by position when the counts agree, else by id, then link."""
    if len(entries) == len(items):
        return list(items), "position"
    by_id, by_link = {}, {}
    for item in items:
        if item["id"]:
            by_id.setdefault(item["id"], item)
        if item["link"]:
            by_link.setdefault(item["link"], item)
    matched = []
    for e in entries:
        item = by_id.get(e["id"]) if e["id"] else None
        if item is None and e["link"]:
            item = by_link.get(e["link"]) or by_id.get(e["link"])
        matched.append(item)
    return matched, "id/link"


# ---------------------------------------------------------------- one document

def run_one(n, rel, args, server, work):
    path = os.path.join(CORPUS, rel)
    with open(path, "rb") as f:
        raw = f.read()
    kind = content_type(rel)
    body = served_bytes(raw, kind)
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/feeds/" + urllib.parse.quote(rel)
    server.feeds["/feeds/" + rel] = (body, kind)

    d = feedparser.parse(body, response_headers={"content-type": kind, "content-location": url})
    version, bozo = d.get("version") or "", bool(d.get("bozo"))
    entries = oracle_feedparser(d, url)
    if not version and not entries and (rel.endswith(".json") or "json" in kind):
        jv, je = oracle_jsonfeed(body, url)
        if jv:
            version, entries = jv, je
    real = bool(version) or bool(entries)

    cache = os.path.join(work, f"cache-{n}")
    env = dict(os.environ)
    for key in ("no_proxy", "NO_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(key, None)
    env.update({"http_proxy": f"http://127.0.0.1:{port}", "HTTP_PROXY": f"http://127.0.0.1:{port}", "NO_COLOR": "1"})
    command = [args.binary, "sync", "--cache", cache, "--quiet", "--jobs", "8", "--timeout", "10",
               "--max-images-per-item", str(MAX_IMAGES), url]
    started = time.time()
    try:
        p = subprocess.run(command, env=env, capture_output=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
        code, stderr = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        code, stderr = "timeout", (e.stderr or b"").decode("utf-8", "replace")
    seconds = time.time() - started

    manifests = sorted(glob.glob(os.path.join(cache, "feeds", "*", "manifest.json")))
    manifest, items, warnings = None, [], None
    if manifests:
        try:
            with open(manifests[0], encoding="utf-8") as f:
                manifest = json.load(f)
            items = manifest_items(manifest)
            if isinstance(manifest.get("warnings"), list):
                warnings = len(manifest["warnings"])
        except Exception as error:
            stderr += f"\n[harness] unreadable manifest: {error}"
    matched, how = match(entries, items)

    r = {"file": rel, "url": url, "content_type": kind, "version": version, "bozo": bozo,
         "entries": len(entries), "exit": code, "seconds": round(seconds, 2), "stderr": stderr.strip()[-2000:],
         "manifest": bool(manifest), "items": len(items), "match": how,
         "ok": sum(1 for i in items if i["status"] == "ok"),
         "failed": sum(1 for i in items if i["status"] == "failed"),
         "no_image": sum(1 for i in items if i["status"] == "no-image"),
         "warnings": warnings, "real": real,
         "media": [0, 0], "covers": [0, 0], "covers_beside_html": 0, "itunes": [0, 0], "html": [0, 0], "violations": [], "misses": []}
    if real and (code == 3 or code == "timeout" or not isinstance(code, int) or code < 0 or not manifest):
        why = {3: "exit 3", "timeout": f"timed out after {RUN_TIMEOUT}s"}.get(code, f"exit {code}")
        if code not in (3, "timeout") and not manifest:
            why += ", no manifest"
        r["violations"].append(("1", f"refused ({why}; feedparser: version {version or '-'}, "
                                     f"{len(entries)} entries): {stderr.strip().splitlines()[-1] if stderr.strip() else ''}"))
    for index, (e, item) in enumerate(zip(entries, matched)):
        mirrored = item["ok"] if item else set()
        where = f"entry {index}" + ("" if item else " (no matching item)")
        # The first MAX_IMAGES of an entry's images, in the feed's order (media:content, then
        # enclosures): photomirror keeps at most that many per item (--max-images-per-item).
        for u in e["media"][:MAX_IMAGES]:
            r["media"][1] += 1
            if u in mirrored:
                r["media"][0] += 1
            else:
                r["violations"].append(("2", f"{where}: media image {u} not mirrored"
                                             + (f" (item {item['status']}; ok: {sorted(mirrored)[:2]})" if item else "")))
        if e.get("thumbnails"):
            r["media"][1] += 1
            r["covers"][1] += 1
            r["covers_beside_html"] += 1 if e["html"] else 0
            keys = {picture_key(t) for t in e["thumbnails"]}
            copies = {u for candidates in e["html"] for u in candidates if picture_key(u) in keys}
            if (set(e["thumbnails"]) | copies) & mirrored:
                r["media"][0] += 1
                r["covers"][0] += 1
            else:
                r["violations"].append(("2", f"{where}: none of the thumbnails {e['thumbnails'][:2]} mirrored"
                                             + (f" (nor their HTML copies {sorted(copies)[:2]})" if copies else "")))
        if e["kind"] == "itunes":
            r["itunes"][1] += 1
            if e["itunes"] in mirrored:
                r["itunes"][0] += 1
            else:
                r["misses"].append(f"{where}: itunes:image {e['itunes']} not mirrored")
        elif e["kind"] == "html":
            r["html"][1] += 1
            offered = {u for candidates in e["html"] for u in candidates}
            if offered & mirrored:
                r["html"][0] += 1
            else:
                r["misses"].append(f"{where}: html image {e['html'][0][0]} not mirrored")
        elif e["kind"] == "none" and item and item["status"] == "failed":
            r["violations"].append(("4", f"{where}: image-less entry's item is failed"))
    return r


# ---------------------------------------------------------------- main

def find_jpeg(explicit):
    if explicit:
        return explicit
    shared = os.path.join(os.path.dirname(REPO), "shared", "fixtures", "images", "jpeg", "pillow", "hopper.jpg")
    if os.path.exists(shared):
        return shared
    photos = sorted(glob.glob("/usr/share/backgrounds/mate/*/*.jpg"), key=os.path.getsize)
    return photos[0] if photos else None


def ratio(pair):
    return f"{pair[0]}/{pair[1]}" if pair[1] else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "photomirror"))
    parser.add_argument("--only", action="append", default=[], help="glob (or substring) of corpus paths; repeatable")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (caches, request log)")
    parser.add_argument("--json", help="write every result to this file")
    parser.add_argument("--image", help="the JPEG to answer for every image (default: a shared fixture photo)")
    parser.add_argument("--verbose", action="store_true", help="print the misses of assertion 3 too")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    if not os.access(args.binary, os.X_OK):
        print(f"feed_differential: no binary at {args.binary} (swift build first, or --binary)", file=sys.stderr)
        return 2
    jpeg = find_jpeg(args.image)
    if not jpeg or not os.path.exists(jpeg):
        print("feed_differential: no JPEG to serve (run Scripts/setup: mate-backgrounds), or pass --image", file=sys.stderr)
        return 2
    docs = documents(args.only)
    if not docs:
        print("feed_differential: no documents match", file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix="feed-differential-")
    shutil.copy(jpeg, os.path.join(work, "image.jpg"))
    with open(os.path.join(work, "image.jpg"), "rb") as f:
        server = Server({}, f.read())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    results = []
    try:
        for n, rel in enumerate(docs):
            results.append(run_one(n, rel, args, server, work))
    finally:
        server.shutdown()
        server.server_close()
        with open(os.path.join(work, "requests.log"), "w") as log:
            for t, method, url, status, size in server.log:
                log.write(f"{t:.3f} {method} {url} {status} {size}\n")

    header = ("file", "version", "bozo", "entries", "exit", "items", "ok", "failed", "no-img", "media", "itunes", "html", "warn")
    rows = [(r["file"], r["version"] or "-", "y" if r["bozo"] else "", str(r["entries"]), str(r["exit"]),
             str(r["items"]), str(r["ok"]), str(r["failed"]), str(r["no_image"]), ratio(r["media"]),
             ratio(r["itunes"]), ratio(r["html"]), "-" if r["warnings"] is None else str(r["warnings"]))
            for r in results]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(header))
    for row in rows:
        print(line(row))

    total = lambda key: [sum(r[key][0] for r in results), sum(r[key][1] for r in results)]
    media, covers, itunes, htm = total("media"), total("covers"), total("itunes"), total("html")
    real = [r for r in results if r["real"]]
    refused = [r for r in results if any(v[0] == "1" for v in r["violations"])]
    exits = {}
    for r in results:
        exits[str(r["exit"])] = exits.get(str(r["exit"]), 0) + 1
    print()
    print(f"documents {len(results)} (feedparser found a feed in {len(real)}); exits "
          + ", ".join(f"{k}: {v}" for k, v in sorted(exits.items())))
    print(f"entries {sum(r['entries'] for r in results)}; items {sum(r['items'] for r in results)}: "
          f"ok {sum(r['ok'] for r in results)}, failed {sum(r['failed'] for r in results)}, "
          f"no-image {sum(r['no_image'] for r in results)}; manifests with warnings: "
          f"{sum(1 for r in results if r['warnings'])} (with a warnings list: {sum(1 for r in results if r['warnings'] is not None)})")
    share = lambda p: (p[0] / p[1]) if p[1] else 1.0
    print(f"1. real feeds refused: {len(refused)} of {len(real)}")
    beside_html = sum(r["covers_beside_html"] for r in results)
    print(f"2. media/enclosure images mirrored: {media[0]}/{media[1]} ({share(media):.1%}); of them media:thumbnail "
          f"covers {covers[0]}/{covers[1]}, {beside_html} of which beside HTML images")
    print(f"3. html-only images mirrored: {htm[0]}/{htm[1]} ({share(htm):.1%}, needs {HTML_SHARE:.0%}); "
          f"itunes-only images mirrored: {itunes[0]}/{itunes[1]} ({share(itunes):.1%}, needs {ITUNES_SHARE:.0%})")
    failed_imageless = sum(1 for r in results for v in r["violations"] if v[0] == "4")
    print(f"4. image-less entries whose item failed: {failed_imageless}")

    violations = [(r["file"], a, text) for r in results for a, text in r["violations"]]
    if share(htm) < HTML_SHARE:
        violations.append(("(corpus)", "3", f"html-only images mirrored {htm[0]}/{htm[1]} = {share(htm):.1%} < {HTML_SHARE:.0%}"))
    if share(itunes) < ITUNES_SHARE:
        violations.append(("(corpus)", "3", f"itunes-only images mirrored {itunes[0]}/{itunes[1]} = {share(itunes):.1%} < {ITUNES_SHARE:.0%}"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "totals": {"media": media, "covers": covers, "itunes": itunes, "html": htm,
                       "refused": len(refused), "real": len(real), "failed_imageless": failed_imageless},
                       "violations": violations}, f, indent=1, default=list)
    if args.keep:
        print(f"kept {work} (caches, requests.log)")
    else:
        shutil.rmtree(work, ignore_errors=True)
    if violations:
        print(f"\nFAIL: {len(violations)} violations")
        for file, a, text in violations:
            print(f"  [{a}] {file}: {text}")
        if args.verbose:
            print("\nassertion 3 misses:")
            for r in results:
                for text in r["misses"]:
                    print(f"  {r['file']}: {text}")
        return 1
    print("\nPASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
