#!/usr/bin/env python3
"""Makes the derived fixtures and the Pillow + ImageCms reference conversions of this folder.

Run with Pillow 13 in a venv (python3 -m venv /tmp/v && /tmp/v/bin/pip install pillow numpy):
    /tmp/v/bin/python make_references.py <pillow sdist Tests/images> <shared fixtures/images>
converted-<name>.png = the image decoded by Pillow, converted to sRGB by ImageCms.profileToProfile
(its defaults: perceptual intent, no black point compensation), turned upright, and saved
untagged at full size. The tests thumbnail both the original and this conversion with
photomirror's own resampler, so that only the colour conversion is compared. gAMA-only PNGs
have no ImageCms path: their reference applies the same maths directly (decode v^(1/gamma),
encode sRGB).
"""
import io
import sys
import numpy as np
from PIL import Image, ImageCms, ImageOps

pillow_images, shared = sys.argv[1], sys.argv[2]
SRGB = ImageCms.createProfile("sRGB")
GS = "/usr/share/color/icc/ghostscript/"


def converted(im, profile_bytes):
    mode = im.mode
    out_mode = "RGBA" if mode == "RGBA" else "RGB"
    src = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes))
    if mode == "RGBA":  # ImageCms converts RGBA too, alpha copied
        return ImageCms.profileToProfile(im, src, SRGB, outputMode="RGBA")
    return ImageCms.profileToProfile(im, src, SRGB, outputMode=out_mode)


def save_reference(name, im):
    im.save(f"converted-{name}.png", optimize=True)


# Derived test images: hopper re-encoded in Display P3 and Adobe RGB (1998), tagged with the profile.
hopper = Image.open(f"{pillow_images}/hopper.png").convert("RGB")
for label, path in [("p3", "DisplayP3-test.icc"), ("adobergb", "compatibleWithAdobeRGB1998.icc")]:
    data = open(path, "rb").read()
    wide = ImageCms.profileToProfile(hopper, SRGB, ImageCms.ImageCmsProfile(io.BytesIO(data)), outputMode="RGB")
    wide.save(f"hopper-{label}.jpg", quality=92, icc_profile=data)
# A saturated RGBA ring in Display P3, to check the gamut mapping and that alpha is untouched.
size = 96
y, x = np.mgrid[0:size, 0:size]
r = np.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5)
angle = (np.arctan2(y - size / 2, x - size / 2) + np.pi) / (2 * np.pi)
ring = np.zeros((size, size, 4), np.uint8)
ring[..., 0] = (255 * (angle < 1 / 3)).astype(np.uint8)
ring[..., 1] = (255 * ((angle >= 1 / 3) & (angle < 2 / 3))).astype(np.uint8)
ring[..., 2] = (255 * (angle >= 2 / 3)).astype(np.uint8)
ring[..., 3] = np.clip((48 - r) * 64, 0, 255).astype(np.uint8)
Image.fromarray(ring, "RGBA").save("ring-p3.png", icc_profile=open("DisplayP3-test.icc", "rb").read())
# PNG eXIf orientation 6 (rotate 90 clockwise): Pillow writes the bare TIFF structure.
exif = Image.Exif()
exif[0x0112] = 6
hopper.resize((64, 40), Image.BOX).save("exif-orientation-6.png", exif=exif.tobytes())

for name in ["hopper-p3.jpg", "hopper-adobergb.jpg", "ring-p3.png", "xmp_tags_orientation.png"]:
    im = Image.open(name)
    im.load()
    icc = im.info["icc_profile"]
    orientation = im.getexif().get(0x0112, 1)  # Pillow reads PNG XMP's tiff:Orientation here too
    out = converted(im.convert("RGBA") if im.mode == "RGBA" else im.convert("RGB"), icc)
    out.info["exif"] = b""
    transposed = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_270}.get(orientation)
    save_reference(name.rsplit(".", 1)[0], out.transpose(transposed) if transposed else out)
save_reference("exif-orientation-6", ImageOps.exif_transpose(Image.open("exif-orientation-6.png")).convert("RGB"))

# CMYK JPEGs without a profile go through Ghostscript's default_cmyk.icc; with one, through it
# (ps_cmyk.icc spliced in by the test).
for label, path in [("pil_sample_cmyk", "jpeg/pillow/pil_sample_cmyk.jpg"),
                    ("mozilla-jpg-cmyk-2", "jpeg/jpeg-decoder-reftest/mozilla-jpg-cmyk-2.jpg")]:
    im = Image.open(f"{shared}/{path}")
    im.load()
    for profile, suffix in [("default_cmyk.icc", ""), ("ps_cmyk.icc", "-ps_cmyk")]:
        src = ImageCms.ImageCmsProfile(GS + profile)
        save_reference(label + suffix, ImageCms.profileToProfile(im, src, SRGB, outputMode="RGB"))

# gAMA without cHRM: sRGB primaries, tone curve v^(1/gamma).
for name, gamma in [("g03n2c08", 0.35), ("g10n2c08", 1.0), ("g25n2c08", 2.5)]:
    a = np.asarray(Image.open(f"{shared}/pngsuite/{name}.png").convert("RGB")).astype(np.float64) / 255
    linear = a ** (1 / gamma)
    srgb = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
    save_reference(name, Image.fromarray(np.round(np.clip(srgb, 0, 1) * 255).astype(np.uint8), "RGB"))
