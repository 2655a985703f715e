#!/usr/bin/env python3
"""Writes a large RGBA PNG that compresses to almost nothing, for memory tests.

    large_png.py OUT WIDTH HEIGHT [--interlaced]

The pixel at (x, y) is ((x + 3y) % 256, (2x + y) % 256, (5y) % 256, (255 - x - y) % 256): a
gradient in both directions, with alpha, so thumbnails are not flat. Each row after the first of
a pass is filtered Up, which leaves a row of one repeated 4-byte pattern: the file stays a few
hundred KB at 10000x10000, and the same picture interlaced (Adam7) decodes to the same pixels.
"""
import struct
import sys
import zlib

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def pixel(x, y):
    return bytes(((x + 3 * y) % 256, (2 * x + y) % 256, (5 * y) % 256, (255 - x - y) % 256))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def rows(width, height, x0, y0, dx, dy):
    """Filtered rows of the sub-image of pixels (x0 + i*dx, y0 + j*dy)."""
    columns = range(x0, width, dx)
    count = len(columns)
    if count == 0:
        return
    # Up filter: the difference to the pass's row above, the same for every pixel of a row.
    delta = bytes(((3 * dy) % 256, dy % 256, (5 * dy) % 256, (-dy) % 256)) * count
    for index, y in enumerate(range(y0, height, dy)):
        if index == 0:
            yield b"\x00" + b"".join(pixel(x, y) for x in columns)
        else:
            yield b"\x02" + delta


def main():
    out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    interlaced = "--interlaced" in sys.argv[4:]
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    compressor = zlib.compressobj(6)
    with open(out, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n")
        file.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 1 if interlaced else 0)))
        data = bytearray()
        for x0, y0, dx, dy in passes:
            for row in rows(width, height, x0, y0, dx, dy):
                data += compressor.compress(row)
        data += compressor.flush()
        file.write(chunk(b"IDAT", bytes(data)))
        file.write(chunk(b"IEND", b""))


main()
