#!/usr/bin/env python3
"""Rebuilds the decoding cases of this folder (issue 24): files real writers and real damage
produce, which no public test suite had in a small licensable file.

  kodim03-avis-only.avif        an AVIF image sequence whose ftyp names only sequence brands
  kodim03-ycgco-re.avif         AVIF with nclx matrix 16 (YCgCo-Re), 4:4:4, 10 bits for 8-bit RGB
  kodim03-grey-limited.avif     4:0:0 AVIF, 8 bits, limited range
  kodim03-grey-full-10bit.avif  4:0:0 AVIF, 10 bits, full range
  kodim03-orientation6-slong.jpg  EXIF Orientation 6 stored as SLONG, big-endian (MM)
  kodim03-orientation8-long.webp  EXIF Orientation 8 stored as LONG, little-endian (II)
  kodim03-bad-huffman.jpg       libjpeg: "Corrupt JPEG data: bad Huffman code"
  kodim03-segment-cut.jpg       libjpeg: "Corrupt JPEG data: premature end of data segment"
  kodim03-truncated.jpg         libjpeg: "Premature end of JPEG file"
  kodim03-idat-crc.png          an IDAT chunk with a wrong CRC over intact data
  kodim03-idat-broken.png       deflate data broken in the middle of IDAT
  kodim03-alpha-lossy.webp      lossy WebP with alpha, white under the transparent area

The pixels are ../libavif/kodim03_yuv420_8bpc.avif (Kodak, unrestricted), scaled to 192x128.

    .build/venv-conformance/bin/python Tests/Fixtures/Images/generated/make_decoding_cases.py AVIFENC

AVIFENC is an avifenc that writes YCgCo-Re as H.273 (2024) numbers it, matrix 16: libavif 1.2 or
later, or 1.1.1 configured with -DAVIF_ENABLE_EXPERIMENTAL_YCGCO_R=ON and its enum renumbered
(1.1.1 still used the draft's 15 and 16 for Re and Ro); the files here were made with the latter,
built against Debian 12's libaom 3.6.0 and libdav1d 1.0.0. Needs Pillow 13 (its AVIF plugin,
libavif 1.4.2, writes the sequence). Encoders are not bit-exact across versions: the committed
files are the reference, this is their recipe.
"""
import io, os, struct, subprocess, sys, tempfile, zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(os.path.dirname(HERE), "libavif", "kodim03_yuv420_8bpc.avif")


def out(name):
    return os.path.join(HERE, name)


def boxes(data, start=0, end=None):
    """(offset, size, type) of the boxes in data[start:end]."""
    end = len(data) if end is None else end
    at, found = start, []
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        found.append((at, size, kind))
        at += size
    return found


def only_sequence_brands(data):
    """The file with its ftyp rewritten to list the brands of Netflix's AVIF sequences (avis,
    msf1, miaf, MA1B, iso8: no avif, no mif1), a `free` box taking up the bytes saved, so that
    every offset after it stays."""
    at, size, kind = boxes(data)[0]
    assert kind == b"ftyp" and at == 0
    brands = [b"avis", b"msf1", b"miaf", b"MA1B", b"iso8"]
    ftyp = struct.pack(">I4s4sI", 16 + 4 * len(brands), b"ftyp", b"avis", 0) + b"".join(brands)
    assert len(ftyp) + 8 <= size, "the original ftyp is too short to rewrite in place"
    free = struct.pack(">I4s", size - len(ftyp), b"free") + bytes(size - len(ftyp) - 8)
    return ftyp + free + data[size:]


def exif(orientation, kind, big_endian):
    """A TIFF structure whose IFD0 holds Orientation as `kind` (4 LONG, 9 SLONG)."""
    order = ">" if big_endian else "<"
    header = (b"MM\x00\x2a" if big_endian else b"II\x2a\x00") + struct.pack(order + "I", 8)
    entry = struct.pack(order + "HHI", 0x0112, kind, 1) + struct.pack(order + ("i" if kind == 9 else "I"), orientation)
    return header + struct.pack(order + "H", 1) + entry + struct.pack(order + "I", 0)


def png_chunks(data):
    """[(type, body)] of a PNG."""
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunks.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks


def png_from(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body)) for kind, body in chunks)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    avifenc = sys.argv[1]
    photo = Image.open(SOURCE).convert("RGB").resize((192, 128), Image.LANCZOS)
    work = tempfile.mkdtemp()
    png = os.path.join(work, "photo.png")
    photo.save(png)
    grey = os.path.join(work, "grey.png")
    photo.convert("L").save(grey)

    # An image sequence of three frames (the first is the primary item libavif writes too).
    buffer = io.BytesIO()
    frames = [photo.transpose(Image.FLIP_LEFT_RIGHT), photo.rotate(180)]
    photo.save(buffer, "AVIF", save_all=True, append_images=frames, duration=200, quality=60)
    with open(out("kodim03-avis-only.avif"), "wb") as fh:
        fh.write(only_sequence_brands(buffer.getvalue()))

    encode = [avifenc, "-s", "6", "--ignore-exif", "--ignore-xmp"]
    subprocess.run(encode + ["--cicp", "1/13/16", "-d", "10", "-y", "444", "-r", "full", "-q", "90",
                             png, out("kodim03-ycgco-re.avif")], check=True, capture_output=True)
    subprocess.run(encode + ["-y", "400", "-d", "8", "-r", "limited", "-q", "95",
                             grey, out("kodim03-grey-limited.avif")], check=True, capture_output=True)
    subprocess.run(encode + ["-y", "400", "-d", "10", "-r", "full", "-q", "95",
                             grey, out("kodim03-grey-full-10bit.avif")], check=True, capture_output=True)

    # Pillow writes the EXIF bytes it is given as they are ("Exif\0\0" + TIFF for JPEG).
    photo.save(out("kodim03-orientation6-slong.jpg"), quality=88,
               exif=b"Exif\x00\x00" + exif(6, 9, big_endian=True))
    photo.save(out("kodim03-orientation8-long.webp"), quality=80, exif=exif(8, 4, big_endian=False))

    # Damage in the entropy-coded data of a baseline JPEG with optimised Huffman tables (as most
    # writers make them). Four bytes of noise 1000 bytes before the end are bits no code of those
    # tables starts. libjpeg-turbo reports a bad code only from its careful decoding path, which
    # it takes for the last few KB of a scan (its fast path decodes such a code as 0, silently);
    # elsewhere, or with the standard tables, noise mostly decodes as other codes.
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=90, optimize=True)
    jpeg = buffer.getvalue()
    scan = jpeg.rindex(b"\xff\xda")
    middle = scan + (len(jpeg) - scan) // 2
    bad = bytearray(jpeg)
    bad[len(jpeg) - 1000:len(jpeg) - 996] = bytes.fromhex("c5d71484")
    with open(out("kodim03-bad-huffman.jpg"), "wb") as fh:
        fh.write(bytes(bad))
    with open(out("kodim03-segment-cut.jpg"), "wb") as fh:
        fh.write(jpeg[:middle] + b"\xff\xd9")  # EOI where the scan's data should go on
    with open(out("kodim03-truncated.jpg"), "wb") as fh:
        fh.write(jpeg[:middle])

    # PNGs, one IDAT each: a wrong CRC over intact data, and deflate data broken half-way.
    buffer = io.BytesIO()
    photo.save(buffer, "PNG", compress_level=9)
    chunks = png_chunks(buffer.getvalue())
    whole = png_from(chunks)
    idat = whole.index(b"IDAT")
    length = struct.unpack(">I", whole[idat - 4:idat])[0]
    crc_at = idat + 4 + length
    with open(out("kodim03-idat-crc.png"), "wb") as fh:
        fh.write(whole[:crc_at] + bytes(b ^ 0xFF for b in whole[crc_at:crc_at + 4]) + whole[crc_at + 4:])
    broken = bytearray(whole)
    broken[idat + 4 + length // 2:idat + 4 + length // 2 + 8] = bytes(8)
    with open(out("kodim03-idat-broken.png"), "wb") as fh:
        fh.write(bytes(broken))

    # Lossy with alpha: a disc, the rest transparent over white pixels, kept as they are (exact).
    rgba = photo.convert("RGBA")
    mask = Image.new("L", photo.size, 0)
    for y in range(photo.height):
        for x in range(photo.width):
            inside = ((x - 96) / 80) ** 2 + ((y - 64) / 56) ** 2 <= 1
            mask.putpixel((x, y), 255 if inside else 0)
            if not inside:
                rgba.putpixel((x, y), (255, 255, 255, 0))
    rgba.putalpha(mask)
    rgba.save(out("kodim03-alpha-lossy.webp"), quality=85, exact=True)


if __name__ == "__main__":
    main()
