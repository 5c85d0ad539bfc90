"""Writes a copy of a .glb whose first mesh lists its vertices in another order (every vertex
attribute permuted, the indices renumbered to match: the same surface), as another exporter
would: diff --match position must pair them by rest position and report each under its own
file's id (diff_order.sh). With CHANGE, that OLD vertex's weights in the copy all go to one joint
(the one it leans on least), so that it alone moves differently.

    permute_glb.py IN.glb OUT.glb [CHANGE]

Prints the permutation as JSON: new_of_old[v] is OLD vertex v's index in the copy.
"""
import json
import sys

import numpy as np

sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf  # noqa: E402

g = Gltf(sys.argv[1])
prim = g.j["meshes"][0]["primitives"][0]
n = g.acc(prim["attributes"]["POSITION"]).shape[0]
# A fixed seed: the same file each run.
order = np.random.default_rng(57).permutation(n)        # copy vertex i is OLD vertex order[i]
for name, index in prim["attributes"].items():
    a = g.acc(index)
    a[:] = a[order].copy()
new_of_old = np.empty(n, dtype=np.int64)
new_of_old[order] = np.arange(n)
idx = g.acc(prim["indices"]).reshape(-1)
idx[:] = new_of_old[idx.astype(np.int64)].astype(idx.dtype)
if len(sys.argv) > 3:
    v = new_of_old[int(sys.argv[3])]
    j, w = g.attr("JOINTS_0"), g.attr("WEIGHTS_0")
    k = int(np.argmin(w[v, :2]))           # the joint of the two it leans on least
    j[v, :] = [j[v, k], 0, 0, 0]
    w[v, :] = [1, 0, 0, 0]
g.save(sys.argv[2])
print(json.dumps({"new_of_old": new_of_old.tolist()}))
