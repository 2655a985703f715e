#!/usr/bin/env python3
"""Peer for the formats target: the naive Pillow thumbnailer. One process, one file after the
other: open, Image.draft (JPEG's DCT scaling; a no-op for other formats), ImageOps.fit to a
centre-cropped 40x40 with a box filter, save as PNG named after the input.

usage: pillow_thumbs.py OUT_DIR FILE...
"""
import os, sys

from PIL import Image, ImageOps

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    with Image.open(path) as im:
        im.draft("RGB", (80, 80))
        thumb = ImageOps.fit(im.convert("RGBA" if im.has_transparency_data else "RGB"), (40, 40), Image.BOX)
    thumb.save(os.path.join(out, os.path.splitext(os.path.basename(path))[0] + ".png"))
