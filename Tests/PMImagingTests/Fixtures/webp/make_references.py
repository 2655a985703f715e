"""Writes reference/<file>-<W>x<H>.png: each WebP fixture's thumbnail made without photomirror.
Pillow (its own bundled libwebp; for animations WebPAnimDecoder's first frame) decodes the whole
image at full size and ImageOps.exif_transpose turns it upright; numpy then takes the centred
crop of the target's aspect and averages each output pixel's exact area of it (premultiplied
when there is alpha), the definition photomirror's box resampler implements. (Pillow's own BOX
filter gives whole source pixels all-or-nothing weights, 1-2.5 levels from an exact mean.)

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow==13.0.0 numpy
    /tmp/venv/bin/python make_references.py

WebPFixtureTests compares photomirror's thumbnails with these (mean difference per sample).
"""
import pathlib

import numpy as np
from PIL import Image, ImageOps, features

HERE = pathlib.Path(__file__).parent
CASES = [
    ("hopper.webp", (40, 40)),
    ("libwebp-test.webp", (40, 40)),
    ("flower2.webp", (40, 40)),
    ("flower2.webp", (96, 27)),
    ("transparent.webp", (40, 40)),
    ("anim.webp", (40, 40)),
    ("anim-offset-first.webp", (40, 40)),
    ("hopper_orientation_6.webp", (96, 27)),
    ("wide-orientation-6.webp", (40, 40)),
]



def area_weights(start, length, source_size, target_size):
    """target_size x source_size matrix: how much of each source pixel each output pixel covers."""
    weights = np.zeros((target_size, source_size))
    step = length / target_size
    for i in range(target_size):
        left, right = start + i * step, start + (i + 1) * step
        for j in range(int(np.floor(left)), min(source_size, int(np.ceil(right)))):
            weights[i, j] = max(0.0, min(right, j + 1) - max(left, j)) / step
    return weights


def fit(image, size):
    pixels = np.asarray(image).astype(np.float64)
    height, width = pixels.shape[:2]
    target_width, target_height = size
    if width * target_height > height * target_width:
        crop_w, crop_h = height * target_width / target_height, height
    else:
        crop_w, crop_h = width, width * target_height / target_width
    x0, y0 = (width - crop_w) / 2, (height - crop_h) / 2
    wx = area_weights(x0, crop_w, width, target_width)
    wy = area_weights(y0, crop_h, height, target_height)
    if pixels.shape[2] == 4:
        alpha = pixels[..., 3:] / 255
        colour = np.concatenate([pixels[..., :3] * alpha, pixels[..., 3:]], axis=2)
    else:
        colour = pixels
    out = np.einsum("ij,jkc,lk->ilc", wy, colour, wx)
    if pixels.shape[2] == 4:
        a = out[..., 3:]
        out[..., :3] = np.where(a > 0, out[..., :3] * 255 / np.maximum(a, 1e-9), 0)
    return Image.fromarray(np.clip(np.rint(out), 0, 255).astype(np.uint8), image.mode)


print("Pillow", Image.__version__ if hasattr(Image, "__version__") else "?", "libwebp", features.version("webp"))
for name, size in CASES:
    with Image.open(HERE / name) as image:
        image.seek(0)
        upright = ImageOps.exif_transpose(image)
        mode = "RGBA" if upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info else "RGB"
        tile = fit(upright.convert(mode), size)
        out = HERE / "reference" / f"{pathlib.Path(name).stem}-{size[0]}x{size[1]}.png"
        tile.save(out)
        print(out.name, tile.mode, tile.size)
