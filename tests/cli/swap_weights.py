"""Writes a copy of a .glb with the first two weights of every Nth vertex swapped (vertices N, 2N,
...): the rig change of issue 41's diff cases, where some vertices part from the seam twins the
original welds them to (diff_seams.sh, json_schema.sh).

    swap_weights.py IN.glb OUT.glb [N=37]
"""
import sys

sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf  # noqa: E402

step = int(sys.argv[3]) if len(sys.argv) > 3 else 37
g = Gltf(sys.argv[1])
w = g.attr("WEIGHTS_0")
for v in range(step, len(w), step):
    w[v, 0], w[v, 1] = float(w[v, 1]), float(w[v, 0])
g.save(sys.argv[2])
