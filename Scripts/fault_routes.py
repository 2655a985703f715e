"""HTTP faults for the hardening tests, served under /fault/ by fixture_server.py.

Each route misbehaves the way real servers do; counters are per route key, so a test can ask
for "503 twice, then the photo".
"""
import os
import struct
import threading
import time
import zlib

counters = {}
counters_lock = threading.Lock()


def count(key):
    with counters_lock:
        counters[key] = counters.get(key, 0) + 1
        return counters[key]


def png_bomb():
    """A tiny, valid PNG whose header claims 60000 x 60000 RGBA pixels (14.4 GB decoded)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\0" * 1024)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def handle(handler, parts):
    """parts: the path after /fault/, split on '/'. Returns True when it answered."""
    kind = parts[0] if parts else ""
    rest = "/".join(parts[1:])
    if kind == "status":                      # /fault/status/404
        return send(handler, int(parts[1]), b"error page\n", "text/plain")
    if kind == "gone-while":                  # /fault/gone-while/MARKER/feed.xml: 410 while the file MARKER exists
        if os.path.exists(parts[1]):
            return send(handler, 410, b"gone\n", "text/plain")
        return send(handler, 200, read("/".join(parts[2:])), "application/rss+xml")
    if kind == "flaky":                       # /fault/flaky/KEY/N/photos/x.jpg: 503 N times, then the file
        if count("flaky/" + parts[1]) <= int(parts[2]):
            return send(handler, 503, b"busy\n", "text/plain")
        return send_file(handler, "/".join(parts[3:]))
    if kind == "ratelimit":                   # /fault/ratelimit/KEY/photos/x.jpg: 429 + Retry-After: 1, then the file
        if count("ratelimit/" + parts[1]) == 1:
            return send(handler, 429, b"slow down\n", "text/plain", {"Retry-After": "1"})
        return send_file(handler, "/".join(parts[2:]))
    if kind == "busy":                        # /fault/busy/KEY/N/SECONDS/photos/x.jpg: the first N requests
        if count("busy/" + parts[1]) <= int(parts[2]):  # under KEY get 429 + Retry-After: SECONDS
            return send(handler, 429, b"slow down\n", "text/plain", {"Retry-After": parts[3]})
        return send_file(handler, "/".join(parts[4:]))
    if kind == "status-after":                # /fault/status-after/KEY/500: once a "busy" route under KEY
        deadline = time.time() + 60           # has answered (or after a minute), that status
        while time.time() < deadline:
            with counters_lock:
                if counters.get("busy/" + parts[1], 0) > 0:
                    break
            time.sleep(0.01)
        time.sleep(0.2)
        return send(handler, int(parts[2]), b"error page\n", "text/plain")
    if kind == "slow":                        # /fault/slow/SECONDS/photos/x.jpg: the file after SECONDS
        time.sleep(float(parts[1]))
        return send_file(handler, "/".join(parts[2:]))
    if kind == "stall":                       # headers, then one byte a second
        handler.send_response(200)
        handler.send_header("Content-Type", "image/jpeg")
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        try:
            for _ in range(120):
                handler.wfile.write(b"\xff")
                handler.wfile.flush()
                time.sleep(1)
        except OSError:
            pass
        return True
    if kind == "truncated":                   # /fault/truncated/photos/x.jpg: half the body, then close
        data = read(rest)
        handler.send_response(200)
        handler.send_header("Content-Type", "image/jpeg")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data[: len(data) // 2])
        handler.wfile.flush()
        handler.close_connection = True
        return True
    if kind == "long-cl":                     # /fault/long-cl/photos/x.jpg: the file, then bytes past its Content-Length
        data = read(rest)                      # that stay on the kept-alive connection, in front of its next answer
        handler.send_response(200)
        handler.send_header("Content-Type", "image/jpeg")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
        handler.wfile.flush()
        time.sleep(0.2)
        handler.wfile.write(b"SECRET excess bytes past the Content-Length\r\n")
        handler.wfile.flush()
        return True
    if kind == "redirect-to":                 # /fault/redirect-to/PORT/path: 302 to http://127.0.0.1:PORT/path
        return send(handler, 302, b"", "text/plain", {"Location": f"http://127.0.0.1:{parts[1]}/" + "/".join(parts[2:])})
    if kind == "redirect-loop":
        return send(handler, 302, b"", "text/plain", {"Location": "/fault/redirect-loop/again"})
    if kind == "redirect-file":
        return send(handler, 302, b"", "text/plain", {"Location": "file:///etc/passwd"})
    if kind == "redirect":                    # /fault/redirect/photos/x.jpg: one hop, then the file
        return send(handler, 301, b"", "text/plain", {"Location": "/" + rest})
    if kind == "huge":                        # claims 4 GB
        handler.send_response(200)
        handler.send_header("Content-Type", "image/jpeg")
        handler.send_header("Content-Length", str(4 * 1024 ** 3))
        handler.end_headers()
        try:
            handler.wfile.write(b"\xff\xd8" + b"\0" * 65536)
        except OSError:
            pass
        handler.close_connection = True
        return True
    if kind == "html":                        # an HTML page that says it is a JPEG
        return send(handler, 200, b"<!DOCTYPE html><html><body>Sign in to see this photo</body></html>", "image/jpeg")
    if kind == "png-bomb":
        return send(handler, 200, png_bomb(), "image/png")
    return False


def read(path):
    with open(os.path.join(os.getcwd(), path), "rb") as file:
        return file.read()


def send_file(handler, path):
    return send(handler, 200, read(path), "image/jpeg")


def send(handler, status, body, content_type, headers=None):
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(body)
    return True
