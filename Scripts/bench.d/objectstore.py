"""Target 9: `photomirror sync --store s3://BUCKET/site` into OpenStack Swift's S3 API on
127.0.0.1 (Scripts/object_store), against `curl --parallel --parallel-max 16` PUTting the same
originals and thumbnails into the same store, round-robin; and, for reference, curl sending the
requests photomirror sends.

The store is started once for the target, its data on the bench's work folder (a tmpfs when
there is room, as for every other target), and stopped at the end. nginx serves the feed and
its 500 px photos, as for target 2. Each run of every tool gets a bucket of its own, created
before the run, untimed (photomirror still asks to create it, and is told it owns it).

- photomirror runs as a user would: `--jobs 16` (the default), a fresh `--cache`, the feed from
  nginx. It lists the bucket's content folders once (content another writer may have put is
  never uploaded twice), then per image downloads the original, makes the 40x40 thumbnail and
  PUTs the two objects; then it publishes the manifest, the JSON Feed, the pages and the root page. Its 16 connections
  are shared by the downloads and the store's requests: the same 16 as curl's. `--per-host`
  (default 6) holds only the nginx host; the store's host is not a feed host, so its requests
  may use all 16 connections. A download over loopback takes well under a millisecond, so six
  of them keep far ahead of the store, and `--per-host 16` would measure the cap of neither:
  the default is what a user runs.
- curl does the same storing without the mirror: the originals on disk and their thumbnails
  made beforehand (`photomirror thumb`, untimed: the bytes the sync puts), every object PUT
  once, 16 in flight, with the very headers photomirror sends (Content-Type, the immutable
  Cache-Control, the payload's SHA-256 in `x-amz-content-sha256`, which the store checks, and
  `x-amz-meta-sha256` on originals) under the same keys. curl 7.88 leaves
  `x-amz-content-sha256` to the caller and splits `--user` at the first colon, which the access
  key has: the credentials go in the URL, percent-encoded, as Scripts/object_store's ready check
  does.
- The reference row adds a HEAD of each key before its PUT: what asking the store about each
  object would cost, which is why photomirror lists the content folders once instead.

The rate is images per second for every row (curl's two objects per image). After each run the
bucket is listed (Swift's own API, untimed) and must hold every original and thumbnail. The
store's own CPU (its five processes) is read from /proc around each run, for reference: on two
shared cores whatever the client spends is taken from the store, and the store's work per image
is what the client's requests decide.
"""
import glob, hashlib, json, os, shutil, statistics, subprocess, urllib.request

import measure
from website import Site

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OBJECT_STORE = os.path.join(ROOT, "Scripts", "object_store")
PREFIX = "site"
SIZE = "40x40"
IMMUTABLE = "public, max-age=31536000, immutable"  # what photomirror sends with content objects
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
JOBS = 16


class Store:
    """Scripts/object_store's store in `folder`, started on enter and stopped on exit."""

    def __init__(self, folder):
        self.folder = folder
        self.info = None

    def __enter__(self):
        shutil.rmtree(self.folder, ignore_errors=True)
        subprocess.run([OBJECT_STORE, "install"], check=True)
        try:
            done = subprocess.run([OBJECT_STORE, "start", self.folder], stdout=subprocess.PIPE, text=True, check=True)
            self.info = json.loads(done.stdout.strip().splitlines()[-1])
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        subprocess.run([OBJECT_STORE, "stop", self.folder])

    @property
    def endpoint(self):
        return self.info["endpoint"]

    def signed_url(self, path):
        """An S3 path-style URL with the credentials in it, for curl --aws-sigv4."""
        user = urllib.request.quote(self.info["access_key_id"], safe="")
        secret = urllib.request.quote(self.info["secret_access_key"], safe="")
        return self.endpoint.replace("http://", f"http://{user}:{secret}@", 1) + "/" + path

    def sigv4(self):
        return f"aws:amz:{self.info['region']}:s3"

    def create_bucket(self, bucket):
        done = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT",
                               "--aws-sigv4", self.sigv4(), "-H", "x-amz-content-sha256: " + EMPTY_SHA256,
                               self.signed_url(bucket)], stdout=subprocess.PIPE, text=True)
        if done.stdout.strip() != "200":
            raise RuntimeError(f"cannot create bucket {bucket} at {self.endpoint}: HTTP {done.stdout.strip()}")

    def _token(self):
        request = urllib.request.Request(self.endpoint + "/auth/v1.0", headers={
            "X-Auth-User": self.info["access_key_id"], "X-Auth-Key": self.info["secret_access_key"]})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.headers["X-Auth-Token"]

    def keys(self, bucket):
        """Every key in the bucket, through Swift's own listing (no signing needed)."""
        token, keys, marker = self._token(), [], ""
        while True:
            url = (f"{self.info['public_base_url']}/{bucket}?format=json&limit=10000"
                   f"&marker={urllib.request.quote(marker, safe='')}")
            with urllib.request.urlopen(urllib.request.Request(url, headers={"X-Auth-Token": token}), timeout=30) as r:
                page = json.load(r)
            if not page:
                return keys
            keys += [entry["name"] for entry in page]
            marker = keys[-1]

    def cpu_seconds(self):
        """user + sys of the store's processes so far (the pids Scripts/object_store recorded)."""
        total, tick = 0.0, os.sysconf("SC_CLK_TCK")
        for path in glob.glob(os.path.join(self.folder, "run", "*.pid")):
            with open(path) as fh:
                pid = fh.read().strip()
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15)
        return total


def _sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _objects(originals, thumbs):
    """(key, file, Content-Type, payload SHA-256, x-amz-meta-sha256 or None) for every object
    photomirror puts for these originals: cache-layout.md's paths under PREFIX."""
    objects = []
    for path in originals:
        digest = _sha256(path)
        thumb = os.path.join(thumbs, os.path.splitext(os.path.basename(path))[0] + ".png")
        objects.append((f"{PREFIX}/originals/{digest[:2]}/{digest}.jpg", path, "image/jpeg", digest, digest))
        objects.append((f"{PREFIX}/thumbs/{SIZE}/{digest[:2]}/{digest}.png", thumb, "image/png", _sha256(thumb), None))
    return objects


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _curl_config(path, store, bucket, objects, heads=False):
    """One curl operation per request (`next` between them): each object has its own headers.
    With `heads`, a HEAD of each key before its PUT, as a client asking about each object would
    send (not waiting for its answer, and not skipping the PUT)."""
    operations = []
    for key, file, content_type, digest, meta in objects:
        url = f"url = {_quote(store.signed_url(f'{bucket}/{key}'))}\n"
        signing = f"aws-sigv4 = {_quote(store.sigv4())}\nsilent\nshow-error\noutput = \"/dev/null\"\n"
        if heads:  # a 404, which `fail` would count as an error
            operations.append(url + "head\n" + signing + f"header = {_quote('x-amz-content-sha256: ' + EMPTY_SHA256)}\n")
        operations.append(url + f"upload-file = {_quote(file)}\n" + signing + "fail\n"
                          f"header = {_quote('Content-Type: ' + content_type)}\n"
                          f"header = {_quote('Cache-Control: ' + IMMUTABLE)}\n"
                          f"header = {_quote('x-amz-content-sha256: ' + digest)}\n"
                          + (f"header = {_quote('x-amz-meta-sha256: ' + meta)}\n" if meta else ""))
    with open(path, "w") as fh:
        fh.write("next\n".join(operations))
    return path


class Rounds:
    """A fresh bucket for every run of one tool (created untimed), and the checks after it."""

    def __init__(self, store, tag, expected, folders=()):
        self.store, self.tag, self.expected, self.folders = store, tag, expected, folders
        self.number = 0
        self.cpu_before = 0.0
        self.store_cpu = []  # seconds of the store's CPU per run

    @property
    def bucket(self):
        return f"bench-{self.tag}-{self.number}"

    def prepare(self):
        self.number += 1
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
        self.store.create_bucket(self.bucket)
        self.cpu_before = self.store.cpu_seconds()

    def after(self, _run):
        self.store_cpu.append(self.store.cpu_seconds() - self.cpu_before)
        keys = set(self.store.keys(self.bucket))
        missing = [key for key in self.expected if key not in keys]
        if missing:
            raise RuntimeError(f"{self.tag}: bucket {self.bucket} lacks {len(missing)} of {len(self.expected)} "
                               f"objects, e.g. {missing[0]}")


def run(binary, corpus, work, count, rounds, warmup=1, jobs=JOBS):
    with Store(os.path.join(work, "object-store")) as store:
        site = Site(os.path.join(work, "site-s3"), corpus, ["s500"]).start()
        try:
            folder = os.path.join(corpus, "s500")
            urls = site.image_urls("s500", count)
            names = [url.rsplit("/", 1)[1] for url in urls]
            feed = site.write_feed("store", urls)
            # Untimed: curl's thumbnails, made once; they also warm the page cache for both tools.
            thumbs = os.path.join(work, "s3-thumbs")
            os.makedirs(thumbs, exist_ok=True)
            measure.run([binary, "thumb", "--size", SIZE, "-o", thumbs, *names], cwd=folder)
            objects = _objects([os.path.join(folder, name) for name in names], thumbs)
            expected = [key for key, *_ in objects]

            cache = os.path.join(work, "pm-cache-s3")
            pm = Rounds(store, "pm", expected, folders=[cache])
            peers = {False: Rounds(store, "curl", expected), True: Rounds(store, "curlhead", expected)}
            env = dict(os.environ, AWS_ACCESS_KEY_ID=store.info["access_key_id"],
                       AWS_SECRET_ACCESS_KEY=store.info["secret_access_key"], AWS_REGION=store.info["region"],
                       AWS_ENDPOINT_URL_S3=store.endpoint)
            # The bucket changes every round: prepare writes it into the argv the run then uses.
            pm_argv = [binary, "sync", "--cache", cache, "--store", "", "--quiet", "--jobs", str(jobs), feed]

            def pm_prepare():
                pm.prepare()
                pm_argv[pm_argv.index("--store") + 1] = f"s3://{pm.bucket}/{PREFIX}"

            def curl_tool(heads):
                runs = peers[heads]
                config = os.path.join(work, f"curl-s3-{runs.tag}.cfg")

                def prepare():
                    runs.prepare()
                    _curl_config(config, store, runs.bucket, objects, heads=heads)
                what = "HEAD + PUT of each object (a check per object; reference)" if heads else \
                    "PUT (originals + thumbnails)"
                return measure.Tool(f"curl --parallel --parallel-max {jobs} {what}",
                                    ["curl", "--parallel", "--parallel-max", str(jobs), "-K", config],
                                    prepare=prepare, after=runs.after)

            tools = [
                measure.Tool(f"photomirror sync --store s3://… --jobs {jobs}", pm_argv, prepare=pm_prepare,
                             env=env, after=pm.after),
                curl_tool(heads=False),
                curl_tool(heads=True),
            ]
            stats = measure.round_robin(tools, count, rounds, warmup=warmup,
                                        label=f"sync {count}x500px into the Swift store")
            ours, peer, reference = (t.name for t in tools)
            cpu = {t.name: _median_ms(runs.store_cpu[warmup:], count)
                   for t, runs in zip(tools, [pm, peers[False], peers[True]])}
            return {"stats": stats, "pm": ours, "peer": peer, "reference": reference,
                    "ratio": measure.ratio(stats, ours, peer), "reference_ratio": measure.ratio(stats, ours, reference),
                    "rounds": measure.ratios(stats, ours, peer), "store_cpu_ms": cpu}
        finally:
            site.stop()


def _median_ms(seconds, count):
    return 1000 * statistics.median(seconds) / count if seconds else None
