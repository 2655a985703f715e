#!/usr/bin/env python3
"""Conformance of `photomirror thumb` against a colour-managed oracle over the image corpus.

Every image under Tests/Fixtures/Images/<source>/ (and, when the machine has them, the JPEG and
PNG sets of ../shared/fixtures/images) is thumbnailed by the built binary in one run,
`photomirror thumb --size 40x40 -o OUT FILES…`, and each thumbnail is compared with the oracle's:

  Pillow (+ pillow-heif for HEIC/HEIF) decodes the first frame (a GIF's composited on its
  logical screen; a JPEG at photomirror's DCT scale when Pillow's draft mode has it), applies the
  orientation (as ImageOps.exif_transpose: EXIF, PNG eXIf, XMP tiff:Orientation; HEIF irot/imir
  come applied by pillow-heif, or as EXIF orientation from Pillow's AVIF reader), converts an
  embedded ICC profile to sRGB with LittleCMS (ImageCms, relative colorimetric), or honours PNG
  gAMA / cHRM without iCCP (linear light through the chunk's primaries, Bradford-adapted to D65,
  to sRGB; a grey PNG's tRNS key is matched at the file's bit depth, which Pillow's own alpha
  does not do for 2-, 4- and 16-bit grey), then does what photomirror's thumbnailer does: the
  largest centred crop of the target's aspect (fractional edges), an exact area average (box
  filter) of premultiplied 8-bit values in the encoded space, rounded.

    Scripts/image_conformance.py [--binary .build/debug/photomirror] [--only PATTERN]... [--verbose]
                                 [--keep] [--json OUT]

Outputs are compared premultiplied (an RGB thumbnail is alpha 255): the mean and the largest
absolute difference per channel, in /255. Tests/Fixtures/Images/EXPECTATIONS.tsv names the
files that are invalid on purpose (truncated, corrupt, spec violations, decompression bombs:
either outcome is accepted, a crash is not), those the oracle cannot render faithfully
(decode-only: they must decode; their differences and orientation are reported, not judged), and
damaged files of which browsers show what decodes (damaged: they must decode with the warning
`thumb` prints for them; their differences are reported, not judged).

Assertions (exit 1 with the list of violations):
  1. every valid image decodes (a thumbnail is written) without a warning, every damaged one
     decodes with one, and no input crashes the binary;
  2. colour-managed images, in two groups (an embedded ICC profile; PNG gAMA/cHRM without one,
     gAMA 1/2.2 alone counting as sRGB, as browsers show it): per group, median mean difference
     <= 3/255 and none over 8/255;
  3. orientation cases (EXIF/XMP orientation other than 1, HEIF transforms): of the eight ways
     to orient the stored pixels, the oracle's is the one the thumbnail matches best (coarse
     8x8 comparison), both at 40x40 and at a non-square 40x24, within 16/255.
Differences of the other files are printed, not judged.

Exit 0 when every assertion holds (the last line says PASS), 1 with the violations, 2 on a usage
or setup error (no binary), 77 when Pillow, pillow-heif or numpy cannot be imported (Scripts/setup
--for-tests makes the venv .build/venv-conformance that has them; run from another Python, the
script re-executes itself with that venv's).
"""

import argparse
import fnmatch
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

VENV_PYTHON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           ".build", "venv-conformance", "bin", "python")
try:
    import numpy as np
    import pillow_heif
    from PIL import Image, ImageCms
except ImportError as error:
    if os.access(VENV_PYTHON, os.X_OK) and os.path.realpath(sys.prefix) != os.path.realpath(
            os.path.dirname(os.path.dirname(VENV_PYTHON))):
        os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    print(f"image_conformance: {error}: run Scripts/setup --for-tests (it makes .build/venv-conformance)",
          file=sys.stderr)
    sys.exit(77)

pillow_heif.register_heif_opener()
Image.MAX_IMAGE_PIXELS = 120_000_000

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "Tests", "Fixtures", "Images")
SHARED = os.path.join(os.path.dirname(REPO), "shared", "fixtures", "images")
# The shared sets this suite reads (the rest of that folder is the JPEG decoder's crash corpus).
SHARED_SETS = ["jpeg/exif-orientation", "jpeg/pillow", "jpeg/jpeg-decoder-reftest", "pngsuite", "png-broken"]
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".heic", ".heif", ".hif")
SIZE, ORIENT_SIZE = (40, 40), (40, 24)
MEDIAN_LIMIT, MAX_LIMIT, ORIENT_LIMIT = 3.0, 8.0, 16.0
RUN_TIMEOUT = 600
SRGB = ImageCms.createProfile("sRGB")


# ---------------------------------------------------------------- corpus

def expectation(expectations, label):
    """(kind, why) of a corpus label: an exact line, else the first glob line that matches."""
    if label in expectations:
        return expectations[label]
    for pattern, value in expectations.items():
        if any(c in pattern for c in "*?[") and fnmatch.fnmatch(label, pattern):
            return value
    return ("valid", "")


def read_expectations():
    found = {}
    with open(os.path.join(CORPUS, "EXPECTATIONS.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip() or line.startswith("#"):
                continue
            path, kind, why = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            assert kind in ("valid", "invalid", "decode-only", "damaged"), f"EXPECTATIONS.tsv: unknown kind {kind!r} for {path}"
            found[path] = (kind, why)
    return found


def corpus(only):
    """[(label, absolute path)]: the corpus, then the shared sets; and a note when those are missing."""
    found, note = [], None
    roots = [("", CORPUS)]
    if os.path.isdir(SHARED):
        roots += [(f"shared:{name}/", os.path.join(SHARED, name)) for name in SHARED_SETS]
    else:
        note = f"skipped the shared fixtures: {SHARED} is not on this machine"
    for prefix, root in roots:
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                if not name.lower().endswith(IMAGE_EXTENSIONS):
                    continue
                path = os.path.join(folder, name)
                label = prefix + os.path.relpath(path, root).replace(os.sep, "/")
                if only and not any(fnmatch.fnmatch(label, p if any(c in p for c in "*?[") else f"*{p}*")
                                    for p in only):
                    continue
                found.append((label, path))
    return found, note


# ---------------------------------------------------------------- oracle

def _bradford(source_white, target_white):
    m = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    s, t = m @ source_white, m @ target_white
    return np.linalg.inv(m) @ np.diag(t / s) @ m


def _xyz(x, y):
    return np.array([x / y, 1.0, (1 - x - y) / y])


def _rgb_to_xyz(white, red, green, blue):
    primaries = np.stack([_xyz(*red), _xyz(*green), _xyz(*blue)], axis=1)
    scale = np.linalg.solve(primaries, _xyz(*white))
    return primaries * scale


SRGB_TO_XYZ = _rgb_to_xyz((0.3127, 0.3290), (0.64, 0.33), (0.30, 0.60), (0.15, 0.06))
D65 = _xyz(0.3127, 0.3290)


def png_gamma_to_srgb(rgb, gamma, chrm):
    """RGB pixels (uint8 array) encoded with PNG gAMA `gamma` and optional cHRM (white, r, g, b
    xy pairs) as sRGB, the way a colour-managed reader renders them."""
    linear = (rgb.astype(np.float64) / 255) ** (1 / gamma)
    if chrm:
        white, red, green, blue = chrm
        to_xyz = _bradford(_xyz(*white), D65) @ _rgb_to_xyz(white, red, green, blue)
        linear = np.clip(linear @ (np.linalg.inv(SRGB_TO_XYZ) @ to_xyz).T, 0, 1)
    encoded = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
    return np.round(np.clip(encoded, 0, 1) * 255).astype(np.uint8)


def colour_source(im):
    """('icc', description) | ('gAMA'/'cHRM', '') | (None, '') for the image as opened."""
    icc = im.info.get("icc_profile")
    if icc:
        try:
            return "icc", ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc))).strip()
        except (OSError, ImageCms.PyCMSError):
            return "icc", "(unreadable profile)"
    if im.format == "PNG" and "gamma" in im.info and "srgb" not in im.info:
        if "chromaticity" in im.info:
            return "cHRM", ""
        # gAMA 1/2.2 alone is how sRGB was written before the sRGB chunk: browsers show it as sRGB.
        if abs(im.info["gamma"] - 0.45455) > 0.005:
            return "gAMA", ""
    return None, ""


def png_bit_depth(path):
    """IHDR's bit depth of a PNG file, or None."""
    with open(path, "rb") as fh:
        head = fh.read(26)
    return head[24] if len(head) == 26 and head[12:16] == b"IHDR" else None


def grey_key_alpha(im, bit_depth):
    """Alpha of a greyscale PNG's tRNS key (PNG 11.3.2.1: the sample value, at the image's bit
    depth, that is fully transparent), or None when Pillow's own alpha is right.

    Pillow (13.0) gets two cases wrong, so they are computed here from the samples:
      - 2- and 4-bit grey: it keeps the key as stored (0-3, 0-15) but compares it with the samples
        it has already scaled to 8 bits (0, 85, 170, 255; 0, 17, ... 255), so the key matches the
        wrong grey or none (PngSuite tbbn0g04: key 15, white, came out all opaque);
      - 16-bit grey (I;16): convert("RGBA") clips both the samples and the key to 255 before
        comparing, so every sample from 255 up matches a key from 255 up (tbwn0g16: key 65535,
        samples 2023 and more: all transparent).
    libpng (and so photomirror) compares at the stored depth, before any scaling."""
    key = im.info.get("transparency")
    if im.format != "PNG" or not isinstance(key, int) or im.mode not in ("L", "I;16", "I;16B") or bit_depth is None:
        return None
    samples = np.asarray(im)
    if im.mode == "L" and bit_depth < 8:
        key = key * 255 // ((1 << bit_depth) - 1)  # the scale Pillow's unpackers use
    return Image.fromarray(np.where(samples == key, 0, 255).astype(np.uint8), "L")


def to_srgb(im, source, bit_depth=None):
    """RGBA float array (0-255, straight alpha) of the first frame, in sRGB."""
    icc, info = im.info.get("icc_profile"), dict(im.info)
    has_alpha = im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in im.info
    alpha = grey_key_alpha(im, bit_depth) if has_alpha else None
    if has_alpha and alpha is None:
        alpha = im.convert("RGBA").getchannel("A")
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        # Pillow clips 16-bit grey to 8 bits when converting; scale it as decoders do.
        im = Image.fromarray(np.round(np.asarray(im, dtype=np.float64) / 257).clip(0, 255).astype(np.uint8), "L")
    if source == "icc" and icc:
        try:
            profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            space = profile.profile.xcolor_space.strip()
            mode = {"GRAY": "L", "CMYK": "CMYK", "RGB": "RGB"}.get(space)
            base = im if im.mode == mode else im.convert(mode)
            rgb = ImageCms.profileToProfile(base, profile, SRGB, outputMode="RGB",
                                            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        except (OSError, ValueError, ImageCms.PyCMSError, TypeError):
            rgb = im.convert("RGB")  # an unusable profile is ignored, as readers do
        pixels = np.asarray(rgb, dtype=np.uint8)
    elif source in ("gAMA", "cHRM"):
        chrm = info.get("chromaticity") if source == "cHRM" else None
        pairs = [(chrm[i], chrm[i + 1]) for i in range(0, 8, 2)] if chrm else None
        pixels = png_gamma_to_srgb(np.asarray(im.convert("RGB")), info["gamma"], pairs)
    else:
        pixels = np.asarray(im.convert("RGB"), dtype=np.uint8)
    a = np.asarray(alpha, dtype=np.float64)[..., None] if alpha else np.full(pixels.shape[:2] + (1,), 255.0)
    return np.concatenate([pixels.astype(np.float64), a], axis=2)


def box_weights(start, extent, out, size):
    """out x size matrix of photomirror's area-average taps over [start, start + extent)."""
    weights = np.zeros((out, size))
    step = extent / out
    for i in range(out):
        lo, hi = start + i * step, start + (i + 1) * step
        first, last = max(int(np.floor(lo)), 0), min(int(np.ceil(hi)) - 1, size - 1)
        last = max(last, first)
        for s in range(first, last + 1):
            weights[i, s] = max(min(hi, s + 1.0) - max(lo, float(s)), 0)
        total = weights[i].sum()
        if total <= 0:
            weights[i, first], total = 1, 1
        weights[i] /= total
    return weights


def render(rgba, size):
    """photomirror's fill thumbnail of an upright RGBA array: premultiplied uint8-rounded array."""
    height, width = rgba.shape[:2]
    tw, th = size
    if width * th > height * tw:
        crop_w = height * tw / th
        cx, cy, cw, ch = (width - crop_w) / 2, 0.0, crop_w, float(height)
    else:
        crop_h = width * th / tw
        cx, cy, cw, ch = 0.0, (height - crop_h) / 2, float(width), crop_h
    wy, wx = box_weights(cy, ch, th, height), box_weights(cx, cw, tw, width)
    alpha = rgba[..., 3:4] / 255
    summed = separable(wy, np.concatenate([rgba[..., :3] * alpha, alpha], axis=2), wx)
    a = summed[..., 3:4]
    colour = np.where(a > 0, np.round(summed[..., :3] / np.maximum(a, 1e-12)), 0)
    return premultiply(np.concatenate([np.clip(colour, 0, 255), np.round(np.clip(a * 255, 0, 255))], axis=2))


def premultiply(rgba):
    rgba = rgba.astype(np.float64)
    return np.concatenate([rgba[..., :3] * rgba[..., 3:4] / 255, rgba[..., 3:4]], axis=2)


def read_thumbnail(path):
    with Image.open(path) as im:
        return premultiply(np.asarray(im.convert("RGBA"), dtype=np.float64))


# The eight orientations as numpy ops on an (h, w, c) array, EXIF numbering.
ORIENT = {
    1: lambda a: a, 2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, -1), 7: lambda a: a[::-1, ::-1].transpose(1, 0, 2),
    8: lambda a: np.rot90(a, 1),
}


def coarse(a):
    """8x8 area average: orientation is judged on layout, not detail."""
    return render_plain(a, (8, 8))


def render_plain(a, size):
    h, w = a.shape[:2]
    return separable(box_weights(0, h, size[1], h), a, box_weights(0, w, size[0], w))


def separable(wy, a, wx):
    """wy @ a @ wx.T per channel: rows first, as photomirror's two passes."""
    rows = np.tensordot(wy, a, axes=(1, 0))          # (out_h, w, c)
    return np.einsum("iwc,lw->ilc", rows, wx, optimize=True)


def jpeg_draft(im, orientation, size):
    """Decode a JPEG at the DCT scale photomirror picks (the smallest n/8 at which the target,
    in stored orientation, still fits), when Pillow's draft (1/1, 1/2, 1/4, 1/8) has it; else at
    the nearest larger scale Pillow has. Decoders differ far more between scales than between
    themselves at one scale."""
    width, height = im.size
    tw, th = (size[1], size[0]) if orientation in (5, 6, 7, 8) else size
    eighths = next((n for n in range(1, 8) if -(-width * n // 8) >= tw and -(-height * n // 8) >= th), 8)
    eighths = next(n for n in (1, 2, 4, 8) if n >= eighths)
    if eighths < 8:
        # Pillow's draft takes the largest 1/k with original // requested >= k.
        k = 8 // eighths
        im.draft(im.mode, (max(width // k, 1), max(height // k, 1)))


def oracle(path, size=SIZE):
    """What the oracle knows of a file: {format, colour, profile, orientation, stored, upright}
    (stored: sRGB RGBA array as stored; upright: the same oriented), or {error}."""
    try:
        with Image.open(path) as im:
            fmt = im.format
            # pillow-heif opens at the primary item, the image a HEIF reader shows; its frame 0 is
            # only the first top-level item in file order (zPug_3.heic: a non-primary P3 image).
            if fmt != "HEIF":
                im.seek(0)
            colour, description = colour_source(im)
            orientation = 1
            if fmt not in ("HEIF",):  # pillow-heif has applied the HEIF transforms already
                orientation = int(im.getexif().get(0x0112) or 1)
                if orientation not in ORIENT:
                    orientation = 1
            if fmt == "JPEG":
                jpeg_draft(im, orientation, size)
            im.load()
            stored = to_srgb(im, colour, png_bit_depth(path) if fmt == "PNG" else None)
    except Exception as error:  # noqa: BLE001 - the oracle's refusal is a finding, whatever it is
        return {"error": f"{type(error).__name__}: {error}"}
    upright = np.ascontiguousarray(ORIENT[orientation](stored))
    return {"format": fmt, "colour": colour, "profile": description, "orientation": orientation,
            "stored": stored, "upright": upright}


# ---------------------------------------------------------------- the binary

def run_thumbs(binary, inputs, out, size, warnings=None):
    """{input name: failure text} for one `thumb` run; a crash reruns file by file to find it.
    The warnings `thumb` prints for damaged files go into `warnings` (input name: text)."""
    os.makedirs(out, exist_ok=True)
    argv = [binary, "thumb", "--size", f"{size[0]}x{size[1]}", "-o", out]

    def one(names):
        try:
            done = subprocess.run(argv + names, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None, "timed out"
        return done.returncode, done.stderr

    code, stderr = one(inputs)
    failures = {}
    if code is not None and code in (0, 1):
        for line in stderr.splitlines():
            for name in inputs:
                if line.startswith(name + ": "):
                    failures[name] = line[len(name) + 2:]
                elif warnings is not None and line.startswith("warning: " + name + ": "):
                    warnings[name] = line[len("warning: " + name) + 2:]
        return failures
    for name in inputs:  # a crash or a hang: attribute it
        code, stderr = one([name])
        if code is None or code < 0 or code > 1:
            failures[name] = f"CRASH (exit {code}): {stderr.strip()[-300:]}" if code is not None else "CRASH: timed out"
        elif code == 1:
            failures[name] = stderr.strip().split(": ", 1)[-1]
    return failures


def diff(a, b):
    d = np.abs(a - b)
    return float(d.mean()), float(d.max())


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "photomirror"))
    parser.add_argument("--only", action="append", default=[], help="glob (or substring) of corpus labels; repeatable")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (inputs and thumbnails)")
    parser.add_argument("--verbose", action="store_true", help="also print the oracle's profile and every failure text")
    parser.add_argument("--json", help="write every result to this file")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        print(f"image_conformance: no binary at {args.binary} (swift build)", file=sys.stderr)
        return 2
    expectations = read_expectations()
    files, note = corpus(args.only)
    if not files:
        print("image_conformance: no file matches", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="image-conformance-")
    try:
        return compare(args, expectations, files, note, work)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def compare(args, expectations, files, note, work):
    inputs = os.path.join(work, "in")
    os.makedirs(inputs)
    names = []
    for number, (label, path) in enumerate(files):
        # Unique names: thumb names each output after its input's base name.
        name = os.path.join(inputs, f"{number:04d}-{os.path.basename(path)}")
        os.symlink(path, name)
        names.append(name)
    warnings = {}
    failures = run_thumbs(args.binary, names, os.path.join(work, "out"), SIZE, warnings)
    results, violations = [], []
    orientation_names = []
    oracles = {}
    for (label, path), name in zip(files, names):
        kind, why = expectation(expectations, label)
        seen = oracle(path)
        oracles[name] = seen
        thumb = os.path.join(work, "out", os.path.splitext(os.path.basename(name))[0] + ".png")
        decoded = name not in failures and os.path.exists(thumb)
        row = {"file": label, "expect": kind, "why": why, "decoded": decoded, "failure": failures.get(name, ""),
               "format": seen.get("format") or os.path.splitext(path)[1][1:].upper(),
               "colour": seen.get("colour"), "profile": seen.get("profile", ""),
               "orientation": seen.get("orientation"), "oracle_error": seen.get("error"),
               "warning": warnings.get(name), "mean": None, "max": None, "orient_ok": None}
        if failures.get(name, "").startswith("CRASH"):
            violations.append(f"{label}: the binary crashed: {failures[name]}")
        if kind != "invalid" and not decoded:
            violations.append(f"{label}: not decoded: {failures.get(name) or 'no thumbnail written'}")
        if kind == "damaged" and decoded and not row["warning"]:
            violations.append(f"{label}: damaged, but decoded without a warning")
        if kind in ("valid", "decode-only") and row["warning"]:
            violations.append(f"{label}: a valid file decoded with a warning: {row['warning']}")
        if decoded and "upright" in seen:
            got = read_thumbnail(thumb)
            want = render(seen["upright"], SIZE)
            if got.shape == want.shape:
                row["mean"], row["max"] = diff(got, want)
            else:
                row["oracle_error"] = f"thumbnail is {got.shape[1]}x{got.shape[0]}"
            transformed = "transform" in why
            if kind == "valid" and (seen["orientation"] != 1 or transformed):
                orientation_names.append(name)
        results.append(row)

    # Orientation: the 40x40 thumbnails, then a non-square run of the same files.
    by_name = dict(zip(names, results))
    if orientation_names:
        wide = os.path.join(work, "out-wide")
        wide_failures = run_thumbs(args.binary, orientation_names, wide, ORIENT_SIZE)
        for name in orientation_names:
            row = by_name[name]
            base = os.path.splitext(os.path.basename(name))[0] + ".png"
            verdicts = []
            for folder, size, failed in ((os.path.join(work, "out"), SIZE, {}), (wide, ORIENT_SIZE, wide_failures)):
                seen = oracles[name] if size == SIZE else oracle(os.path.realpath(name), size)
                path = os.path.join(folder, base)
                if name in failed or not os.path.exists(path):
                    verdicts.append((False, f"{size[0]}x{size[1]}: not decoded"))
                    continue
                got = coarse(read_thumbnail(path))
                # The oracle's upright image is ORIENT[o](stored); candidates orient the stored pixels.
                scores = {o: diff(got, coarse(render(np.ascontiguousarray(ORIENT[o](seen["stored"])), size)))[0]
                          for o in ORIENT}
                expected = seen["orientation"]
                if seen["format"] == "HEIF":
                    expected = 1  # stored is already upright
                best = min(scores, key=scores.get)
                ok = scores[expected] <= ORIENT_LIMIT and scores[expected] <= scores[best] + 1e-9
                verdicts.append((ok, f"{size[0]}x{size[1]}: best {best} ({scores[best]:.1f}), "
                                     f"expected {expected} ({scores[expected]:.1f})"))
            row["orient_ok"] = all(ok for ok, _ in verdicts)
            row["orient_detail"] = "; ".join(text for _, text in verdicts)
            if not row["orient_ok"]:
                violations.append(f"{row['file']}: orientation {seen['orientation']} not applied as the oracle does: "
                                  f"{row['orient_detail']}")

    groups = {}
    for name, kinds in (("ICC-tagged", ("icc",)), ("PNG gAMA/cHRM", ("gAMA", "cHRM"))):
        managed = [r for r in results if r["colour"] in kinds and r["expect"] == "valid"]
        judged = [r for r in managed if r["mean"] is not None]
        groups[name] = (managed, judged)
        for r in managed:
            if r["mean"] is not None and r["mean"] > MAX_LIMIT:
                violations.append(f"{r['file']}: {r['colour']} {r['profile']!r}: mean difference {r['mean']:.2f}/255 "
                                  f"> {MAX_LIMIT:.0f}/255")
        median = statistics.median(r["mean"] for r in judged) if judged else None
        if median is not None and median > MEDIAN_LIMIT:
            violations.append(f"{name} images: median mean difference {median:.2f}/255 > {MEDIAN_LIMIT:.0f}/255 "
                              f"(over {len(judged)} images)")
        if len(judged) < len(managed):
            violations.append(f"{name} images: {len(managed) - len(judged)} of {len(managed)} not compared "
                              f"(not decoded, or the oracle failed)")

    print_table(results, args.verbose)
    print_totals(results, groups, note)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1, default=str)
    if violations:
        print(f"\n{len(violations)} violation(s):")
        for v in violations:
            print(f"  - {v}")
        print("FAIL")
        return 1
    print("PASS")
    return 0


def print_table(results, verbose):
    print(f"{'file':58} {'format':6} {'colour':14} {'or':>2} {'decoded':8} {'mean':>6} {'max':>6}  note")
    for r in results:
        colour = (r["colour"] or "-") if not r["profile"] else f"icc:{r['profile'][:10]}"
        mean = f"{r['mean']:.2f}" if r["mean"] is not None else "-"
        peak = f"{r['max']:.0f}" if r["max"] is not None else "-"
        decoded = "yes" if r["decoded"] else "NO"
        notes = []
        if r["expect"] != "valid":
            notes.append(r["expect"])
        if r["orient_ok"] is not None:
            notes.append("orientation ok" if r["orient_ok"] else "ORIENTATION WRONG")
        if r["oracle_error"]:
            notes.append(f"oracle: {r['oracle_error'][:60]}")
        if not r["decoded"] and (verbose or r["expect"] != "invalid"):
            notes.append(r["failure"][:80])
        if r["warning"]:
            notes.append(f"warning: {r['warning'] if verbose else r['warning'][:80]}")
        if verbose and r.get("orient_detail"):
            notes.append(r["orient_detail"])
        print(f"{r['file'][:58]:58} {r['format'][:6]:6} {colour[:14]:14} {r['orientation'] or '-':>2} "
              f"{decoded:8} {mean:>6} {peak:>6}  {'; '.join(notes)}")


def print_totals(results, groups, note):
    print()
    valid = [r for r in results if r["expect"] not in ("invalid", "damaged")]
    by_format = {}
    for r in valid:
        total, ok = by_format.get(r["format"], (0, 0))
        by_format[r["format"]] = (total + 1, ok + r["decoded"])
    print("decoded (valid files): " + ", ".join(f"{k} {ok}/{n}" for k, (n, ok) in sorted(by_format.items()))
          + f"; total {sum(r['decoded'] for r in valid)}/{len(valid)}")
    invalid = [r for r in results if r["expect"] == "invalid"]
    print(f"invalid on purpose: {len(invalid)} ({sum(not r['decoded'] for r in invalid)} refused, "
          f"{sum(r['decoded'] for r in invalid)} decoded what they could, "
          f"{sum(bool(r['warning']) for r in invalid)} of them with a warning)")
    damaged = [r for r in results if r["expect"] == "damaged"]
    print(f"damaged, shown in part: {sum(r['decoded'] and bool(r['warning']) for r in damaged)}/{len(damaged)} "
          f"decoded with a warning")
    for name, (managed, judged) in groups.items():
        if judged:
            median = statistics.median(r["mean"] for r in judged)
            over = sum(r["mean"] > MAX_LIMIT for r in judged)
            print(f"{name}: {len(judged)}/{len(managed)} compared, median mean difference {median:.2f}/255 "
                  f"(limit {MEDIAN_LIMIT:.0f}), {over} over {MAX_LIMIT:.0f}/255, worst "
                  f"{max(r['mean'] for r in judged):.2f}/255")
        else:
            print(f"{name}: 0/{len(managed)} compared")
    oriented = [r for r in results if r["orient_ok"] is not None]
    print(f"orientation cases: {sum(r['orient_ok'] for r in oriented)}/{len(oriented)} match")
    others = [r["mean"] for r in results if r["mean"] is not None and not r["colour"]]
    if others:
        print(f"other decoded files (reported, not judged): median mean difference {statistics.median(others):.2f}/255, "
              f"worst {max(others):.2f}/255")
    if note:
        print(note)


if __name__ == "__main__":
    sys.exit(main())
