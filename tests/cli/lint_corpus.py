#!/usr/bin/env python3
"""rigscope lint on the corpus, for tests/cli/lint/lint.sh:

  lint_corpus.py RIGSCOPE CORPUS TMP [EXTRA_FILES...]

- every check runs on every corpus file (glTF, FBX, Collada) without an error, and the untouched
  files have no `influences` or `unweighted` finding;
- cesium_man's weight sums: lint finds exactly the vertices numpy finds off 1 by more than 1e-3
  in the file's own WEIGHTS_0;
- bend_cylinder is a symmetric rig: no mirror finding in x or z;
- each check on a file where this script planted the defect at a known vertex, face or joint (by
  editing the glTF's accessors or nodes with numpy): the finding is there, and nowhere else new.

The glTF edits are this script's own (numpy over the accessors), independent of rigscope's reader.
"""
import json, os, subprocess, sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gltf_edit import Gltf  # noqa: E402

BIN, CORPUS, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
EXTRA = sys.argv[4:]
ALL_CHECKS = ["weights_sum", "influences", "small_weight", "unweighted", "seam_weights", "unused_joint", "mirror",
              "mirror_unpaired", "degenerate_face", "bind_pose", "joint_scale", "legacy_binding"]
failures = []


def fail(what):
    print("FAIL:", what)
    failures.append(what)


def lint(path, *args):
    r = subprocess.run([BIN, "lint", path, "--format", "json", *args], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        fail("%s %s: exit %d: %s" % (path, " ".join(args), r.returncode, r.stderr.strip()))
        return None
    doc = json.loads(r.stdout)
    if (r.returncode == 1) != doc["failed"]:
        fail("%s: exit %d but failed=%s" % (path, r.returncode, doc["failed"]))
    return doc


def found(doc, check, key="vertex"):
    return {f.get(key) for f in doc["findings"] if f["check"] == check} if doc else None


def planted(name, check, src, edit, key="vertex", args=(), expect=None):
    """Lints src and its edited copy: the new findings of `check` must be exactly `expect`."""
    before = lint(src, *args)
    g = Gltf(src)
    made = edit(g)
    expect = made if expect is None else expect
    after = lint(g.save("%s/%s%s" % (TMP, name, ".glb" if g.glb else ".gltf")), *args)
    if before is None or after is None:
        return
    b, a = found(before, check, key), found(after, check, key)
    new = a - b
    if new != set(expect) or (set(expect) & b) or not b <= a:
        fail("%s: %s new findings %s, expected %s (untouched: %s)" % (name, check, sorted(new, key=str), sorted(expect, key=str), sorted(b, key=str)))
    else:
        print("ok: %s: %s at %s only" % (name, check, sorted(expect, key=str)))


# -- every check on every corpus file ---------------------------------------------------------------
files = subprocess.run(["find", CORPUS, "-type", "f", "(", "-iname", "*.gltf", "-o", "-iname", "*.glb", "-o", "-iname", "*.fbx",
                        "-o", "-iname", "*.dae", ")"], capture_output=True, text=True).stdout.split()
bad = ("IncorrectVertexArrays", "IndexOutOfRange", "MissingBin", "wrongTypes")  # kept to be refused
files = sorted(f for f in files if not any(b in f for b in bad)) + EXTRA
def gltf_influences(path):
    """Per vertex of a one-mesh glTF, its non-zero weights over every WEIGHTS_n, counted by numpy."""
    g = Gltf(path)
    counts = []
    for prim in range(len(g.j["meshes"][0]["primitives"])):
        attrs = g.j["meshes"][0]["primitives"][prim]["attributes"]
        sets = [g.attr(k, prim) for k in sorted(attrs) if k.startswith("WEIGHTS_")]
        counts.append(sum((w > 0).sum(axis=1) for w in sets))
    return np.concatenate(counts)


def has_skinned_mesh(path):
    """Whether a mesh of the file is skinned: a glTF node with both mesh and skin, read from the
    file itself; for FBX and Collada, what `info --json` says of each mesh."""
    if path.endswith((".gltf", ".glb")):
        try:
            return any("skin" in n and "mesh" in n for n in Gltf(path).j.get("nodes", []))
        except ValueError:
            pass
    info = json.loads(subprocess.run([BIN, "info", path, "--json"], capture_output=True, text=True).stdout)
    return any(m.get("skin") is not None for m in info["meshes"])


skinless = 0
for f in files:
    doc = lint(f, "--mirror", "x")
    if doc is None:
        continue
    if not has_skinned_mesh(f):
        # Nothing for the skin checks to read: listed as not checked, and the lint fails.
        skinless += 1
        missed = [n["check"] for n in doc["not_checked"]]
        if doc["checks"] != ["degenerate_face"] or missed != [c for c in ALL_CHECKS if c != "degenerate_face"] or not doc["failed"]:
            fail("%s (no skin): checks run %s, not checked %s, failed %s" % (f, doc["checks"], missed, doc["failed"]))
        continue
    if doc["checks"] != ALL_CHECKS or doc["not_checked"]:
        fail("%s: checks run %s, not checked %s" % (f, doc["checks"], doc["not_checked"]))
    if found(doc, "unweighted"):
        fail("%s: untouched file has unweighted findings at %s" % (f, sorted(found(doc, "unweighted"))[:10]))
    # Some corpus files do have more than 4 influences (quad_skin.glb has JOINTS_0..2; arnaud.fbx
    # and animation_with_skeleton.fbx up to 5 and 6): glTF ones are counted by numpy here, the
    # others must agree with `info`'s largest count.
    got = {x["vertex"]: x["value"] for x in doc["findings"] if x["check"] == "influences"}
    try:
        g = Gltf(f) if f.endswith((".gltf", ".glb")) else None
    except ValueError:
        g = None  # several buffers: not this script's kind of file
    if g and len(g.j.get("meshes", [])) == 1 and g.j.get("skins"):
        n = gltf_influences(f)
        want = {int(v): int(n[v]) for v in np.nonzero(n > 4)[0]}
        if got != want:
            fail("%s: influences %s, numpy counts %s" % (f, sorted(got.items())[:5], sorted(want.items())[:5]))
    else:
        info = json.loads(subprocess.run([BIN, "info", f, "--json"], capture_output=True, text=True).stdout)
        most = max([m["max_influences"] for m in info["meshes"]] + [0])
        if (most > 4) != bool(got) or (got and max(got.values()) != most):
            fail("%s: influences findings up to %s, info says at most %d" % (f, max(got.values()) if got else None, most))
print("ok: every check ran on %d corpus files; on the %d without a skinned mesh only degenerate_face ran, the rest not checked and failed" % (len(files) - skinless, skinless))
if not skinless:
    fail("no corpus file without a skinned mesh: the not-checked path went untested")

# -- cesium_man's own sums, found by numpy ------------------------------------------------------------
cesium = CORPUS + "/khronos/cesium_man.gltf"
g = Gltf(cesium)
sums = g.attr("WEIGHTS_0").astype(np.float64).sum(axis=1)
off = np.abs(sums - 1.0)
expect = set(np.nonzero(off > 1e-3)[0].tolist())
# The reader's sum is in double over the same floats, stored as a float: a vertex within 1e-6 of
# the tolerance could fall either way and would make this comparison meaningless.
assert not np.any(np.abs(off - 1e-3) < 1e-6), "a cesium_man sum sits at the tolerance"
doc = lint(cesium)
got = {f["vertex"]: f["value"] for f in doc["findings"] if f["check"] == "weights_sum"}
if set(got) != expect or not expect:
    fail("cesium_man weights_sum: %d vertices, numpy finds %d; differing %s" % (len(got), len(expect), sorted(set(got) ^ expect)[:10]))
elif max(abs(got[v] - sums[v]) for v in expect) > 1e-6:  # the reported sum, as a float
    fail("cesium_man weights_sum values differ from numpy's sums")
else:
    print("ok: cesium_man weights_sum: the %d vertices numpy finds" % len(expect))
if doc["failed"] is not True:
    fail("cesium_man: weights_sum errors but not failed")

# -- a symmetric rig: Cesium's two-joint cylinder, in x and y. (bend_cylinder is not one: Blender's
# automatic weights differ by up to 0.1 between its sides.)
rigged = CORPUS + "/khronos/rigged_simple.gltf"
for axis in ("x", "y"):
    doc = lint(rigged, "--mirror", axis)
    if found(doc, "mirror") or found(doc, "mirror_unpaired"):
        fail("rigged_simple --mirror %s: %s" % (axis, [f["message"] for f in doc["findings"] if f["check"].startswith("mirror")][:5]))
    else:
        print("ok: rigged_simple is symmetric in %s" % axis)

# -- planted defects ----------------------------------------------------------------------------------
cyl = CORPUS + "/bend_cylinder/bend_cylinder.glb"
c = Gltf(cyl)
P = c.attr("POSITION").astype(np.float64)
W = c.attr("WEIGHTS_0").astype(np.float64)
J = c.attr("JOINTS_0").astype(np.int64)
# Coincident vertices (exact copies, as the exporter writes seams): first vertex of each position.
_, first_of, inverse, counts = np.unique(P, axis=0, return_index=True, return_inverse=True, return_counts=True)
inverse = inverse.reshape(-1)
first = first_of[inverse]
alone = counts[inverse] == 1
two = np.nonzero(W[:, 1] > 0.2)[0]  # vertices with two real weights
two = [int(v) for v in two if W[v, 0] > 0.2 and alone[v]]
K = two[len(two) // 2]


def scale_weights(g):
    g.attr("WEIGHTS_0")[K] *= np.float32(0.9)
    return [K]


def small(g):
    g.attr("JOINTS_0")[K] = [0, 1, 0, 0]
    g.attr("WEIGHTS_0")[K] = [0.9995, 0.0005, 0, 0]
    return [K]


def unweight(g):
    g.attr("WEIGHTS_0")[K] = 0
    return [K]


planted("weights_sum", "weights_sum", cyl, scale_weights)
planted("small_weight", "small_weight", cyl, small)
planted("unweighted", "unweighted", cyl, unweight)

# Seam: a pair of copies whose weights agree; the later one gets other weights.
pairs = [(int(first[v]), v) for v in range(len(P)) if counts[inverse[v]] == 2 and first[v] != v and W[v, 1] > 0.2 and W[v, 0] > 0.2]
seam_a, seam_b = pairs[len(pairs) // 2]


def seam(g):
    g.attr("WEIGHTS_0")[seam_b] = [W[seam_b, 1], W[seam_b, 0], 0, 0] if abs(W[seam_b, 0] - W[seam_b, 1]) > 0.01 else [1, 0, 0, 0]
    return [seam_b]


planted("seam_weights", "seam_weights", cyl, seam)
planted("seam_weights_partner", "seam_weights", cyl, seam, key="partner", expect=[seam_a])


def drop_joint(g):
    w = g.attr("WEIGHTS_0")
    w[g.attr("JOINTS_0") == 1] = 0
    return [g.joint_name(1)]


planted("unused_joint", "unused_joint", cyl, drop_joint, key="joint")


# Mirror in x, on the symmetric rig: a +x vertex off the plane whose weights move 0.1 to the
# other joint; then the same vertex moved off its partner.
r = Gltf(rigged)
RP, RW = r.attr("POSITION").astype(np.float64), r.attr("WEIGHTS_0").astype(np.float64)


def mirror_pick():
    for v in range(len(RP)):
        same = np.nonzero(np.all(RP == RP[v], axis=1))[0]
        if RP[v, 0] > 0.1 and len(same) == 1 and RW[v, 0] > 0.2 and RW[v, 1] > 0.2:
            partners = np.nonzero(np.all(np.abs(RP - RP[v] * [-1, 1, 1]) < 1e-6, axis=1))[0]
            if len(partners):
                return v, partners
    raise SystemExit("no mirror candidate")


MV, M_PARTNERS = mirror_pick()


def mirror_weights(g):
    g.attr("WEIGHTS_0")[MV, :2] += np.float32([0.1, -0.1])
    return [MV]


def mirror_move(g):
    g.attr("POSITION")[MV, 0] += np.float32(0.01)
    return [MV] + [int(p) for p in M_PARTNERS]


planted("mirror", "mirror", rigged, mirror_weights, args=("--mirror", "x"))
planted("mirror_unpaired", "mirror_unpaired", rigged, mirror_move, args=("--mirror", "x"))

# Faces: triangle T collapsed onto its first corner; another triangle moved onto an edge that two
# faces already share.
tri = c.indices().reshape(-1, 3).astype(np.int64)
T = len(tri) // 3


def collapse(g):
    idx = g.indices()
    idx[3 * T + 2] = idx[3 * T]
    return [T]


planted("zero_area", "degenerate_face", cyl, collapse, key="face")

a, b = int(tri[10, 0]), int(tri[10, 1])
ga, gb = first[a], first[b]
far = next(t for t in range(len(tri) - 1, 0, -1) if not ({first[v] for v in tri[t]} & {ga, gb}) and
           all(np.linalg.norm(P[v] - P[a]) > 0.5 for v in tri[t]))


def non_manifold(g):
    idx = g.indices()
    idx[3 * far:3 * far + 2] = [a, b]
    return [(min(ga, gb), max(ga, gb))]


def edge_keys(doc):
    return {(f["vertex"], f["partner"]) for f in doc["findings"] if f["check"] == "degenerate_face" and "partner" in f}


before = lint(cyl)
g = Gltf(cyl)
expect = non_manifold(g)
after = lint(g.save(TMP + "/non_manifold.glb"))
if edge_keys(after) - edge_keys(before) != {tuple(int(x) for x in expect[0])}:
    fail("non_manifold: new edges %s, expected %s" % (edge_keys(after) - edge_keys(before), expect))
else:
    print("ok: non_manifold: the edge %s only" % (expect,))


def move_bone(g):
    # A leaf joint: moving a parent would move its children's vertices too.
    joints = g.j["skins"][0]["joints"]
    k = next(k for k, n in enumerate(joints) if not g.j["nodes"][n].get("children"))
    node = g.j["nodes"][joints[k]]
    t = node.get("translation", [0, 0, 0])
    node["translation"] = [t[0] + 0.1, t[1], t[2]]
    return [g.joint_name(k)]


planted("bind_pose", "bind_pose", cyl, move_bone, key="joint")

# influences: cesium_man, a fifth weight through JOINTS_1 / WEIGHTS_1 at one vertex.
cj, cw = Gltf(cesium).attr("JOINTS_0").astype(np.int64), Gltf(cesium).attr("WEIGHTS_0").astype(np.float64)
used = (cw > 0).sum(axis=1)
IV = int(np.nonzero(used == used.max())[0][0])


def fifth(g):
    n = len(cw)
    j1, w1 = np.zeros((n, 4)), np.zeros((n, 4))
    spare = [k for k in range(len(g.j["skins"][0]["joints"])) if k not in cj[IV][cw[IV] > 0]]
    extra = 5 - int(used[IV])
    j1[IV, :extra] = spare[:extra]
    w1[IV, :extra] = 0.01
    prim = g.j["meshes"][0]["primitives"][0]["attributes"]
    prim["JOINTS_1"] = g.add(j1, 5123, "VEC4")
    prim["WEIGHTS_1"] = g.add(w1, 5126, "VEC4")
    return [IV]


planted("influences", "influences", cesium, fifth)


def scale_joints(g):
    joints = g.j["skins"][0]["joints"]
    g.j["nodes"][joints[5]]["scale"] = [1, 1.2, 1]
    g.j["nodes"][joints[8]]["scale"] = [-1, 1, 1]
    return [g.joint_name(5), g.joint_name(8)]


planted("joint_scale", "joint_scale", cesium, scale_joints, key="joint")

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
