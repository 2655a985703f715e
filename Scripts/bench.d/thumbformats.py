"""Target 17: thumbnails in WebP, AVIF and JPEG (issue 27). For each format, on the 200 real
500 px JPEGs of jpeg500, at the formats' default qualities (WebP 75, AVIF 50, JPEG 75):

- time: `photomirror thumb --format F` (40x40 cover, all cores) against `vipsthumbnail -s 40x40
  -m centre -o %s.EXT[Q=…]`, which writes the same format through the same library (libwebp,
  libheif with libaom, libjpeg-turbo) from one process on every core; the ratio is taken per
  round. Goal: photomirror faster (ratio below 1).
- bytes: photomirror's file per image against the format's own reference encoder given the very
  same 40x40 pixels (photomirror's PNG thumbnails): `cwebp -q 75` (method 4, its default),
  `vips copy in.png out.avif[Q=50]` (libheif; Debian 12 ships no avifenc) and `cjpeg -quality 75
  -optimize`. Same pixels and quality, so the difference is the encoder's settings alone. Goal:
  within 5 % of theirs. vipsthumbnail's own bytes (other pixels: its Lanczos resampler against
  our area average) are printed beside, for information.
"""
import glob, os, shutil, statistics, subprocess, sys

import measure

FORMATS = {  # name: (extension, default quality, vips save options)
    "webp": ("webp", 75, "Q=75"),
    "avif": ("avif", 50, "Q=50"),
    "jpeg": ("jpg", 75, "Q=75,optimize_coding"),
}


def _fresh(folder):
    def prepare():
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    return prepare


def _sizes(folder, extension):
    files = sorted(glob.glob(os.path.join(folder, "*." + extension)))
    return [os.path.getsize(f) for f in files]


def _reference_bytes(name, pngs, out):
    """The reference encoder's bytes per image for the same 40x40 pixels, or why it could not."""
    os.makedirs(out, exist_ok=True)
    sizes = []
    for png in pngs:
        stem = os.path.splitext(os.path.basename(png))[0]
        if name == "webp":
            target = os.path.join(out, stem + ".webp")
            argv = ["cwebp", "-quiet", "-q", "75", png, "-o", target]
        elif name == "avif":
            target = os.path.join(out, stem + ".avif")
            argv = ["vips", "copy", png, target + "[Q=50]"]
        else:
            target = os.path.join(out, stem + ".jpg")
            ppm = os.path.join(out, stem + ".ppm")
            subprocess.run(["vips", "copy", png, ppm], check=True, capture_output=True)
            argv = ["sh", "-c", f"cjpeg -quality 75 -optimize '{ppm}' > '{target}'"]
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(target):
            return None, f"{argv[0]} exited {done.returncode}: {(done.stderr or '').strip()[:120]}"
        sizes.append(os.path.getsize(target))
    return sizes, None


def run(binary, corpus, work, rounds, warmup=1):
    folder = os.path.join(corpus, "jpeg500")
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.jpg")))
    results = {}
    # The pixels every reference encoder is given: photomirror's own 40x40 PNG thumbnails.
    pngs = os.path.join(work, "thumbs", "formats-png")
    _fresh(pngs)()
    subprocess.run([binary, "thumb", "--size", "40x40", "-o", pngs, *files], cwd=folder, check=True,
                   stdin=subprocess.DEVNULL)
    png_files = sorted(glob.glob(os.path.join(pngs, "*.png")))
    for name, (extension, quality, vips_options) in FORMATS.items():
        pm_out = os.path.join(work, "thumbs", f"pm-{name}")
        vips_out = os.path.join(work, "thumbs", f"vips-{name}")
        pm = measure.Tool(f"photomirror thumb --format {name}",
                          [binary, "thumb", "--format", name, "--size", "40x40", "-o", pm_out, *files],
                          prepare=_fresh(pm_out), cwd=folder)
        vips = measure.Tool(f"vipsthumbnail -s 40x40 -m centre -o %s.{extension}[{vips_options}]",
                            ["vipsthumbnail", "-s", "40x40", "-m", "centre",
                             "-o", os.path.join(vips_out, f"%s.{extension}[{vips_options}]"), *files],
                            prepare=_fresh(vips_out), cwd=folder)
        stats = measure.round_robin([pm, vips], len(files), rounds, warmup=warmup, label=f"thumb {name} jpeg500")
        speedup = measure.ratio(stats, pm.name, vips.name)  # vipsthumbnail's wall / photomirror's
        ours = _sizes(pm_out, extension)
        theirs_vips = _sizes(vips_out, extension)
        reference, refused = _reference_bytes(name, png_files, os.path.join(work, "thumbs", f"ref-{name}"))
        results[name] = {
            "stats": stats, "speedup": speedup, "count": len(files), "quality": quality,
            "bytes": statistics.mean(ours) if len(ours) == len(files) else None,
            "vips_bytes": statistics.mean(theirs_vips) if theirs_vips else None,
            "reference_bytes": statistics.mean(reference) if reference else None,
            "reference_refused": refused,
            "png_bytes": statistics.mean(os.path.getsize(p) for p in png_files),
        }
    return results
