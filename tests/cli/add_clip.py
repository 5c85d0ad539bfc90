#!/usr/bin/env python3
"""Adds a second animation to a glTF for the multi-clip tests (issue 57), with numpy and no rigscope:

  add_clip.py IN OUT NAME FACTOR   OUT is IN with one more animation NAME: the first animation's
                                   channels, each rotation key turned FACTOR times as far from
                                   identity (the same axis, FACTOR times the angle); translations
                                   and scales shared with the first.
"""
import sys

import numpy as np

from gltf_edit import Gltf


def scaled_rotations(q, factor):
    """Unit quaternions (x, y, z, w) with their angle times `factor`, about the same axis."""
    q = q.astype(np.float64)
    q = q * np.where(q[:, 3:4] < 0, -1.0, 1.0)  # the short way round: angle in [0, pi]
    half = np.arccos(np.clip(q[:, 3], -1.0, 1.0))
    s = np.sin(half)
    axis = np.where(s[:, None] > 1e-12, q[:, :3] / np.maximum(s, 1e-12)[:, None], [0.0, 0.0, 1.0])
    out = np.empty_like(q)
    out[:, :3] = axis * np.sin(half * factor)[:, None]
    out[:, 3] = np.cos(half * factor)
    return out


def main():
    src, dst, name, factor = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    g = Gltf(src)
    first = g.j["animations"][0]
    samplers = []
    for k, s in enumerate(first["samplers"]):
        s = dict(s)
        if any(c["sampler"] == k and c["target"]["path"] == "rotation" for c in first["channels"]):
            s["output"] = g.add(scaled_rotations(g.acc(s["output"]), factor), 5126, "VEC4")
        samplers.append(s)
    g.j["animations"].append({"name": name, "channels": [dict(c) for c in first["channels"]], "samplers": samplers})
    g.save(dst)


if __name__ == "__main__":
    main()
