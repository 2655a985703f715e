#!/usr/bin/env python3
"""Builds (once) and caches the benchmark corpora under .bench/corpus from REAL photographs.

The sources and the crop/resize recipe are make_corpus.py's (a copy of the shared anchor
harness, so the 200-file thumbnail sets are byte-identical to the ones the peer figures in
../shared/bench/RESULTS.md were taken with): Debian's lomiri-wallpapers / mate-backgrounds,
the Pillow sdist's test photos and scikit-image's bundled photos.

Sets (name: long side, files):
  jpeg240, jpeg500, jpeg1024   200 each, make_corpus.py's seed: the `thumb` target
  s500                         2000 distinct 500 px JPEGs: the sync / latency / re-sync targets
  s2048                        2000 distinct 2048 px JPEGs: the peak-RSS target
Each set is written to a temp folder and renamed into place, with a stamp naming its recipe,
so an interrupted build never leaves a half set that a later run would trust.

usage: corpus.py OUT_DIR [--sets jpeg240,s500,...]
"""
import argparse, hashlib, io, json, multiprocessing, os, random, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_corpus  # noqa: E402

SEED = 20240611
SETS = {  # name: (long side, count, seed base); the jpeg* seeds are make_corpus.py's formula
    "jpeg240": (240, 200, SEED * 10007 + 240),
    "jpeg500": (500, 200, SEED * 10007 + 500),
    "jpeg1024": (1024, 200, SEED * 10007 + 1024),
    "s500": (500, 2000, SEED * 7919 + 500),
    "s2048": (2048, 2000, SEED * 7919 + 2048),
}
RECIPE = 2  # bump when the recipe changes, so cached sets are rebuilt

_images = None


def _init(paths):
    global _images
    _images = make_corpus.load(paths)


def _encode(crop, rng):
    prog = rng.random() < 0.2
    buf = io.BytesIO()
    crop.save(buf, "JPEG", quality=85, subsampling="4:2:0", progressive=prog, optimize=False)
    return buf.getvalue()


def _one(args):
    """One file of a large set, from its own seed so parallel workers stay deterministic."""
    side, seed, index = args
    rng = random.Random(seed * 100003 + index)
    _, crop = make_corpus.random_crop(rng, _images, side)
    return index, _encode(crop, rng)


def build(out, name, paths):
    side, count, seed = SETS[name]
    final = os.path.join(out, name)
    stamp = os.path.join(final, ".recipe")
    want = json.dumps({"recipe": RECIPE, "side": side, "count": count, "seed": seed})
    if os.path.exists(stamp) and open(stamp).read() == want:
        return final
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    print(f"corpus: building {name} ({count} x {side} px)", file=sys.stderr, flush=True)
    if count <= 200:
        # exactly make_corpus.py's sequential draw, so these match the anchor corpus
        rng = random.Random(seed)
        imgs = make_corpus.load(paths)
        files = []
        for i in range(count):
            _, crop = make_corpus.random_crop(rng, imgs, side)
            files.append(_encode(crop, rng))
    else:
        with multiprocessing.Pool(os.cpu_count(), initializer=_init, initargs=(paths,)) as pool:
            files = [data for _, data in sorted(pool.imap_unordered(
                _one, [(side, seed, i) for i in range(count)], chunksize=8))]
    seen = set()
    width = len(str(count - 1))
    for i, data in enumerate(files):
        digest = hashlib.sha256(data).digest()
        assert digest not in seen, f"{name}: duplicate file {i}"
        seen.add(digest)
        with open(os.path.join(tmp, f"{i:0{width}d}.jpg"), "wb") as fh:
            fh.write(data)
    with open(os.path.join(tmp, ".recipe"), "w") as fh:
        fh.write(want)
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)
    return final


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sets", default=",".join(SETS))
    a = ap.parse_args()
    src = os.path.join(a.out, "src")
    paths = make_corpus.fetch_sources(src)
    for name in a.sets.split(","):
        build(a.out, name, paths)


if __name__ == "__main__":
    main()
