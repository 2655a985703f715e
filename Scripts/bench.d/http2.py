"""Target 10: HTTP/2 at 50 ms RTT.

nginx serves the 500 px corpus over TLS with `http2` (a self-signed certificate for 127.0.0.1,
made with openssl in the work folder), behind delay_proxy.py: a TCP proxy, so the TLS bytes
pass through it untouched, each chunk held 25 ms each way and a connection's first an extra
round trip. photomirror sync --jobs 16 --per-host 16 (download and decode, as target 3; the
certificate trusted through CURL_CA_BUNDLE) against curl --parallel --parallel-max 16 --http2
--cacert downloading the same URLs (download only), round-robin. nginx's access log says which
protocol and how many connections each run used.
"""
import os, shutil, subprocess

import measure
from website import NGINX_CONF, Site

_PLAIN_LISTEN = "listen 127.0.0.1:{port};"
_PLAIN_LOG = "access_log {run}/access.log;"
assert _PLAIN_LISTEN in NGINX_CONF and _PLAIN_LOG in NGINX_CONF, "website.NGINX_CONF changed: update http2.py"
# The same site, over TLS 1.2/1.3 (nginx 1.22 offers no 1.3 unless told) with HTTP/2 by ALPN.
TLS_CONF = (NGINX_CONF
            .replace(_PLAIN_LISTEN, "listen 127.0.0.1:{port} ssl http2;\n        ssl_certificate {cert};\n"
                                    "        ssl_certificate_key {key};\n        ssl_protocols TLSv1.2 TLSv1.3;")
            .replace(_PLAIN_LOG, "log_format streams '$server_protocol $connection $request_uri $status';\n"
                                 "    access_log {run}/access.log streams;"))


class TLSSite(Site):
    scheme = "https"

    def __init__(self, workdir, corpus, sets):
        super().__init__(workdir, corpus, sets)
        self.cert = os.path.join(self.run_dir, "cert.pem")
        self.key = os.path.join(self.run_dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", self.key, "-out", self.cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)

    def config(self):
        return TLS_CONF.format(run=self.run_dir, root=self.root, port=self.port, cert=self.cert, key=self.key)


def _fresh(folder):
    def prepare():
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    return prepare


def latency(binary, corpus, work, count, rounds, jobs=16, warmup=1):
    site = TLSSite(os.path.join(work, "site-h2"), corpus, ["s500"]).start(with_proxy=True, delay_ms=25)
    try:
        urls = site.image_urls("s500", count, via_proxy=True)
        feed = site.write_feed("h2", urls, via_proxy=True)
        cache, dl = os.path.join(work, "pm-cache-h2"), os.path.join(work, "curl-dl-h2")
        config = os.path.join(work, "curl-h2.cfg")
        with open(config, "w") as fh:
            fh.write(f'remote-name-all\noutput-dir = "{dl}"\n' + "".join(f'url = "{u}"\n' for u in urls))
        seen = {}  # tool name -> [(protocols, connections)] per run, from nginx's log

        def logged(name, prepare):
            mark = []

            def before():
                prepare()
                mark[:] = [len(site.access_log_lines())]

            def after(_run):
                images = [line.split() for line in site.access_log_lines()[mark[0]:] if " /s500/" in line]
                seen.setdefault(name, []).append((sorted({f[0] for f in images}), len({f[1] for f in images})))
            return before, after

        pm = f"photomirror sync --jobs {jobs} --per-host {jobs} over TLS"
        peer = f"curl --parallel --parallel-max {jobs} --http2 (download only)"
        environment = dict(os.environ, CURL_CA_BUNDLE=site.cert)
        environment.pop("SSL_CERT_FILE", None)
        tools = []
        for name, argv, folder, env in [
            (pm, [binary, "sync", "--cache", cache, "--quiet", "--jobs", str(jobs), "--per-host", str(jobs), feed],
             cache, environment),
            (peer, ["curl", "-s", "--fail", "--http2", "--cacert", site.cert, "--parallel", "--parallel-max", str(jobs),
                    "-K", config], dl, None),
        ]:
            before, after = logged(name, _fresh(folder))
            tools.append(measure.Tool(name, argv, prepare=before, after=after, env=env))
        stats = measure.round_robin(tools, count, rounds, warmup=warmup, label=f"sync {count}x500px over HTTP/2 at 50 ms RTT")
        # The protocols and the most connections any counted run of each tool used.
        counted = {name: runs[warmup:] or runs for name, runs in seen.items()}
        traffic = {name: {"protocols": sorted({p for protocols, _ in runs for p in protocols}),
                          "connections": max(c for _, c in runs)} for name, runs in counted.items()}
        return {"stats": stats, "ratio": measure.ratio(stats, pm, peer), "pm": pm, "peer": peer, "traffic": traffic}
    finally:
        site.stop()
