"""Writes a PC2 whose samples repeat, to exercise how an Alembic writer stores repeated samples
(Alembic stores a sample equal to the one before once; its header's first and last changed
indices say which stored sample each index takes):

    repeat_pc2.py DEFORM.csv OUT.pc2 FRAME,FRAME,...

Sample i is the CSV's positions at the i-th listed frame (start frame 1, one sample a frame).
"""
import csv
import struct
import sys

deform_csv, out, spec = sys.argv[1], sys.argv[2], sys.argv[3]
frames = {}
for r in csv.DictReader(open(deform_csv)):
    frames.setdefault(int(r["frame"]), []).append((float(r["x"]), float(r["y"]), float(r["z"])))
picks = [int(f) for f in spec.split(",")]
n = len(frames[picks[0]])
with open(out, "wb") as f:
    f.write(b"POINTCACHE2\0" + struct.pack("<iiffi", 1, n, 1.0, 1.0, len(picks)))
    for k in picks:
        for p in frames[k]:
            f.write(struct.pack("<3f", *p))
