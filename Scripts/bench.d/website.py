"""The local web site the sync targets download from: nginx on 127.0.0.1 serving the corpus
and Flickr-style feeds, and optionally delay_proxy.py in front of it (50 ms RTT).

Only loopback addresses are ever used. Ports are picked free at start, so a bench never
collides with a test server another process runs.
"""
import json, os, shutil, socket, subprocess, sys, time
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))

NGINX_CONF = """
worker_processes 2;
daemon off;
pid {run}/nginx.pid;
error_log {run}/error.log warn;
events {{ worker_connections 2048; }}
http {{
    # Unbuffered, so the re-sync check can count requests right after the command exits.
    access_log {run}/access.log;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    types {{ image/jpeg jpg; application/javascript gne; }}
    default_type application/octet-stream;
    client_body_temp_path {run}/tmp/body;
    proxy_temp_path {run}/tmp/proxy;
    fastcgi_temp_path {run}/tmp/fastcgi;
    uwsgi_temp_path {run}/tmp/uwsgi;
    scgi_temp_path {run}/tmp/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        allow 127.0.0.0/8;
        deny all;
    }}
}}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def flickr_feed(urls, title, first_id=0):
    """A Flickr public feed (JSONP, as photos_public.gne?format=json sends it) naming `urls`;
    its photos are numbered from `first_id`, so feeds of one site can have distinct photos."""
    base = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    items = []
    for number, url in enumerate(urls, first_id):
        photo_id = str(52000000000 + number)
        published = base + timedelta(minutes=number)
        items.append({
            "title": f"bench photo {number}",
            "link": f"https://www.flickr.com/photos/bench/{photo_id}/",
            "media": {"m": url},
            "date_taken": (published - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S-08:00"),
            "description": f" <p><a href=\"https://www.flickr.com/people/bench/\">bench</a> posted a photo:</p> "
                           f"<p><a href=\"https://www.flickr.com/photos/bench/{photo_id}/\" title=\"bench photo {number}\">"
                           f"<img src=\"{url}\" width=\"240\" height=\"160\" alt=\"bench photo {number}\" /></a></p> ",
            "published": published.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "author": 'nobody@flickr.com ("bench")',
            "author_id": "00000000@N00",
            "tags": f"bench photo set{number % 7}",
        })
    feed = {"title": title, "link": "https://www.flickr.com/photos/tags/bench/", "description": "",
            "modified": base.strftime("%Y-%m-%dT%H:%M:%SZ"), "generator": "https://www.flickr.com/",
            "items": items}
    return "jsonFlickrFeed(" + json.dumps(feed, indent="\t") + ")"


class Site:
    """nginx serving `root` (corpus folders linked in, feeds written) on a free loopback port."""

    def __init__(self, workdir, corpus, sets):
        self.dir = workdir
        self.root = os.path.join(workdir, "www")
        self.run_dir = os.path.join(workdir, "run")
        shutil.rmtree(workdir, ignore_errors=True)
        for d in (self.root, os.path.join(self.run_dir, "tmp")):
            os.makedirs(d)
        for name in sets:
            os.symlink(os.path.abspath(os.path.join(corpus, name)), os.path.join(self.root, name))
        self.port = free_port()
        self.proxy_port = None
        self.procs = []

    scheme = "http"

    def config(self):
        """nginx.conf's text; a subclass serves differently (http2.py: over TLS)."""
        return NGINX_CONF.format(run=self.run_dir, root=self.root, port=self.port)

    def start(self, with_proxy=False, delay_ms=25):
        conf = os.path.join(self.run_dir, "nginx.conf")
        with open(conf, "w") as fh:
            fh.write(self.config())
        self.procs.append(subprocess.Popen(["nginx", "-c", conf, "-p", self.run_dir],
                                           stderr=subprocess.DEVNULL))
        wait_for(self.port)
        if with_proxy:
            self.proxy_port = free_port()
            self.procs.append(subprocess.Popen(
                [sys.executable, os.path.join(HERE, "delay_proxy.py"), "--listen", str(self.proxy_port),
                 "--upstream", str(self.port), "--delay-ms", str(delay_ms)]))
            wait_for(self.proxy_port)
        return self

    def stop(self):
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs = []

    def server_cpu_seconds(self):
        """User + system CPU nginx's workers have used so far (clock ticks in /proc)."""
        master = self.procs[0].pid
        try:
            with open(f"/proc/{master}/task/{master}/children") as fh:
                workers = [int(pid) for pid in fh.read().split()]
        except OSError:
            return 0.0
        ticks = 0
        for pid in workers:
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])
            except OSError:
                pass
        return ticks / os.sysconf("SC_CLK_TCK")

    def url(self, path, via_proxy=False):
        return f"{self.scheme}://127.0.0.1:{self.proxy_port if via_proxy else self.port}/{path}"

    def image_urls(self, set_name, count, via_proxy=False):
        names = sorted(n for n in os.listdir(os.path.join(self.root, set_name)) if n.endswith(".jpg"))
        if len(names) < count:
            raise RuntimeError(f"{set_name} has {len(names)} files, {count} wanted")
        return [self.url(f"{set_name}/{n}", via_proxy) for n in names[:count]]

    def write_feed(self, name, urls, via_proxy=False, first_id=0):
        """Writes feeds/NAME.gne and returns its URL (through the proxy when asked)."""
        os.makedirs(os.path.join(self.root, "feeds"), exist_ok=True)
        with open(os.path.join(self.root, "feeds", name + ".gne"), "w") as fh:
            fh.write(flickr_feed(urls, f"bench {name}", first_id))
        return self.url(f"feeds/{name}.gne", via_proxy)

    def access_log_lines(self):
        path = os.path.join(self.run_dir, "access.log")
        if not os.path.exists(path):
            return []
        with open(path) as fh:
            return fh.readlines()
