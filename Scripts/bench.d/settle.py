"""Target 14 (issue 23): a size limit that settles.

nginx on 127.0.0.1 serves one Flickr feed of `count` distinct 240 px photos (jpeg240's files,
each copy with its own JPEG comment, as target 11 makes them). The feed is synced once without
a limit into a scratch cache to learn its disk use (du -s); then a fresh cache gets three syncs
of the unchanged feed with `--max` half that use. The row is the image bytes nginx sent for the
third sync, against 0: a limit below the feed's size must not make every sync download the
evicted originals again. Its checks: the second sync asks for no image either, and each sync
leaves the cache between 75 % and 100 % of the prune's target (80 % of --max).
"""
import os, re, shutil, subprocess, sys

from scale import _distinct_copies, _du_bytes, _load_bases
from website import Site

# nginx's default (combined) format: "GET /path HTTP/1.1" STATUS BYTES
_REQUEST = re.compile(r'"GET (\S+) [^"]*" (\d{3}) (\d+)')


def _image_traffic(lines):
    """(requests, body bytes) of the image GETs among nginx's access log lines."""
    requests = sent = 0
    for line in lines:
        found = _REQUEST.search(line)
        if found and found.group(1).startswith("/d240/"):
            requests += 1
            sent += int(found.group(3))
    return requests, sent


def run(binary, corpus, work, count):
    site = Site(os.path.join(work, "site-settle"), corpus, [])
    names = _distinct_copies(_load_bases(os.path.join(corpus, "jpeg240")), count, os.path.join(site.root, "d240", "settle"))
    feed = site.write_feed("settle", [site.url(f"d240/settle/{name}") for name in names])
    whole, cache = os.path.join(work, "pm-settle-whole"), os.path.join(work, "pm-settle")
    syncs = []
    site.start()
    try:
        subprocess.run([binary, "sync", "--quiet", "--cache", whole, feed], check=True)
        limit = _du_bytes(whole) // 2
        target = limit * 4 // 5
        for number in range(3):
            mark = len(site.access_log_lines())
            done = subprocess.run([binary, "sync", "--quiet", "--cache", cache, "--max", str(limit), feed])
            requests, sent = _image_traffic(site.access_log_lines()[mark:])
            syncs.append({"code": done.returncode, "images": requests, "bytes": sent, "du": _du_bytes(cache)})
            print(f"bench: settle sync {number + 1}/3 done", file=sys.stderr, flush=True)
    finally:
        site.stop()
        for folder in (whole, cache, site.dir):
            shutil.rmtree(folder, ignore_errors=True)
    return {"count": count, "limit": limit, "target": target, "syncs": syncs}
