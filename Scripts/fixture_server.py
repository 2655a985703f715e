#!/usr/bin/env python3
"""A static file server on 127.0.0.1 for the demo and the integration tests.

Prints its port on the first line of stdout, logs every request ("METHOD PATH STATUS") to
--log, answers conditional requests (ETag / If-None-Match, Last-Modified / If-Modified-Since)
with 304, and never listens on anything but loopback.
"""
import argparse
import hashlib
import http.server
import os
import sys
import threading


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_lock = threading.Lock()
    log_path = None

    def log_message(self, format, *args):  # quiet: the request log below is what tests read
        pass

    def log_request(self, code="-", size="-"):
        if Handler.log_path:
            with Handler.log_lock, open(Handler.log_path, "a") as log:
                log.write(f"{self.command} {self.path} {code}\n")

    def etag_for(self, path):
        stat = os.stat(path)
        return '"%s"' % hashlib.sha1(f"{stat.st_mtime_ns}-{stat.st_size}".encode()).hexdigest()[:16]

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isfile(path):
            etag = self.etag_for(path)
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
        return super().send_head()

    def end_headers(self):
        path = self.translate_path(self.path)
        if os.path.isfile(path):
            self.send_header("ETag", self.etag_for(path))
        super().end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", required=True, help="folder to serve")
    parser.add_argument("--log", help="append one line per request to this file")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args()
    Handler.log_path = args.log
    # Python's keep-alive writes headers and body separately; without TCP_NODELAY, Nagle and
    # delayed ACK add ~40 ms to every reused connection.
    Handler.disable_nagle_algorithm = True
    os.chdir(args.root)
    server = Server(("127.0.0.1", args.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
