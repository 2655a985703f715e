#!/usr/bin/env python3
"""Peer for the sync target: the naive one-image-at-a-time app. One Python process downloads a
file (urllib, a new connection each), writes it, makes a 40x40 Pillow thumbnail (draft mode,
i.e. DCT scaling) and saves the PNG, then takes the next URL.

usage: naive_pipeline.py URL_LIST OUT_DIR
"""
import os, sys, urllib.request
from io import BytesIO

from PIL import Image

urls, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(urls) as fh:
    for number, url in enumerate(line.strip() for line in fh if line.strip()):
        with urllib.request.urlopen(url) as response:
            data = response.read()
        with open(os.path.join(out, f"{number}.jpg"), "wb") as fh_out:
            fh_out.write(data)
        im = Image.open(BytesIO(data))
        im.thumbnail((40, 40))
        im.save(os.path.join(out, f"{number}.png"))
