"""Writes expected/<name>.png: the first frame of each GIF here composited on its logical screen,
as GIFDecoding promises it, computed with Pillow (13.0.0) rather than giflib:
- Pillow decodes frame 0 and converts it to RGBA with its transparency index;
- the screen area outside the frame's extent is made transparent (Pillow fills it with a palette
  index instead; browsers and photomirror leave it transparent);
- transparent pixels are written as (0, 0, 0, 0), as the decoder stores them;
- a frame that covers its screen with no transparency index is written as RGB.
Run: python3 make_expected.py (with Pillow installed), from this folder."""
import glob
import os
from PIL import Image

os.makedirs("expected", exist_ok=True)
for path in sorted(glob.glob("*.gif")):
    im = Image.open(path)
    x0, y0, x1, y1 = im.tile[0].extents
    transparency = im.info.get("transparency")
    im.load()
    rgba = im.convert("RGBA")
    covers = (x0, y0, x1, y1) == (0, 0, *im.size)
    pixels = rgba.load()
    for y in range(im.size[1]):
        for x in range(im.size[0]):
            if not (x0 <= x < x1 and y0 <= y < y1) or pixels[x, y][3] == 0:
                pixels[x, y] = (0, 0, 0, 0)
    out = rgba if transparency is not None or not covers else rgba.convert("RGB")
    name = os.path.splitext(path)[0] + ".png"
    out.save(os.path.join("expected", name))
    print(name, out.mode, out.size, "extent", (x0, y0, x1, y1), "transparency", transparency)
