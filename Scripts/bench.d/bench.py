#!/usr/bin/env python3
"""Runs the performance targets (issues 6, 11, 12, 14, 16, 23, 26 and 27) side by side with their peers and prints one table.

Called by Scripts/bench (which installs the peers, builds photomirror and the corpus); see
there for usage. Every figure is a median over rounds, every ratio is taken per round between
runs of the same round (the machine is shared and noisy; ratios measured together hold).
"""
import argparse, os, re, shutil, signal, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import formats, http2, objectstore, parse, report, scale, settle, sync, thumbformats, thumbs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PLANS = {  # rounds and sizes; --quick keeps every target but runs less of each (no warm-up rounds)
    "full": {"warmup": 1, "thumb_rounds": 7, "sync_count": 2000, "sync_rounds": 5, "rtt_count": 1000,
             "rtt_rounds": 3, "mem_rounds": 2, "prune_images": 100_000, "parse_rounds": 25,
             "store_count": 1000, "store_rounds": 5, "scale_feeds": 50, "scale_items": 2000, "scale_rounds": 1,
             "settle_count": 2000, "vs_thumb_rounds": 15, "vs_thumb_spans": 5},
    "quick": {"warmup": 0, "thumb_rounds": 1, "sync_count": 1000, "sync_rounds": 1, "rtt_count": 300,
              "rtt_rounds": 1, "mem_rounds": 1, "prune_images": None, "parse_rounds": 3,
              "store_count": 300, "store_rounds": 1, "scale_feeds": 5, "scale_items": 200, "scale_rounds": 1,
              "settle_count": 1000, "vs_thumb_rounds": 1, "vs_thumb_spans": 0},
}


def prune_target(binary, images, listed=1.0):
    """Targets 6 and 15 are measured by Scripts/bench_prune: it builds a cache of `images`
    synthetic entries on a tmpfs, each feed still listing the newest share `listed` of its
    images, and times `photomirror prune` halving it (and measures the index before and after)."""
    script = os.path.join(ROOT, "Scripts", "bench_prune")
    if not os.access(script, os.X_OK):
        return {"status": "pending", "detail": "Scripts/bench_prune does not exist yet"}
    done = subprocess.run([script, "--binary", binary, "--images", str(images), "--listed", str(listed)], cwd=ROOT,
                          capture_output=True, text=True)
    text = (done.stdout + done.stderr).strip()
    found = re.search(r"RESULT prune_seconds=([0-9.]+) images=(\d+) listed=([0-9.]+) index_percent=([0-9.]+) (\w+)", text)
    if not found:
        return {"status": "error", "detail": f"Scripts/bench_prune exited {done.returncode}: {text[-300:]}"}
    return {"status": "ok", "seconds": float(found.group(1)), "images": int(found.group(2)),
            "listed": float(found.group(3)), "index_percent": float(found.group(4)), "checked": found.group(5) == "ok"}


def main():
    # A SIGTERM unwinds like Ctrl-C, so the `finally` blocks stop nginx, the delay proxy and the object store.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--work", required=True, help="scratch folder for caches and outputs (a tmpfs if possible)")
    ap.add_argument("--disk-work", help="a folder on disk for the informational on-disk sync row")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", help="targets to run, e.g. 1,3")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--reference", help="target 16: the release binary of commit 15fab8e")
    a = ap.parse_args()
    plan = PLANS["quick" if a.quick else "full"]
    only = set(a.only.split(","))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    started = time.time()
    results = {"plan": "quick" if a.quick else "full"}
    try:
        if "1" in only:
            results["thumb"] = thumbs.run(a.binary, a.corpus, a.work, ["jpeg240", "jpeg500", "jpeg1024"],
                                          plan["thumb_rounds"], plan["warmup"])
            if not a.quick:
                results["instructions"] = thumbs.instructions(a.binary, a.corpus, a.work)
        if only & {"2", "4"}:
            results["sync"] = sync.loopback(a.binary, a.corpus, a.work, plan["sync_count"], plan["sync_rounds"],
                                            sys.executable, disk=a.disk_work, warmup=plan["warmup"])
        if "3" in only:
            results["rtt"] = sync.latency(a.binary, a.corpus, a.work, plan["rtt_count"], plan["rtt_rounds"],
                                          warmup=plan["warmup"])
        if "5" in only:
            results["memory"] = sync.memory(a.binary, a.corpus, a.work, [200, 2000], plan["mem_rounds"])
        if "6" in only:
            # Building its 100 000-entry cache takes minutes: the full run only.
            results["prune"] = (prune_target(a.binary, plan["prune_images"]) if plan["prune_images"]
                                else {"status": "skipped"})
        if "13" in only:
            # A cache synced daily for a while: each feed still lists the newest fifth of its images.
            results["reclaim"] = (prune_target(a.binary, plan["prune_images"], listed=0.2) if plan["prune_images"]
                                  else {"status": "skipped"})
        if "7" in only:
            results["parse"] = parse.run(a.binary, a.work, plan["parse_rounds"], plan["warmup"])
        if "8" in only:
            results["formats"] = formats.run(a.binary, a.corpus, a.work, plan["thumb_rounds"], plan["warmup"])
        if "9" in only:
            results["store"] = objectstore.run(a.binary, a.corpus, a.work, plan["store_count"], plan["store_rounds"],
                                               warmup=plan["warmup"])
        if "10" in only:
            # 1000 images in both plans: the feed's round trip, which curl's row does not pay, is a
            # fixed cost that a smaller sync would weigh more than the transfers being compared.
            results["http2"] = http2.latency(a.binary, a.corpus, a.work, 1000, plan["rtt_rounds"], warmup=plan["warmup"])
        if "11" in only:
            # Its files are fresh in the page cache (just written) and one round of 100 000 items is
            # long: no warm-up round in either plan.
            results["scale"] = scale.run(a.binary, a.corpus, a.work, plan["scale_feeds"], plan["scale_items"],
                                         plan["scale_rounds"])
        if only & {"12", "15"}:
            # The 1000 files in both plans (the quick plan's sync size anyway). More rounds
            # than the other syncs: a round takes ~3 s, and single rounds' ratios to the floor
            # spread from 0.70 to 1.09 on this VM, which left a median of 5 swinging by ±0.05.
            results["vs_thumb"] = sync.versus_thumb(a.binary, a.corpus, a.work, 1000, plan["vs_thumb_rounds"],
                                                    warmup=plan["warmup"], span_runs=plan["vs_thumb_spans"])
        if "16" in only:
            if a.reference:
                # Two rounds (one round in the quick plan), each binary first in one of them.
                results["versus"] = scale.versus(a.binary, a.reference, a.corpus, a.work, plan["scale_feeds"],
                                                 plan["scale_items"], 1 if a.quick else 2)
            else:
                results["versus"] = {"status": "skipped", "detail": "its build is missing: see Scripts/bench"}
        if "14" in only:
            results["settle"] = settle.run(a.binary, a.corpus, a.work, plan["settle_count"])
        if "17" in only:
            results["thumb_formats"] = thumbformats.run(a.binary, a.corpus, a.work, plan["thumb_rounds"], plan["warmup"])
    finally:
        shutil.rmtree(a.work, ignore_errors=True)
        if a.disk_work:
            shutil.rmtree(a.disk_work, ignore_errors=True)
    results["seconds"] = time.time() - started
    text = report.render(results)
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as fh:
            fh.write(text)
    return 0 if report.all_passed(results) else 1


if __name__ == "__main__":
    sys.exit(main())
