"""Targets 2-5: `photomirror sync` from nginx on 127.0.0.1.

2. 2000 distinct 500 px images: photomirror against aria2c -j16 + vipsthumbnail and the naive
   one-at-a-time Python pipeline (urllib + Pillow), round-robin.
3. The same kind of feed through delay_proxy.py (50 ms RTT): photomirror --jobs 16 against
   curl --parallel --parallel-max 16 downloading the same URLs. Every URL is on the one proxy,
   so photomirror gets --per-host 16 too: its default of 6 per host would measure the cap, not
   how well 16 transfers hide the latency.
4. Right after each first sync of target 2, the same sync again on the same cache: its time,
   and the requests nginx saw (feed only, no image).
5. Peak RSS of a sync of 200 and of 2000 distinct 2048 px images at the default --jobs.
12. A sync of 1000 distinct 500 px images with the defaults against `photomirror thumb` of the
   same files from the corpus folder (one job per core, as thumbs.py runs it), round-robin: what
   fetching, hashing and writing the cache add to decoding and thumbnailing.
15. In the same rounds, csync.c, the sync's floor in C (issue 26): the same URLs downloaded with
   libcurl multi (photomirror's defaults: 16 transfers, 6 connections to the host), hashed,
   decoded, thumbnailed, both files written atomically and indexed in SQLite batches.
"""
import os, shutil, statistics, subprocess

import measure
import spans
from website import Site

HERE = os.path.dirname(os.path.abspath(__file__))


def _fresh(*folders):
    def prepare():
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
    return prepare


def _fresh_on_disk(*folders):
    """`_fresh`, then the disk's dirty pages written (untimed): a run that leaves its writes
    unflushed would otherwise hand their writeback to whichever run comes next."""
    clean = _fresh(*folders)
    def prepare():
        clean()
        os.sync()
    return prepare


def _write_list(path, urls):
    with open(path, "w") as fh:
        fh.write("\n".join(urls) + "\n")
    return path


def _warm(folder):
    """Reads a corpus folder once so the first timed transfer does not wait for the disk."""
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as fh:
            while fh.read(1 << 20):
                pass


def loopback(binary, corpus, work, count, rounds, python, disk=None, warmup=1):
    """Targets 2 and 4. With `disk`, one more photomirror row whose cache is on that (disk)
    folder: the work folder is a tmpfs when there is one (see Scripts/bench)."""
    site = Site(os.path.join(work, "site"), corpus, ["s500"]).start()
    try:
        _warm(os.path.join(corpus, "s500"))
        urls = site.image_urls("s500", count)
        feed = site.write_feed("s500", urls)
        url_list = _write_list(os.path.join(work, "s500.list"), urls)
        cache, dl, out, naive = (os.path.join(work, d) for d in ("pm-cache", "aria-dl", "vips-out", "naive-out"))
        resyncs = []

        def resync(first):
            # Untimed for target 2; this is target 4's own measurement, on the cache just written.
            before = len(site.access_log_lines())
            again = measure.run([binary, "sync", "--cache", cache, "--quiet", feed])
            requests = site.access_log_lines()[before:]
            images = sum(1 for line in requests if '"GET /s500/' in line)
            feeds = sum(1 for line in requests if '"GET /feeds/' in line)
            resyncs.append({"first": first.wall, "again": again.wall, "images": images, "feeds": feeds,
                            "cpu": again.cpu})

        tools = [
            measure.Tool("photomirror sync", [binary, "sync", "--cache", cache, "--quiet", feed],
                         prepare=_fresh(cache), after=resync),
            measure.Tool("aria2c -j16 + vipsthumbnail",
                         ["sh", "-c", f"aria2c -q -j 16 -i {url_list} -d {dl} --file-allocation=none && "
                                      f"vipsthumbnail -s 40x40 -o {out}/%s.png {dl}/*.jpg"],
                         prepare=_fresh(dl, out)),
            measure.Tool("python urllib + Pillow, one at a time",
                         [python, os.path.join(HERE, "naive_pipeline.py"), url_list, naive],
                         prepare=_fresh(naive)),
        ]
        durable = undurable = None
        if disk:
            # The same sync on disk with and without the flushes before each index commit (issue
            # 15): PHOTOMIRROR_BENCH_NO_DURABILITY exists for this row only.
            disk_cache, bare_cache = os.path.join(disk, "pm-cache"), os.path.join(disk, "pm-cache-undurable")
            durable, undurable = ("photomirror sync, cache on disk (ext4)",
                                  "photomirror sync, cache on disk (ext4), durability off (bench switch)")
            tools.append(measure.Tool(durable, [binary, "sync", "--cache", disk_cache, "--quiet", feed],
                                      prepare=_fresh_on_disk(disk_cache)))
            tools.append(measure.Tool(undurable, [binary, "sync", "--cache", bare_cache, "--quiet", feed],
                                      prepare=_fresh_on_disk(bare_cache),
                                      env=dict(os.environ, PHOTOMIRROR_BENCH_NO_DURABILITY="1")))
        stats = measure.round_robin(tools, count, rounds, warmup=warmup, label=f"sync {count}x500px")
        warm = resyncs[warmup:]  # a warm-up round's pair is not counted, as for every other figure
        return {"stats": stats, "resyncs": warm or resyncs,
                "ratios": {t.name: measure.ratio(stats, tools[0].name, t.name) for t in tools[1:3]},
                "pm": tools[0].name,
                # The durable sync's time over the same sync without flushes, per round.
                "durability": measure.ratio(stats, undurable, durable) if disk else None}
    finally:
        site.stop()


def latency(binary, corpus, work, count, rounds, jobs=16, warmup=1):
    """Target 3."""
    site = Site(os.path.join(work, "site-rtt"), corpus, ["s500"]).start(with_proxy=True, delay_ms=25)
    try:
        urls = site.image_urls("s500", count, via_proxy=True)
        feed = site.write_feed("rtt", urls, via_proxy=True)
        cache, dl = os.path.join(work, "pm-cache-rtt"), os.path.join(work, "curl-dl")
        config = os.path.join(work, "curl.cfg")
        with open(config, "w") as fh:
            fh.write(f'remote-name-all\noutput-dir = "{dl}"\n' + "".join(f'url = "{u}"\n' for u in urls))
        tools = [
            measure.Tool(f"photomirror sync --jobs {jobs} --per-host {jobs}",
                         [binary, "sync", "--cache", cache, "--quiet", "--jobs", str(jobs), "--per-host", str(jobs), feed],
                         prepare=_fresh(cache)),
            measure.Tool(f"curl --parallel --parallel-max {jobs} (download only)",
                         ["curl", "-s", "--fail", "--parallel", "--parallel-max", str(jobs), "-K", config],
                         prepare=_fresh(dl)),
        ]
        stats = measure.round_robin(tools, count, rounds, warmup=warmup, label=f"sync {count}x500px at 50 ms RTT")
        # photomirror's rate over curl's = curl's wall over photomirror's, per round.
        return {"stats": stats, "ratio": measure.ratio(stats, tools[0].name, tools[1].name),
                "pm": tools[0].name, "peer": tools[1].name}
    finally:
        site.stop()


def memory(binary, corpus, work, counts, rounds):
    """Target 5: one photomirror sync per feed size, default --jobs, fresh cache each time."""
    site = Site(os.path.join(work, "site-2048"), corpus, ["s2048"]).start()
    try:
        _warm(os.path.join(corpus, "s2048"))
        tools = []
        for count in counts:
            feed = site.write_feed(f"s2048-{count}", site.image_urls("s2048", count))
            cache = os.path.join(work, f"pm-cache-2048-{count}")
            tools.append(measure.Tool(f"photomirror sync {count}x2048px",
                                      [binary, "sync", "--cache", cache, "--quiet", feed],
                                      prepare=_fresh(cache), after=lambda _r, c=cache: shutil.rmtree(c)))
        stats = {}
        for tool, count in zip(tools, counts):
            stats.update(measure.round_robin([tool], count, rounds, warmup=0, label=f"memory {count}x2048px"))
        return {"stats": stats, "names": [t.name for t in tools]}
    finally:
        site.stop()


def build_csync(work):
    """Compiles the sync's C floor (never committed as a binary) into `work`."""
    source = os.path.join(HERE, "csync.c")
    binary = os.path.join(work, "csync")
    libraries = subprocess.run(["pkg-config", "--cflags", "--libs", "libcurl", "libcrypto", "libjpeg", "libdeflate", "zlib", "sqlite3"],
                               capture_output=True, text=True, check=True).stdout.split()
    done = subprocess.run(["gcc", "-O2", "-o", binary, source, *libraries, "-lpthread"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"cannot build {source}: {done.stderr[-1000:]}")
    return binary


def versus_thumb(binary, corpus, work, count, rounds, warmup=1, span_runs=0):
    """Targets 12 and 15: the sync's rate over thumb's and over the C floor's, per round (their
    wall over the sync's); then, for `span_runs` more alternated runs of the sync and the floor
    under perf, where each one's wall time goes (spans.py)."""
    site = Site(os.path.join(work, "site-vs-thumb"), corpus, ["s500"]).start()
    try:
        folder = os.path.abspath(os.path.join(corpus, "s500"))
        _warm(folder)
        urls = site.image_urls("s500", count)
        files = [url.rsplit("/", 1)[1] for url in urls]
        feed = site.write_feed("vs-thumb", urls)
        cache, out = os.path.join(work, "pm-cache-vs-thumb"), os.path.join(work, "thumb-out")
        floor_cache, url_list = os.path.join(work, "csync-cache"), _write_list(os.path.join(work, "vs-thumb.list"), urls)
        csync = build_csync(work)
        served = []  # nginx's CPU seconds per sync run: the sync's inputs cost the same two cores
        def before_sync():
            _fresh(cache)()
            served.append(-site.server_cpu_seconds())
        def after_sync(_result):
            served[-1] += site.server_cpu_seconds()
        tools = [
            measure.Tool("photomirror sync", [binary, "sync", "--cache", cache, "--quiet", feed],
                         prepare=before_sync, after=after_sync),
            # Bare names from the corpus folder, as thumbs.py runs thumb.
            measure.Tool("photomirror thumb (fill) of the same files",
                         [binary, "thumb", "--size", "40x40", "-o", out, *files], prepare=_fresh(out), cwd=folder),
            measure.Tool("C floor of the sync (csync.c)", [csync, "-o", floor_cache, url_list], prepare=_fresh(floor_cache)),
        ]
        stats = measure.round_robin(tools, count, rounds, warmup=warmup, label=f"sync vs thumb {count}x500px")
        counted = served[warmup:] or served
        where = spans.compare({tools[0].name: (tools[0].argv, _fresh(cache)), tools[2].name: (tools[2].argv, _fresh(floor_cache))},
                              span_runs, work) if span_runs else None
        return {"stats": stats, "ratios": measure.ratios(stats, tools[0].name, tools[1].name),
                "ratio": measure.ratio(stats, tools[0].name, tools[1].name), "pm": tools[0].name, "peer": tools[1].name,
                "nginx_cpu_ms": 1000 * statistics.median(counted) / count,
                "floor": tools[2].name, "floor_ratios": measure.ratios(stats, tools[0].name, tools[2].name),
                "floor_ratio": measure.ratio(stats, tools[0].name, tools[2].name),
                "floor_vs_thumb": measure.ratio(stats, tools[2].name, tools[1].name), "spans": where}
    finally:
        site.stop()
