#!/usr/bin/env python3
"""A static file server on 127.0.0.1 for the demo and the integration tests.

Prints its port on the first line of stdout, logs every request ("METHOD PATH STATUS") to
--log, to --log + ".conditions" the same line followed by the conditional headers it
carried ("GET /feed.js 304 If-None-Match If-Modified-Since"), to --log + ".agents" the method,
path and User-Agent ("GET /feed.js photomirror/0.1 (…)"), answers conditional requests (ETag / If-None-Match, Last-Modified / If-Modified-Since)
with 304, and never listens on anything but loopback. With --events, it also writes one line per
connection opened or closed and per request begun or answered ("<time> open", "<time> close",
"<time> begin /path", "<time> end /path 200"), in the order they happened, so a test can count
how many connections and requests a client had open at once.
"""
import argparse
import hashlib
import http.server
import os
import sys
import json
import signal
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_routes  # noqa: E402


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_lock = threading.Lock()
    log_path = None
    marvel = None
    delay = 0.0
    marvel_keys = None
    events_path = None

    def log_message(self, format, *args):  # quiet: the request log below is what tests read
        pass

    @staticmethod
    def event(text):
        if Handler.events_path:
            with Handler.log_lock, open(Handler.events_path, "a") as events:
                events.write(f"{time.time():.6f} {text}\n")

    def setup(self):
        Handler.event("open")
        super().setup()

    def finish(self):
        try:
            super().finish()
        finally:
            Handler.event("close")

    def log_request(self, code="-", size="-"):
        if Handler.log_path:
            with Handler.log_lock, open(Handler.log_path, "a") as log:
                log.write(f"{self.command} {self.path} {code}\n")
            conditions = [name for name in ("If-None-Match", "If-Modified-Since") if self.headers.get(name)]
            with Handler.log_lock, open(Handler.log_path + ".conditions", "a") as log:
                log.write(" ".join([self.command, self.path, f"{code}"] + conditions) + "\n")
            with Handler.log_lock, open(Handler.log_path + ".agents", "a") as log:
                log.write(f"{self.command} {self.path} {self.headers.get('User-Agent', '')}\n")

    def do_GET(self):
        self.status_sent = "-"
        Handler.event(f"begin {self.path}")
        try:
            self.answer_get()
        finally:
            Handler.event(f"end {self.path} {self.status_sent}")

    def send_response(self, code, message=None):
        self.status_sent = code
        super().send_response(code, message)

    def answer_get(self):
        if Handler.delay:
            time.sleep(Handler.delay)
        if self.path.startswith("/fault/"):
            path = urllib.parse.urlsplit(self.path).path
            if fault_routes.handle(self, path[len("/fault/"):].split("/")):
                return
        if Handler.marvel and self.path.startswith("/v1/public/characters"):
            return self.marvel_page()
        if self.path.startswith("/services/rest/"):
            return self.flickr_rest_page()
        return super().do_GET()

    def flickr_rest_page(self):
        """Flickr REST pages: /services/rest/?...&page=N answers with the file rest-page-N.json."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        page = query.get("page", ["1"])[0]
        name = "rest-page-%s.json" % page
        if not page.isdigit() or not os.path.isfile(name):
            return self.send_json(200, {"stat": "fail", "code": 1, "message": "no page %s" % page})
        # Validators as a static file has them, so that a re-sync can get a 304 for page 1.
        etag = self.etag_for(name)
        if self.headers.get("If-None-Match") == etag:
            return self.send_not_modified(etag)
        with open(name, "rb") as file:
            self.send_json(200, json.loads(file.read()), etag=etag)

    def marvel_page(self):
        """The Marvel API's paged characters endpoint over the results in the --marvel file, refusing requests
        whose ts/apikey/hash signature does not match --marvel-keys (as the real API does)."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        first = lambda name, default=None: query.get(name, [default])[0]
        if Handler.marvel_keys:
            public, private = Handler.marvel_keys
            ts = first("ts", "")
            expected = hashlib.md5((ts + private + public).encode()).hexdigest()
            if first("apikey") != public or first("hash") != expected or not ts:
                return self.send_json(401, {"code": "InvalidCredentials", "message": "That hash, timestamp and key combination is invalid."})
        offset = int(first("offset", "0"))
        limit = min(int(first("limit", "20")), 100)
        with open(Handler.marvel) as file:  # read per request: tests write it after learning the port
            everything = json.load(file)
        results = everything[offset:offset + limit]
        self.send_json(200, {
            "code": 200, "status": "Ok", "copyright": "© 2026 MARVEL",
            "attributionText": "Data provided by Marvel. © 2026 MARVEL",
            "attributionHTML": "<a href=\"http://marvel.com\">Data provided by Marvel. © 2026 MARVEL</a>",
            "etag": "e%d" % offset,
            "data": {"offset": offset, "limit": limit, "total": len(everything), "count": len(results), "results": results},
        })

    def send_json(self, status, body, etag=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        if etag:
            self.etag_sent = True
            self.send_header("ETag", etag)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def etag_for(self, path):
        stat = os.stat(path)
        return '"%s"' % hashlib.sha1(f"{stat.st_mtime_ns}-{stat.st_size}".encode()).hexdigest()[:16]

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isfile(path):
            etag = self.etag_for(path)
            if self.headers.get("If-None-Match") == etag:
                return self.send_not_modified(etag)
        return super().send_head()

    def send_not_modified(self, etag):
        self.send_response(304)
        self.etag_sent = True
        self.send_header("ETag", etag)
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    def end_headers(self):
        # Once only: a client joins repeated ETag headers into one value that matches nothing.
        path = self.translate_path(self.path)
        if os.path.isfile(path) and not getattr(self, "etag_sent", False):
            self.send_header("ETag", self.etag_for(path))
        self.etag_sent = False
        super().end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", required=True, help="folder to serve")
    parser.add_argument("--log", help="append one line per request to this file")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on, within 127.0.0.0/8")
    parser.add_argument("--marvel", help="JSON list of Marvel results served at /v1/public/characters")
    parser.add_argument("--marvel-keys", help="PUBLIC:PRIVATE; requests must be signed with them")
    parser.add_argument("--stop-on-stdin-eof", action="store_true",
                        help="exit when stdin closes (tests: no server outlives its test process)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each GET")
    parser.add_argument("--events", help="append connection and request events, with times, to this file")
    args = parser.parse_args()
    Handler.delay = args.delay
    Handler.events_path = args.events
    Handler.log_path = args.log
    if args.marvel:
        Handler.marvel = os.path.abspath(args.marvel)
    if args.marvel_keys:
        Handler.marvel_keys = tuple(args.marvel_keys.split(":", 1))
    # Python's keep-alive writes headers and body separately; without TCP_NODELAY, Nagle and
    # delayed ACK add ~40 ms to every reused connection.
    Handler.disable_nagle_algorithm = True
    # Children of a test process inherit its blocked signal mask, which would make SIGTERM a no-op.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    if args.stop_on_stdin_eof:
        def exit_when_stdin_closes():
            sys.stdin.buffer.read()
            os._exit(0)
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    os.chdir(args.root)
    server = Server((args.bind, args.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
