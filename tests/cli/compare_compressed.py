#!/usr/bin/env python3
"""Compares rigscope's deformed positions (and T) of an optimised glTF with its original's.

usage: compare_compressed.py ORIG_POS.csv COMP_POS.csv ORIG_T.csv COMP_T.csv POSITION_BITS WEIGHT_BITS

Vertices are matched by position at the first frame (optimisers reorder, weld and split
vertices, and merge meshes). The bound is derived from the quantization, not from a run:
- positions: quantized to POSITION_BITS over the largest side S of the scene's box, so each axis is
  off by at most half a step, |e_p| <= sqrt(3)/2 * S / (2^bits - 1) (0 bits: not quantized);
  skinning moves it by rigid joint transforms times their scale (the deformed box's size over the
  rest box's, at least 1);
- weights: quantized to WEIGHT_BITS and renormalised to sum 1, each off by at most 1/(2^bits - 1);
  since the changes sum to zero, the position moves by at most sum|dw_i| * max|M_i p - p'|, with
  four weights and M_i p within the deformed box's diagonal D: 4 D / (2^bits - 1);
- T = mean rest edge / mean deformed edge: every edge length is off by at most twice the position
  bound e, so |dT| <= T (2e / L + 2e / L) with L the shortest distance between two distinct welded
  vertices (a lower bound on every edge), to first order; smoothing averages, keeping the bound.
"""
import csv
import math
import sys

import numpy as np


def read(path, columns):
    frames = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            frames.setdefault(int(row["frame"]), []).append([float(row[c]) for c in columns])
    return {k: np.array(v) for k, v in frames.items()}


def main():
    orig_p, comp_p, orig_t, comp_t = (read(sys.argv[1], "xyz"), read(sys.argv[2], "xyz"),
                                      read(sys.argv[3], ["t"]), read(sys.argv[4], ["t"]))
    pos_bits, weight_bits = int(sys.argv[5]), int(sys.argv[6])
    assert sorted(orig_p) == sorted(comp_p), ("frames differ", sorted(orig_p)[:5], sorted(comp_p)[:5])
    first = min(orig_p)
    rest = orig_p[first]
    side = float((rest.max(0) - rest.min(0)).max())
    e_pos = math.sqrt(3) / 2 * side / (2 ** pos_bits - 1) if pos_bits else 0.0
    welded = np.unique(np.round(rest / (side * 1e-6)), axis=0) * side * 1e-6
    d = np.sqrt(((welded[:, None, :] - welded[None, :, :]) ** 2).sum(-1))
    d[d == 0] = np.inf
    shortest = float(d.min())

    # Nearest compressed vertex of each original one, at the first frame.
    comp0 = comp_p[first]
    dist = np.sqrt(((rest[:, None, :] - comp0[None, :, :]) ** 2).sum(-1))
    match = dist.argmin(1)
    worst = {"pos": 0.0, "pos_ratio": 0.0, "t": 0.0, "t_ratio": 0.0}
    for f in sorted(orig_p):
        a, b = orig_p[f], comp_p[f][match]
        box = a.max(0) - a.min(0)
        diag = float(np.linalg.norm(box))
        scale = max(1.0, float(box.max()) / side)
        bound = e_pos * scale + (4 * diag / (2 ** weight_bits - 1) if weight_bits else 0.0) + 1e-6 * diag
        err = float(np.sqrt(((a - b) ** 2).sum(1)).max())
        worst["pos"] = max(worst["pos"], err)
        worst["pos_ratio"] = max(worst["pos_ratio"], err / bound)
        assert err <= bound, f"frame {f}: position off by {err:g}, bound {bound:g}"
        ta, tb = orig_t[f][:, 0], comp_t[f][:, 0][match]
        t_bound = ta * (4 * bound / shortest) + 1e-5
        terr = np.abs(ta - tb)
        worst["t"] = max(worst["t"], float(terr.max()))
        worst["t_ratio"] = max(worst["t_ratio"], float((terr / t_bound).max()))
        assert (terr <= t_bound).all(), f"frame {f}: T off by {terr.max():g} at vertex {terr.argmax()}, bound {t_bound[terr.argmax()]:g}"
    print(f"{len(orig_p)} frames, {len(rest)} vertices: position error {worst['pos']:.3g} "
          f"({worst['pos_ratio']:.2f} of the bound), T error {worst['t']:.3g} ({worst['t_ratio']:.2f} of the bound)")


main()
