#!/usr/bin/env python3
"""Makes the imageio test images with encoders independent of Go's.

rgb16.png: 8x6 RGB, 16 bits per channel, written here with zlib; the pixel
formula is repeated in decode_test.go.
pattern.ppm: 64x48 8-bit source for pattern.jpg (cjpeg -quality 92, 4:2:0)
and pattern.webp (cwebp -lossless); pattern-djpeg.ppm is libjpeg's decoding
of pattern.jpg (djpeg, fancy upsampling), the reference for the JPEG test.
"""
import struct, zlib

def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)

def px16(x, y):
    return (x * 8191 + y * 3) & 0xffff, (65535 - x * 1000 - y * 7000) & 0xffff, (x * y * 4099 + 12345) % 65536

w, h = 8, 6
raw = b""
for y in range(h):
    raw += b"\x00" + b"".join(struct.pack(">HHH", *px16(x, y)) for x in range(w))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
open("rgb16.png", "wb").write(png)

w, h = 64, 48  # pattern.ppm is removed after encoding; regenerate it to re-encode
out = bytearray()
for y in range(h):
    for x in range(w):
        if x < 24:
            r, g, b = 4 * x + 40, 5 * y, 200 - 2 * x
        elif x < 40:
            r, g, b = (230, 40, 40) if y < 24 else (30, 60, 220)
        else:
            r, g, b = 20 + 3 * y, 180, 60 + 2 * (x - 40)
        out += bytes((r, g, b))
open("pattern.ppm", "wb").write(b"P6\n%d %d\n255\n" % (w, h) + bytes(out))
