#!/usr/bin/env python3
"""Prints the reference pixels HEIFFixtureTests compares with, from libheif's own converter.

    heif-convert FILE out.png   (Debian libheif-examples 1.15.1, the libheif the tests link)
    python3 reference.py out.png

16-bit PNGs (heif-convert writes 10- and 12-bit images so) are reduced to 8 bits by keeping the
high byte; the tests allow 1/255 for that rounding. Sample points: the centre and the four points
a quarter of the way in from each corner, as (x, y) = (w*i//4, h*j//4)."""
import struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert colour in (2, 6) and interlace == 0
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    channels = 3 if colour == 2 else 4
    bpp = channels * depth // 8
    stride = width * bpp
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    def pixel(x, y):
        row = rows[y]
        if depth == 8:
            return list(row[x * channels:(x + 1) * channels])
        return [row[(x * channels + k) * 2] for k in range(channels)]  # high byte of each sample
    return width, height, channels, pixel

width, height, channels, pixel = read_png(sys.argv[1])
points = [(width // 2, height // 2)] + [(width * i // 4, height * j // 4) for j in (1, 3) for i in (1, 3)]
print(f"{width}x{height} channels {channels}")
for x, y in points:
    print(f"({x}, {y}): {pixel(x, y)}")
