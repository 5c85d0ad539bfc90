#!/usr/bin/env python3
"""Copies a make_twist_cylinder.py file with both joints' rest scale 1e30, so that the skinned
positions overflow a float (1e60) though every number in the file is finite: volume.sh's case of
a deformed position that is not finite.

    overflow_glb.py IN.glb OUT.glb
"""
import json
import struct
import sys

data = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", data, 12)[0]
doc = json.loads(data[20:20 + n])
rest = data[20 + n:]
for node in doc["nodes"][:2]:
    node["scale"] = [1e30, 1e30, 1e30]
text = json.dumps(doc, separators=(",", ":")).encode()
text += b" " * (-len(text) % 4)
with open(sys.argv[2], "wb") as f:
    f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + len(rest)))
    f.write(struct.pack("<I4s", len(text), b"JSON") + text)
    f.write(rest)
