#!/usr/bin/env python3
"""Build photo corpora for the 40x40-thumbnail benchmark from REAL photographs.

Sources (all from the ordinary registries, nothing from a hub):
  * Debian packages lomiri-wallpapers-16.04, lomiri-wallpapers-20.04, mate-backgrounds
    (fetched with `apt-get download`, unpacked with `dpkg-deb -x`; only the photographs,
    listed in DEB_PHOTOS, are used - the vector/abstract art is skipped)
  * the Pillow sdist's Tests/images (`pip download --no-binary :all: --no-deps pillow`)
  * scikit-image's bundled data images (skimage/data inside the installed wheel)

Output (default /tmp/bench-corpus):
  jpeg240/  jpeg500/  jpeg1024/  jpeg2048/   200 distinct JPEGs each, long side = N px,
            quality 85, 4:2:0, 80% baseline / 20% progressive, random crops of the sources
  png500/   100 PNGs, long side 500, 70 RGB + 30 RGBA (soft alpha mask), zlib level 6
Fixed random seed: the same files every run (given the same sources and Pillow).

usage: python bench/make_corpus.py [--out DIR] [--src DIR] [--seed N]
"""
import argparse, glob, hashlib, io, os, random, subprocess, sys, tarfile

from PIL import Image, ImageDraw, ImageFilter

DEBS = ["lomiri-wallpapers-16.04", "lomiri-wallpapers-20.04", "mate-backgrounds"]
DEB_PHOTOS = [
    "Bridge_by_Sander_Klootwijk.jpg", "Dragonfly_by_Bolly.jpg", "Infinite-Sea_by_Aury88.jpg",
    "Kleiber_by_Lukas_Baubkus.jpg", "Picture_0B_by_freespace.jpg", "Picture_1A_by_freespace.jpg",
    "Wine_by_Jakkub_Mede.jpg", "aitzgorri_by_Aitzol_Berasategi.jpg",
    "analogpattern_by_Peter_Nerlich.jpg", "free_by_Peter_Nerlich.jpg",
    "friends_by_Aitzol_Berasategi.jpg", "greentock_by_Peter_Nerlich.jpg",
    "life_by_Aitzol_Berasategi.jpg", "picosdeeuropa_by_Aitzol_Berasategi.jpg",
    "seeding_by_Clements_Engelhardt.jpg", "sunset_by_Aitzol_Berasategi.jpg",
    "mate/nature/Aqua.jpg", "mate/nature/Blinds.jpg", "mate/nature/Dune.jpg",
    "mate/nature/FreshFlower.jpg", "mate/nature/Garden.jpg", "mate/nature/GreenMeadow.jpg",
    "mate/nature/LadyBird.jpg", "mate/nature/RainDrops.jpg", "mate/nature/Storm.jpg",
    "mate/nature/TwoWings.jpg", "mate/nature/Wood.jpg", "mate/nature/YellowFlower.jpg",
]
PILLOW_PHOTOS = [
    "fujifilm.mpo", "xmp_test.jpg", "frozenpond.mpo", "sugarshack.mpo", "flower.jpg",
    "junk_jpeg_header.jpg", "exif_gps_typeerror.jpg", "iptc.jpg",
]
SKIMAGE_PHOTOS = [
    "astronaut.png", "chelsea.png", "coffee.png", "hubble_deep_field.jpg", "ihc.png",
    "motorcycle_left.png", "motorcycle_right.png", "retina.jpg", "rocket.jpg",
]
ASPECTS = [(3, 2)] * 5 + [(4, 3)] * 4 + [(16, 9)] * 2 + [(1, 1)] * 2 + [(2, 3)] * 3 + [(3, 4)] * 2


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def fetch_sources(src):
    os.makedirs(src, exist_ok=True)
    debdir = os.path.join(src, "debs")
    ext = os.path.join(src, "extract")
    if not os.path.isdir(os.path.join(ext, "usr/share/backgrounds/mate")):
        os.makedirs(debdir, exist_ok=True)
        run(["apt-get", "download"] + DEBS, cwd=debdir)
        for d in sorted(glob.glob(os.path.join(debdir, "*.deb"))):
            run(["dpkg-deb", "-x", d, ext])
    sd = os.path.join(src, "pillow-sdist")
    if not glob.glob(os.path.join(sd, "pillow-*.tar.gz")):
        # --no-build-isolation: metadata is prepared with the venv's setuptools/pybind11
        # instead of building cmake/ninja from source
        run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:", "--no-deps",
             "--no-build-isolation", "pillow==13.0.0", "-d", sd])
    tests = os.path.join(src, "pillow-tests")
    if not os.path.isdir(tests):
        os.makedirs(tests)
        tgz = sorted(glob.glob(os.path.join(sd, "pillow-*.tar.gz")))[-1]
        with tarfile.open(tgz) as t:
            for m in t.getmembers():
                if "/Tests/images/" in m.name and os.path.basename(m.name) in PILLOW_PHOTOS:
                    m.name = os.path.basename(m.name)
                    t.extract(m, tests)
    import skimage
    skd = os.path.join(os.path.dirname(skimage.__file__), "data")
    paths = [os.path.join(ext, "usr/share/backgrounds", p) for p in DEB_PHOTOS]
    paths += [os.path.join(tests, p) for p in PILLOW_PHOTOS]
    paths += [os.path.join(skd, p) for p in SKIMAGE_PHOTOS]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print("warning: missing sources:", missing, file=sys.stderr)
    return [p for p in paths if os.path.exists(p)]


def load(paths):
    imgs = []
    for p in paths:
        im = Image.open(p)
        im.load()
        im = im.convert("RGB")
        imgs.append((os.path.basename(p), im))
    return imgs


def random_crop(rng, imgs, long_side):
    """A random crop with a Flickr-like aspect whose long side is >= long_side px
    (no upscaling), resized to exactly long_side on the long side."""
    for _ in range(1000):
        name, im = rng.choice(imgs)
        aw, ah = rng.choice(ASPECTS)
        W, H = im.size
        # largest crop of that aspect inside the source
        s = min(W / aw, H / ah)
        cw_max, ch_max = aw * s, ah * s
        long_max = max(cw_max, ch_max)
        if long_max < long_side:
            continue
        # crop long side uniformly between long_side and the max (zoom level)
        lo = long_side / long_max
        f = rng.uniform(max(lo, 0.35), 1.0) if lo < 1.0 else 1.0
        f = max(f, lo)
        cw, ch = int(round(cw_max * f)), int(round(ch_max * f))
        x = rng.randint(0, W - cw)
        y = rng.randint(0, H - ch)
        c = im.crop((x, y, x + cw, y + ch))
        if cw >= ch:
            size = (long_side, max(1, round(long_side * ch / cw)))
        else:
            size = (max(1, round(long_side * cw / ch)), long_side)
        c = c.resize(size, Image.LANCZOS, reducing_gap=3.0)
        if rng.random() < 0.5:
            c = c.transpose(Image.FLIP_LEFT_RIGHT)
        return name, c
    raise RuntimeError("no source large enough for %d" % long_side)


def alpha_mask(rng, size):
    w, h = size
    m = Image.new("L", size, 0)
    d = ImageDraw.Draw(m)
    r = rng.randint(min(w, h) // 10, min(w, h) // 4)
    d.rounded_rectangle((rng.randint(0, w // 8), rng.randint(0, h // 8),
                         w - 1 - rng.randint(0, w // 8), h - 1 - rng.randint(0, h // 8)),
                        radius=r, fill=255)
    return m.filter(ImageFilter.GaussianBlur(rng.uniform(2, 12)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/bench-corpus")
    ap.add_argument("--src", default="/tmp/bench-src")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--count", type=int, default=200)
    a = ap.parse_args()
    imgs = load(fetch_sources(a.src))
    print("sources: %d photographs" % len(imgs), file=sys.stderr)
    manifest = []
    seen = set()
    for side in (240, 500, 1024, 2048):
        rng = random.Random(a.seed * 10007 + side)
        d = os.path.join(a.out, "jpeg%d" % side)
        os.makedirs(d, exist_ok=True)
        for f in glob.glob(os.path.join(d, "*")):
            os.remove(f)
        for i in range(a.count):
            name, c = random_crop(rng, imgs, side)
            prog = rng.random() < 0.2
            buf = io.BytesIO()
            c.save(buf, "JPEG", quality=85, subsampling="4:2:0", progressive=prog, optimize=False)
            data = buf.getvalue()
            h = hashlib.sha256(data).hexdigest()
            assert h not in seen, "duplicate file"
            seen.add(h)
            fn = os.path.join(d, "%03d.jpg" % i)
            with open(fn, "wb") as fh:
                fh.write(data)
            manifest.append("%s\t%s\t%dx%d\t%s\t%d" % (os.path.relpath(fn, a.out), name, c.size[0],
                                                      c.size[1], "progressive" if prog else "baseline", len(data)))
    rng = random.Random(a.seed * 10007 + 1)
    d = os.path.join(a.out, "png500")
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(d, "*")):
        os.remove(f)
    n_png = a.count // 2
    for i in range(n_png):
        name, c = random_crop(rng, imgs, 500)
        rgba = i % 10 >= 7  # 30% RGBA
        if rgba:
            c = c.convert("RGBA")
            c.putalpha(alpha_mask(rng, c.size))
        fn = os.path.join(d, "%03d.png" % i)
        c.save(fn, "PNG", compress_level=6)
        manifest.append("%s\t%s\t%dx%d\t%s\t%d" % (os.path.relpath(fn, a.out), name, c.size[0], c.size[1],
                                                  c.mode, os.path.getsize(fn)))
    with open(os.path.join(a.out, "MANIFEST.tsv"), "w") as fh:
        fh.write("file\tsource\tsize\tkind\tbytes\n" + "\n".join(manifest) + "\n")
    print("wrote %d files to %s" % (len(manifest), a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
