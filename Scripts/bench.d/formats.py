"""Target 8: `photomirror thumb` (40x40 fill, all cores) on WebP, GIF and AVIF, side by side with
vipsthumbnail and a naive Pillow script, and the cost of colour management on JPEGs.

Inputs (built once into CORPUS/formats500, a stamp naming the recipe, from the 200 real 500 px
JPEGs of jpeg500 with the bench venv's Pillow 13, whose wheels read and write WebP and AVIF):
  webp/      lossy WebP, quality 80 (cwebp's default)
  gif/       GIF, Pillow's adaptive 256-colour palette with Floyd-Steinberg dithering
  avif/      AVIF, quality 60, 4:2:0, 8-bit (Pillow's libavif/aom defaults otherwise)
  jpeg-p3/   the photos converted to Display P3 (LittleCMS), quality 85, the profile embedded
  jpeg-untagged/  the very same pixels and quality with no profile
so the last two differ only by the APP2 marker: their time ratio is what colour management adds.

Peers run as installed, each as one process over all 200 files, doing the same job (fill:
centre crop to a square, 40x40 PNG): `vipsthumbnail -s 40x40 -m centre` (libvips-tools; its
loaders shrink on load where the format allows and its threads use every core) and
pillow_thumbs.py (open, Image.draft, ImageOps.fit with a box filter, save, one file after the
other: what an app does without thinking about it). The target is judged per round against
the faster peer of that round.

A tool that cannot read a format (today's photomirror refuses WebP, GIF and AVIF) is probed
before the rounds: its failure is reported as the row's result instead of a time.
"""
import glob, io, json, os, shutil, statistics, subprocess, sys

from PIL import Image

import measure

RECIPE = 1
FORMATS = ["webp", "gif", "avif"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
P3 = os.path.join(ROOT, "Tests", "Fixtures", "Images", "generated", "profiles", "DisplayP3-v4.icc")
PILLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pillow_thumbs.py")


def build(corpus):
    """CORPUS/formats500/<set>/NNN.<ext> from CORPUS/jpeg500; returns that folder."""
    final = os.path.join(corpus, "formats500")
    source = os.path.join(corpus, "jpeg500")
    stamp = os.path.join(final, ".recipe")
    want = json.dumps({"recipe": RECIPE, "source": sorted(os.listdir(source))[:3]})
    if os.path.exists(stamp) and open(stamp).read() == want:
        return final
    from PIL import ImageCms
    print("corpus: building formats500 (WebP, GIF, AVIF, Display P3 JPEG from jpeg500)", file=sys.stderr, flush=True)
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for name in FORMATS + ["jpeg-p3", "jpeg-untagged"]:
        os.makedirs(os.path.join(tmp, name))
    with open(P3, "rb") as fh:
        p3 = fh.read()
    to_p3 = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(p3)),
                                    "RGB", "RGB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    for path in sorted(glob.glob(os.path.join(source, "*.jpg"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        with Image.open(path) as im:
            photo = im.convert("RGB")
        photo.save(os.path.join(tmp, "webp", stem + ".webp"), "WEBP", quality=80)
        photo.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG).save(
            os.path.join(tmp, "gif", stem + ".gif"), "GIF")
        photo.save(os.path.join(tmp, "avif", stem + ".avif"), "AVIF", quality=60, subsampling="4:2:0")
        wide = ImageCms.applyTransform(photo, to_p3)
        wide.save(os.path.join(tmp, "jpeg-p3", stem + ".jpg"), "JPEG", quality=85, icc_profile=p3)
        wide.save(os.path.join(tmp, "jpeg-untagged", stem + ".jpg"), "JPEG", quality=85)
    with open(os.path.join(tmp, ".recipe"), "w") as fh:
        fh.write(want)
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)
    return final


def _fresh(folder):
    def prepare():
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    return prepare


def _probe(tool, count, out):
    """None when the tool makes a 40x40 PNG of every input, else why not (untimed)."""
    tool.prepare()
    done = subprocess.run(tool.argv, cwd=tool.cwd, env=tool.env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    made = glob.glob(os.path.join(out, "*.png"))
    if done.returncode == 0 and len(made) == count:
        bad = []
        for path in made:
            with Image.open(path) as im:
                if im.size != (40, 40):
                    bad.append(f"{os.path.basename(path)} is {im.size[0]}x{im.size[1]}")
        return f"wrong size: {bad[0]}" if bad else None
    lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    first = lines[0] if lines else ""
    return f"exit {done.returncode}, {len(made)}/{count} thumbnails" + (f": {first[:140]}" if first else "")


def _tools(binary, folder, files, work, key, python):
    out = {k: os.path.join(work, "thumbs", f"{key}-{k}") for k in ("pm", "vips", "pillow")}
    return [
        (measure.Tool("photomirror thumb (fill)", [binary, "thumb", "--size", "40x40", "-o", out["pm"], *files],
                      prepare=_fresh(out["pm"]), cwd=folder), out["pm"]),
        (measure.Tool("vipsthumbnail -s 40x40 -m centre",
                      ["vipsthumbnail", "-s", "40x40", "-m", "centre", "-o", os.path.join(out["vips"], "%s.png"), *files],
                      prepare=_fresh(out["vips"]), cwd=folder), out["vips"]),
        (measure.Tool("Pillow naive script (pillow_thumbs.py)", [python, PILLOW, out["pillow"], *files],
                      prepare=_fresh(out["pillow"]), cwd=folder), out["pillow"]),
    ]


def run(binary, corpus, work, rounds, warmup=1, python=sys.executable):
    root = build(corpus)
    results = {"formats": {}, "colour": None}
    for name in FORMATS:
        folder = os.path.join(root, name)
        files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*." + name)))
        pairs = _tools(binary, folder, files, work, name, python)
        refused = {}
        tools = []
        for tool, out in pairs:
            why = _probe(tool, len(files), out)
            if why:
                refused[tool.name] = why
            else:
                tools.append(tool)
        stats = measure.round_robin(tools, len(files), rounds, warmup=warmup, label=f"thumb {name}500") if tools else {}
        pm = pairs[0][0].name
        peers = [t.name for t, _ in pairs[1:] if t.name in stats]
        ratio = None
        if pm in stats and peers:
            best = [min(runs) for runs in zip(*([r.wall for r in stats[p].runs] for p in peers))]
            ratio = statistics.median(b / p.wall for b, p in zip(best, stats[pm].runs))
        results["formats"][name] = {"stats": stats, "refused": refused, "pm": pm, "peers": peers,
                                    "ratio": ratio, "count": len(files)}
    # Colour management: the same photomirror run on tagged and untagged copies, per round.
    tools, refused = [], {}
    for name in ("jpeg-p3", "jpeg-untagged"):
        folder = os.path.join(root, name)
        files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.jpg")))
        out = os.path.join(work, "thumbs", name)
        tool = measure.Tool(f"photomirror thumb (fill), {name}", [binary, "thumb", "--size", "40x40", "-o", out, *files],
                            prepare=_fresh(out), cwd=folder)
        why = _probe(tool, len(files), out)
        (refused.__setitem__(tool.name, why) if why else tools.append(tool))
    stats = measure.round_robin(tools, 200, rounds, warmup=warmup, label="thumb jpeg500 tagged/untagged") if tools else {}
    cost = None
    if len(stats) == 2:
        tagged, untagged = (stats[t.name] for t in tools)
        cost = statistics.median(t.wall / u.wall for t, u in zip(tagged.runs, untagged.runs))
    results["colour"] = {"stats": stats, "refused": refused, "cost": cost}
    return results
