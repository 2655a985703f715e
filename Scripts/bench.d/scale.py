"""Targets 11 (issue 16) and 16 (issue 26): 100 000 items in one `photomirror sync`, then the
cache's upkeep; target 16 runs the same rounds for the build of commit 15fab8e beside it.

nginx on 127.0.0.1 serves 50 Flickr feeds of 2000 distinct 240 px photos each from the work
folder (a tmpfs when there is one). The photos are jpeg240's 200 files, each written 500 times
with a JPEG comment (a COM segment naming the copy's number) inserted right after its SOI
marker: every file has its own SHA-256, so nothing is deduplicated, and decodes to the same
pixels (decoders skip comments), so each costs what its base file costs.

One round, on a fresh cache:
  1. `photomirror sync --feeds LIST` of the 50 feed URLs, with the defaults, as a user runs it.
     Every URL is on the one loopback host (as a Flickr feed's photos are all on one CDN host),
     so the default --per-host 6 holds, as in target 2: on loopback there is no round trip for
     more transfers to hide (targets 3 and 10 add 50 ms, hence their --per-host 16), and
     --per-host 16 alternated with the default on 10 of these feeds measured no difference
     beyond the shared machine's spread.
     `photomirror stats` then counts the originals (untimed): one per photo.
  2. The same sync again, nothing changed: its time and peak RSS, and from nginx's log the
     requests it made (each feed, answered 304; no image).
  3. `photomirror prune --max <half the cache's disk use>` (du -s, as Scripts/bench_prune
     counts it): its time; du afterwards must be within the limit.
  4. `photomirror verify` of the pruned cache: its time; it must exit 0.
  The index file's size before and after the prune is target 13's real-sync row.
The steps work on what the one before left, so they run in this order, never shuffled; the
goals are absolute, measured in the one run. A round of 100 000 images is long, so the full plan
runs one (the quick plan: 5 feeds of 200); making the files is untimed.
"""
import json, os, shutil, struct, subprocess, sys

import measure
from website import Site


def _du_bytes(folder):
    """Disk use as `du -s` counts it (allocated blocks), which is what prune bounds."""
    done = subprocess.run(["du", "-s", "-B1", folder], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[0])


def _index_bytes(cache):
    """The index file and its WAL (issue 15's measure of what prune gives back)."""
    return sum(os.path.getsize(os.path.join(cache, name)) for name in ("index.sqlite", "index.sqlite-wal")
               if os.path.exists(os.path.join(cache, name)))


def _originals(binary, cache):
    """How many distinct originals the cache holds (`photomirror stats --json`, read-only)."""
    done = subprocess.run([binary, "stats", "--json", "--cache", cache], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)["originals"]["count"]


def _distinct_copies(bases, count, folder):
    """Writes `count` files to `folder`, the n-th being bases[n % len(bases)] with a COM segment
    naming `folder`'s tag and n after its SOI; returns their names."""
    os.makedirs(folder)
    tag = os.path.basename(folder)
    names = []
    for number in range(count):
        base = bases[number % len(bases)]
        text = f"photomirror bench copy {tag}/{number}".encode()
        data = base[:2] + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + base[2:]
        name = f"{number:04d}.jpg"
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        names.append(name)
    return names


def _load_bases(folder):
    bases = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".jpg")):
        with open(os.path.join(folder, name), "rb") as fh:
            data = fh.read()
        assert data[:2] == b"\xff\xd8", f"{name}: not a JPEG"
        bases.append(data)
    return bases


def _site(corpus, work, feeds, per_feed, name="site-scale"):
    """nginx serving `feeds` Flickr feeds of `per_feed` distinct 240 px photos; the list of their URLs."""
    site = Site(os.path.join(work, name), corpus, [])
    bases = _load_bases(os.path.join(corpus, "jpeg240"))
    lines = []
    for number in range(feeds):
        tag = f"f{number:02d}"
        names = _distinct_copies(bases, per_feed, os.path.join(site.root, "d240", tag))
        urls = [site.url(f"d240/{tag}/{name}") for name in names]
        lines.append(site.write_feed(f"scale-{tag}", urls, first_id=number * per_feed))
    feed_list = os.path.join(work, f"{name}-feeds.txt")
    with open(feed_list, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return site, feed_list


def _round(binary, site, feed_list, cache, trims_to_80=True):
    """One round on a fresh cache: sync, the same sync again, prune to half, verify. Returns the
    four runs by step and the round's checks. `trims_to_80` is false for 15fab8e: its prune --max
    stops as soon as the cache fits (not at 80 % of the limit), and it takes feeds as operands."""
    shutil.rmtree(cache, ignore_errors=True)
    if trims_to_80:
        sync = [binary, "sync", "--cache", cache, "--quiet", "--feeds", feed_list]
    else:  # 15fab8e has no --feeds: the same URLs as operands
        with open(feed_list) as fh:
            sync = [binary, "sync", "--cache", cache, "--quiet", *fh.read().split()]
    first = measure.run(sync)
    originals = _originals(binary, cache)
    mark = len(site.access_log_lines())
    again = measure.run(sync)
    requests = site.access_log_lines()[mark:]
    before = _du_bytes(cache)
    limit = before // 2
    index_before = _index_bytes(cache)
    # A prune over its --max trims to 80% of it: this --max makes half the du its target.
    pruned = measure.run([binary, "prune", "--quiet", "--max", str(limit * 5 // 4 if trims_to_80 else limit), "--cache", cache])
    after = _du_bytes(cache)
    index_after = _index_bytes(cache)
    verified = measure.run([binary, "verify", "--quiet", "--cache", cache], check=False)
    checks = {"originals": originals, "images": sum(1 for line in requests if '"GET /d240/' in line),
              "feeds": sum(1 for line in requests if '"GET /feeds/' in line),
              "unchanged": sum(1 for line in requests if '"GET /feeds/' in line and '" 304 ' in line),
              "before": before, "limit": limit, "after": after, "verify_code": verified.code,
              "index_before": index_before, "index_after": index_after}
    shutil.rmtree(cache, ignore_errors=True)
    return {"sync": first, "again": again, "prune": pruned, "verify": verified}, checks


STEPS = {"sync": "sync, {feeds} feeds × {per_feed} distinct 240 px", "again": "the same sync again, nothing changed",
         "prune": "prune --max <half its du>", "verify": "verify of the pruned cache"}


def run(binary, corpus, work, feeds, per_feed, rounds):
    total = feeds * per_feed
    site, feed_list = _site(corpus, work, feeds, per_feed)
    cache = os.path.join(work, "pm-cache-scale")
    stats = {key: measure.Stats("photomirror " + name.format(feeds=feeds, per_feed=per_feed), total)
             for key, name in STEPS.items()}
    checks = []
    site.start()
    try:
        for number in range(rounds):
            runs, checked = _round(binary, site, feed_list, cache)
            for key, result in runs.items():
                stats[key].runs.append(result)
            checks.append(checked)
            print(f"bench: {total} items round {number + 1}/{rounds} done", file=sys.stderr, flush=True)
    finally:
        site.stop()
        shutil.rmtree(site.dir, ignore_errors=True)
    return {"stats": stats, "checks": checks, "feeds": feeds, "per_feed": per_feed}


def versus(binary, reference, corpus, work, feeds, per_feed, rounds):
    """Target 16 (issue 26): the same rounds for photomirror and the reference build (commit
    15fab8e, which kept every row in memory), alternated (the reference first in odd rounds), on
    the same site. Each step's ratio is taken per round, then the median."""
    total = feeds * per_feed
    site, feed_list = _site(corpus, work, feeds, per_feed, name="site-versus")
    names = {"pm": binary, "ref": reference}
    stats = {who: {key: measure.Stats(f"{who} {name.format(feeds=feeds, per_feed=per_feed)}", total)
                   for key, name in STEPS.items()} for who in names}
    checks = {who: [] for who in names}
    site.start()
    try:
        for number in range(rounds):
            order = ["ref", "pm"] if number % 2 == 0 else ["pm", "ref"]
            for who in order:
                runs, checked = _round(names[who], site, feed_list, os.path.join(work, f"pm-cache-versus-{who}"),
                                       trims_to_80=who == "pm")
                for key, result in runs.items():
                    stats[who][key].runs.append(result)
                checks[who].append(checked)
            print(f"bench: {total} items vs the reference, round {number + 1}/{rounds} done", file=sys.stderr, flush=True)
    finally:
        site.stop()
        shutil.rmtree(site.dir, ignore_errors=True)
    ratios = {key: [p.wall / r.wall for p, r in zip(stats["pm"][key].runs, stats["ref"][key].runs)] for key in STEPS}
    return {"stats": stats, "checks": checks, "ratios": ratios, "feeds": feeds, "per_feed": per_feed}
