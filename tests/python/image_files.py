"""The bake tests' own readers of the two image files rigscope writes, on the standard library and
numpy alone, so that the interpreter ctest runs (Debian's python3, which need not have Pillow or
OpenEXR's module) reads them: nothing of the product's is used, and every structure the formats
define for these files is checked, not assumed (the PNG's chunks and CRCs, its five row filters;
the EXR's header, channel list, offsets and ZIP blocks). Pillow and OpenEXR read the same files in
tests/cli/bake (the venv that has them)."""
import struct
import zlib

import numpy as np


def read_png16(path):
    """A 16-bit greyscale or RGB PNG as an array of its samples (height x width, or x 3), uint16."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    at, header, idat, ended = 8, None, [], False
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert len(body) == length and zlib.crc32(kind + body) == crc, f"chunk {kind!r}: bad length or CRC"
        at += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            ended = True
            break
        else:
            assert not kind[:1].isupper(), f"critical chunk {kind!r} this reader does not know"
    assert ended and at == len(data), "no IEND, or bytes after it"
    width, height, depth, colour, method, filter_method, interlace = header
    assert (depth, method, filter_method, interlace) == (16, 0, 0, 0), header
    channels = {0: 1, 2: 3}[colour]
    raw = zlib.decompress(b"".join(idat))  # the zlib stream checks its own Adler-32
    bpp = 2 * channels  # bytes a pixel: the filters' distance to "the byte to the left"
    stride = 2 * channels * width
    assert len(raw) == height * (1 + stride), "image data of the wrong size"
    rows = np.zeros((height, stride), dtype=np.int64)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (1 + stride)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (1 + stride) + 1).astype(np.int64)
        if kind == 0:  # None
            cur = line
        elif kind == 2:  # Up
            cur = (line + prev) & 255
        else:  # Sub, Average, Paeth: each byte depends on the one bpp to its left, unfiltered
            cur = np.zeros(stride, dtype=np.int64)
            for x in range(stride):
                left = cur[x - bpp] if x >= bpp else 0
                up = prev[x]
                upleft = prev[x - bpp] if x >= bpp else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + up) // 2
                elif kind == 4:
                    p = left + up - upleft
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
                    pred = left if pa <= pb and pa <= pc else up if pb <= pc else upleft
                else:
                    raise AssertionError(f"row {y}: filter type {kind}")
                cur[x] = (line[x] + pred) & 255
        rows[y] = cur
        prev = cur
    samples = (rows[:, 0::2] << 8) | rows[:, 1::2]  # big-endian
    shape = (height, width) if channels == 1 else (height, width, 3)
    return samples.astype(np.uint16).reshape(shape)


def _attributes(data, at):
    attrs = {}
    while data[at] != 0:
        name_end = data.index(b"\0", at)
        type_end = data.index(b"\0", name_end + 1)
        name, kind = data[at:name_end].decode(), data[name_end + 1 : type_end].decode()
        (size,) = struct.unpack("<i", data[type_end + 1 : type_end + 5])
        attrs[name] = (kind, data[type_end + 5 : type_end + 5 + size])
        at = type_end + 5 + size
    return attrs, at + 1


def read_exr_half(path):
    """A single-part scanline EXR of HALF channels, uncompressed or ZIP: {channel: height x width
    float16 array}, row 0 the data window's first (lowest y); also the data and display windows."""
    data = open(path, "rb").read()
    magic, version = struct.unpack("<II", data[:8])
    assert magic == 20000630 and version & 0xFF == 2, "not an OpenEXR 2 file"
    assert version & ~0xFF == 0, "tiled, long-name, deep or multi-part: not what bake writes"
    attrs, at = _attributes(data, 8)
    kind, chlist = attrs["channels"]
    assert kind == "chlist"
    names, pos = [], 0
    while chlist[pos] != 0:
        end = chlist.index(b"\0", pos)
        pixel_type, _linear, xs, ys = struct.unpack("<iB3xii", chlist[end + 1 : end + 17])
        assert (pixel_type, xs, ys) == (1, 1, 1), "a channel that is not full-resolution HALF"
        names.append(chlist[pos:end].decode())
        pos = end + 17
    compression = attrs["compression"][1][0]
    assert compression in (0, 3), f"compression {compression}: this reader reads none (0) and ZIP (3)"
    assert attrs["lineOrder"][1][0] == 0, "not increasing Y"
    x0, y0, x1, y1 = struct.unpack("<iiii", attrs["dataWindow"][1])
    display = struct.unpack("<iiii", attrs["displayWindow"][1])
    width, height = x1 - x0 + 1, y1 - y0 + 1
    lines = 16 if compression == 3 else 1  # scanlines a block
    blocks = (height + lines - 1) // lines
    offsets = struct.unpack(f"<{blocks}Q", data[at : at + 8 * blocks])
    out = {name: np.zeros((height, width), dtype=np.float16) for name in names}
    for b, offset in enumerate(offsets):
        y, size = struct.unpack("<ii", data[offset : offset + 8])
        assert y == y0 + b * lines, f"block {b} starts at line {y}"
        block = data[offset + 8 : offset + 8 + size]
        n = min(lines, y1 + 1 - y)
        want = n * len(names) * width * 2
        if compression == 3 and size < want:
            # ZIP: zlib, then a byte predictor (each byte the previous plus it minus 128), then the
            # even bytes' half before the odd bytes' half.
            t = np.frombuffer(zlib.decompress(block), dtype=np.uint8).astype(np.int64)
            t[1:] -= 128
            t = (np.cumsum(t) & 255).astype(np.uint8)
            raw = np.empty(len(t), dtype=np.uint8)
            half = (len(t) + 1) // 2
            raw[0::2], raw[1::2] = t[:half], t[half:]
            block = raw.tobytes()
        assert len(block) == want, f"block {b}: {len(block)} bytes, not {want}"
        values = np.frombuffer(block, dtype="<f2").reshape(n, len(names), width)  # a line's channels in turn
        for c, name in enumerate(names):
            out[name][y - y0 : y - y0 + n] = values[:, c, :]
    return out, (x0, y0, x1, y1), display
