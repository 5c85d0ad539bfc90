#!/usr/bin/env python3
"""Compares rigscope's `deform` CSV of a USD file with OpenUSD's points (scripts/usd/bake_oracle.py).

    usd_compare.py DEFORM.csv ORACLE.json [--mesh NAME] [--codes-per-frame R]

--mesh compares that mesh alone; --codes-per-frame R reads the CSV's frame n as time code n * R
(a deform run at twice the stage's rate, --fps 48 on a 24 time-code stage, has R = 0.5: its odd
frames are the codes halfway between whole ones).

Passes when every mesh's vertices are within 1e-5 of the mesh's bounding-box diagonal at every time
code the oracle holds (the issue's tolerance: float32 points through two float32 skinning paths
differ by a few ulps of the coordinates, far below 1e-5 of the model's size). Fails when a mesh or a
time code of the oracle is missing from the CSV, or the vertex counts differ.
"""
import csv
import json
import math
import sys


def main():
    csv_path, oracle_path = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    only = args[args.index("--mesh") + 1] if "--mesh" in args else None
    ratio = float(args[args.index("--codes-per-frame") + 1]) if "--codes-per-frame" in args else 1.0
    oracle = json.load(open(oracle_path))
    if only is not None:
        if only not in oracle["meshes"]:
            print(f"FAIL: OpenUSD has no mesh {only}")
            sys.exit(1)
        oracle["meshes"] = {only: oracle["meshes"][only]}
    got = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            key = (row["mesh"], float(row["frame"]) * ratio)
            got.setdefault(key, []).append((float(row["x"]), float(row["y"]), float(row["z"])))
    failures, checked, worst_ratio = 0, 0, 0.0
    for mesh, frames in oracle["meshes"].items():
        for t, want in frames.items():
            have = got.get((mesh, float(t)))
            if have is None:
                print(f"FAIL: {mesh} at time code {t}: not in rigscope's output")
                failures += 1
                continue
            if len(have) != len(want):
                print(f"FAIL: {mesh} at {t}: {len(have)} vertices, OpenUSD has {len(want)}")
                failures += 1
                continue
            lo = [min(p[c] for p in want) for c in range(3)]
            hi = [max(p[c] for p in want) for c in range(3)]
            diagonal = math.dist(lo, hi)
            worst = max(math.dist(a, b) for a, b in zip(have, want))
            checked += 1
            worst_ratio = max(worst_ratio, worst / diagonal if diagonal > 0 else worst)
            if worst > 1e-5 * diagonal:
                print(f"FAIL: {mesh} at {t}: a vertex {worst:.3g} from OpenUSD's, past 1e-5 of the diagonal {diagonal:.3g}")
                failures += 1
    if checked == 0:
        print("FAIL: nothing compared")
        failures += 1
    print(f"usd_compare: {checked} mesh frames compared, {failures} failures, largest error {worst_ratio:.3g} of the diagonal")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
