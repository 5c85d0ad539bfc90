#!/usr/bin/env python3
"""Hostile USD files for tests/cli/usd/usd_bad_inputs.sh, each made from a good crate layer or usdz
(written by usd-core) by changing the bytes one rule checks:

    make_bad_usd.py KIND GOOD.usdc OUT
"""
import struct
import sys
import zipfile


def sections(b):
    toc = struct.unpack_from("<Q", b, 16)[0]
    n = struct.unpack_from("<Q", b, toc)[0]
    out = {}
    for i in range(n):
        at = toc + 8 + 32 * i
        name = b[at:at + 16].split(b"\0")[0].decode()
        out[name] = (at, *struct.unpack_from("<QQ", b, at + 16))
    return toc, out


def main():
    kind, good, out = sys.argv[1:4]
    b = bytearray(open(good, "rb").read())
    toc, secs = sections(b)
    if kind == "newer_version":
        b[9] = 15
    elif kind == "truncated":
        b = b[: len(b) // 2]
    elif kind == "section_count":
        struct.pack_into("<Q", b, toc, 1 << 40)
    elif kind == "section_outside":
        at, start, size = secs["SPECS"]
        struct.pack_into("<Q", b, at + 24, 1 << 33)
    elif kind == "lz4_bomb":
        # TOKENS: count, uncompressed size, compressed size: claim 1 TB from a few hundred bytes.
        at, start, size = secs["TOKENS"]
        struct.pack_into("<Q", b, start + 8, 1 << 40)
    elif kind == "token_count":
        at, start, size = secs["TOKENS"]
        struct.pack_into("<Q", b, start, 1 << 35)
    elif kind == "strings_count":
        at, start, size = secs["STRINGS"]
        struct.pack_into("<Q", b, start, 1 << 50)
    elif kind == "lz4_corrupt":
        at, start, size = secs["FIELDS"]
        for i in range(start + 40, min(start + size, start + 80)):
            b[i] ^= 0x5A
    elif kind in ("zip_deflated", "zip_size"):
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED if kind == "zip_deflated" else zipfile.ZIP_STORED) as z:
            z.writestr("root.usdc", bytes(b))
        if kind == "zip_size":
            z = bytearray(open(out, "rb").read())
            cd = z.rfind(b"PK\x01\x02")
            struct.pack_into("<II", z, cd + 20, 1 << 31, 1 << 31)  # claims 2 GB stored
            open(out, "wb").write(z)
        return
    else:
        sys.exit(f"unknown kind {kind}")
    open(out, "wb").write(b)


if __name__ == "__main__":
    main()
