/// The Python fixture server, written to a temp dir per test. Routes are `/<name>/<arg>`.
/// Every body response carries `X-SHA256` computed by Python's hashlib, an oracle
/// independent of the loader's own hashing.
let fixtureServerScript = #"""
import gzip, hashlib, os, signal, sys, threading, time
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT"

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("X-SHA256", hashlib.sha256(body).hexdigest())
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.strip("/").split("/", 1)
        route, arg = parts[0], (parts[1] if len(parts) > 1 else "")
        if route == "bytes":
            self.send(200, bytes(i % 251 for i in range(int(arg))), [("Content-Type", "application/octet-stream")])
        elif route == "status":
            self.send(int(arg), b"status body")
        elif route == "hop":
            hops = int(arg)
            if hops > 0:
                self.send(302, b"moved", [("Location", "/hop/%d" % (hops - 1)), ("ETag", '"hop"'), ("X-Hop", "yes")])
            else:
                self.send(200, b"landed", [("ETag", '"final"'), ("Last-Modified", LAST_MODIFIED)])
        elif route == "loop":
            self.send(302, b"", [("Location", "/loop")])
        elif route == "to-file":
            self.send(302, b"", [("Location", "file:///etc/passwd")])
        elif route == "declared-huge":
            # Declares 5 MB but never sends it: only an up-front rejection finishes quickly.
            self.send_response(200)
            self.send_header("Content-Length", "5000000")
            self.end_headers()
            self.wfile.flush()
            time.sleep(3)
            self.close_connection = True
        elif route == "chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(int(arg)):
                self.wfile.write(b"3e8\r\n" + b"x" * 1000 + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        elif route == "sleep":
            time.sleep(float(arg))
            self.send(200, b"late")
        elif route == "trickle":
            # One byte per 0.1 s: never a stall, only the total timeout can end it.
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(1000):
                self.wfile.write(b"t")
                self.wfile.flush()
                time.sleep(0.1)
        elif route == "etag":
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.end_headers()
            else:
                self.send(200, b"fresh", [("ETag", '"v1"'), ("Last-Modified", LAST_MODIFIED)])
        elif route == "gzip":
            self.send(200, gzip.compress(b"hello gzip " * 100), [("Content-Encoding", "gzip")])
        elif route == "peer":
            self.send(200, str(self.client_address[1]).encode())
        elif route == "echo-header":
            self.send(200, (self.headers.get(arg) or "").encode())
        else:
            self.send(404, b"no route")

    def do_HEAD(self):
        parts = self.path.strip("/").split("/", 1)
        if parts[0] == "bytes":
            self.send_response(200)
            self.send_header("Content-Length", parts[1])
            self.end_headers()
        else:
            self.send_response(404)
            self.send_header("Content-Length", "8")
            self.end_headers()

    def echo_body(self):
        """PUT, POST, DELETE: answers "METHOD LENGTH SHA256 CONTENT-TYPE" for the body received.
        /flaky/<id> first answers 503 once per id, so a retry must send the body again."""
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = self.path.strip("/").split("/", 1)
        if parts[0] == "flaky" and FLAKY.setdefault(parts[1], 0) == 0:
            FLAKY[parts[1]] += 1
            self.send(503, b"try again", [("Retry-After", "0")])
            return
        summary = "%s %d %s %s" % (self.command, len(body), hashlib.sha256(body).hexdigest(),
                                   self.headers.get("Content-Type") or "-")
        self.send(200, summary.encode())

    do_PUT = do_POST = do_DELETE = echo_body

FLAKY = {}

class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # clients that abort (cancel, tooLarge) are expected

def exit_when_stdin_closes():
    # The test closes our stdin to stop us, and so does its death: no orphaned servers.
    sys.stdin.buffer.read()
    os._exit(0)

# Children of the test process inherit its blocked signal mask, which would make SIGTERM a no-op.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
