"""Rewrites an OBJ neutral (tests/cli/write_neutral.py's ref.obj) as the neutrals that --reference
must pair or refuse (issue 42): read and written here, independently of rigscope.

    reference_match.py REF.obj OUT_DIR

- welded.obj: the vertices welded by exact position (glTF splits seams into copies with equal
  positions), each welded vertex where its first copy was: the modeller's welded mesh;
- permuted.obj: the vertices in a fixed shuffled order, faces renumbered: the same surface;
- cm.obj: every coordinate times 100 (a neutral exported in centimetres);
- moved.obj: one point (all its copies) moved by 1% of the bounding-box diagonal: not the bind
  surface.
"""
import os
import random
import sys


def read(path):
    v, f = [], []
    for line in open(path):
        p = line.split()
        if p and p[0] == "v":
            v.append(tuple(float(c) for c in p[1:4]))
        elif p and p[0] == "f":
            f.append([int(c.split("/")[0]) - 1 for c in p[1:]])
    return v, f


def write(path, v, f):
    with open(path, "w") as out:
        out.write("o Cylinder\n")
        out.writelines("v %r %r %r\n" % p for p in v)
        out.writelines("f " + " ".join(str(i + 1) for i in face) + "\n" for face in f)


def main():
    v, f = read(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    first = {}
    for i, p in enumerate(v):
        first.setdefault(p, len(first))
    welded = [None] * len(first)
    for p, w in first.items():
        welded[w] = p
    write(f"{out}/welded.obj", welded, [[first[v[i]] for i in face] for face in f])
    order = list(range(len(v)))
    random.Random(42).shuffle(order)
    new_of = {old: new for new, old in enumerate(order)}
    write(f"{out}/permuted.obj", [v[i] for i in order], [[new_of[i] for i in face] for face in f])
    write(f"{out}/cm.obj", [tuple(c * 100 for c in p) for p in v], f)
    lo = [min(p[k] for p in v) for k in range(3)]
    hi = [max(p[k] for p in v) for k in range(3)]
    diagonal = sum((h - l) ** 2 for l, h in zip(lo, hi)) ** 0.5
    # Every copy of vertex 7's position, so that the surface keeps its welded count.
    moved = [(p[0] + 0.01 * diagonal, p[1], p[2]) if p == v[7] else p for p in v]
    write(f"{out}/moved.obj", moved, f)
    print(len(v), len(welded))


if __name__ == "__main__":
    main()
