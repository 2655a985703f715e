#!/usr/bin/env python3
"""Rebuilds the files of this folder: the colour-managed and orientation cases no public test
suite had in a small licensable file (Display P3, AdobeRGB, ProPhoto and Rec.2020 JPEG/PNG/WebP/
AVIF/HEIC, a CMYK JPEG with its profile, PNG gAMA and gAMA+cHRM without iCCP, PNG eXIf, JPEG
with only an XMP orientation).

The pixels are real photographs: ../libavif/kodim03_yuv420_8bpc.avif (Kodak, unrestricted) and
../pillow/flower2.jpg (Pillow, HPND), converted from sRGB into each space with LittleCMS
(Pillow's ImageCms, relative colorimetric), so a colour-managed reader shows the source's sRGB
colours (the CMYK JPEG excepted, see there) and one that ignores the profile does not. Profiles: profiles/ (Compact-ICC-Profiles, CC0).

    .build/venv-conformance/bin/python Tests/Fixtures/Images/generated/make.py

Needs Pillow 13 and pillow-heif 1.8 (the venv Scripts/setup --for-tests makes). Encoders are
not bit-exact across versions: the committed files are the reference, this is their recipe.
"""
import io, os, struct, zlib

import numpy as np
import pillow_heif
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.dirname(HERE)
PROFILES = os.path.join(HERE, "profiles")
SRGB = ImageCms.createProfile("sRGB")


def profile(name):
    with open(os.path.join(PROFILES, name), "rb") as fh:
        return fh.read()


def into(image, icc, mode="RGB"):
    """The sRGB image's pixels re-expressed in the space of `icc` (bytes)."""
    target = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    return ImageCms.profileToProfile(image, SRGB, target, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                     outputMode=mode)


def png_with_chunks(image, chunks):
    """A PNG of `image` with raw ancillary chunks (type, data) inserted before IDAT."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=9)
    data = buffer.getvalue()
    at = data.index(b"IDAT") - 4
    extra = b"".join(struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
                     for kind, body in chunks)
    return data[:at] + extra + data[at:]


def gamma_encode(image, exponent, matrix=None):
    """sRGB pixels as linear light (optionally through a 3x3 RGB matrix) re-encoded with 1/exponent."""
    values = np.asarray(image, dtype=np.float64) / 255
    linear = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    if matrix is not None:
        linear = np.clip(linear @ np.asarray(matrix).T, 0, 1)
    encoded = linear ** (1 / exponent)
    return Image.fromarray(np.round(encoded * 255).astype(np.uint8), "RGB")


# Linear sRGB -> linear Display P3 (D65 both), from the two spaces' primaries.
SRGB_TO_P3 = [[0.8225, 0.1774, 0.0000], [0.0332, 0.9669, 0.0000], [0.0171, 0.0724, 0.9108]]


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def main():
    pillow_heif.register_heif_opener()
    with Image.open(os.path.join(IMAGES, "libavif", "kodim03_yuv420_8bpc.avif")) as im:
        photo = im.convert("RGB").resize((384, 256), Image.LANCZOS)
    with Image.open(os.path.join(IMAGES, "pillow", "flower2.jpg")) as im:
        flower = im.convert("RGB")
    out = lambda name: os.path.join(HERE, name)  # noqa: E731
    p3, adobe, prophoto, rec2020 = (profile(n) for n in ("DisplayP3-v4.icc", "AdobeCompat-v4.icc",
                                                           "ProPhoto-v4.icc", "Rec2020-v4.icc"))
    cmyk = profile("CGATS001Compat-v2-micro.icc")

    into(photo, p3).save(out("kodim03-displayp3.jpg"), "JPEG", quality=90, icc_profile=p3)
    into(photo, adobe).save(out("kodim03-adobergb.jpg"), "JPEG", quality=90, icc_profile=adobe)
    into(photo, prophoto).save(out("kodim03-prophoto.jpg"), "JPEG", quality=90, icc_profile=prophoto)
    # The compact CMYK profile has no sRGB-to-CMYK direction: Pillow's plain separation, tagged, so
    # the file's colours are whatever that profile makes of them (the oracle reads it the same way).
    flower.convert("CMYK").save(out("flower2-cmyk-profile.jpg"), "JPEG", quality=90, icc_profile=cmyk)
    into(flower, prophoto).save(out("flower2-prophoto.png"), "PNG", compress_level=9, icc_profile=prophoto)
    into(flower, rec2020).save(out("flower2-rec2020.png"), "PNG", compress_level=9, icc_profile=rec2020)
    into(photo, p3).save(out("kodim03-displayp3.webp"), "WEBP", quality=90, icc_profile=p3)
    alpha = flower.convert("RGBA")
    alpha.putalpha(Image.linear_gradient("L").resize(flower.size))
    converted = into(flower, adobe).convert("RGBA")
    converted.putalpha(alpha.getchannel("A"))
    converted.save(out("flower2-adobergb-alpha.webp"), "WEBP", lossless=True, icc_profile=adobe)
    into(photo, p3).save(out("kodim03-displayp3.avif"), "AVIF", quality=90, icc_profile=p3)
    into(photo, p3).save(out("kodim03-displayp3.heic"), "HEIF", quality=90, icc_profile=p3)

    # gAMA only (1/1.8, sRGB primaries assumed) and gAMA + cHRM (Display P3 primaries, 1/2.2).
    with open(out("kodim03-gama18.png"), "wb") as fh:
        fh.write(png_with_chunks(gamma_encode(photo, 1.8), [(b"gAMA", struct.pack(">I", 55556))]))
    chrm = struct.pack(">8I", 31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000)
    with open(out("kodim03-chrm-p3-gama22.png"), "wb") as fh:
        fh.write(png_with_chunks(gamma_encode(photo, 2.2, SRGB_TO_P3),
                                 [(b"gAMA", struct.pack(">I", 45455)), (b"cHRM", chrm)]))

    # Orientation stored where only the newer readers look.
    photo.save(out("kodim03-exif6.png"), "PNG", compress_level=9, exif=exif_orientation(6))
    photo.save(out("kodim03-exif8.webp"), "WEBP", quality=90, exif=exif_orientation(8))
    xmp = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
           b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" '
           b'xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="6"/></rdf:RDF></x:xmpmeta>'
           b'<?xpacket end="w"?>')
    photo.save(out("kodim03-xmp6.jpg"), "JPEG", quality=90, xmp=xmp)


if __name__ == "__main__":
    main()
