#!/usr/bin/env python3
"""The bench tube as a UsdSkel stage, for scripts/bench.sh's USD load line (issue 39: "the bench
tube written as .usdc, made by usd-core from the glb's meshes, loads within 1.5x the time of the
.glb").

    bench_tube_usd.py TUBE_262K.glb OUT.usdc

The glb's rig as UsdSkel says it: a SkelRoot holding the Skeleton (the skin's joints in its order,
Bone and Bone/Bone.001, rest transforms from the nodes, bind transforms the inverse bind
matrices' inverses), its SkelAnimation (the clip's 24 keys of translation, rotation and scale, at
time codes 1..24 of a 24 fps stage) and the skinned Cylinder mesh (points, triangles, the four
joint indices and weights of each vertex as they are); the unskinned copy beside the SkelRoot.
Written by usd-core in whatever encoding OUT's extension names (.usdc: crate). Runs in the usd-core
venv (build/usd-venv), which has no numpy: the glb's arrays are read with the array module.
"""
import array
import os
import sys

from pxr import Gf, Usd, UsdGeom, UsdSkel, Vt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from glb_read import read_glb  # noqa: E402


def mesh_prim(stage, path, doc, read, index):
    prim = doc["meshes"][index]["primitives"][0]
    mesh = UsdGeom.Mesh.Define(stage, path)
    points, _ = read(prim["attributes"]["POSITION"])
    tris, _ = read(prim["indices"])
    mesh.CreatePointsAttr(Vt.Vec3fArray.FromBuffer(points))
    mesh.CreateFaceVertexCountsAttr(Vt.IntArray([3] * (len(tris) // 3)))
    mesh.CreateFaceVertexIndicesAttr(Vt.IntArray.FromBuffer(array.array("i", tris)))
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    return mesh, prim


def main():
    src, out = sys.argv[1], sys.argv[2]
    doc, read = read_glb(src)
    stage = Usd.Stage.CreateNew(out)
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    stage.SetTimeCodesPerSecond(24)
    stage.SetFramesPerSecond(24)
    root = UsdSkel.Root.Define(stage, "/Armature")
    stage.SetDefaultPrim(root.GetPrim())

    skin = doc["skins"][0]
    nodes = doc["nodes"]
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    # Joint paths in the skin's order, each under its parent joint.
    names = {}
    for j in skin["joints"]:
        chain, k = [], j
        while k in skin["joints"]:
            chain.append(nodes[k]["name"].replace(".", "_"))
            k = parent.get(k)
        names[j] = "/".join(reversed(chain))
    joints = [names[j] for j in skin["joints"]]

    def local(node):
        t = Gf.Vec3d(*node.get("translation", [0, 0, 0]))
        x, y, z, w = node.get("rotation", [0, 0, 0, 1])
        s = node.get("scale", [1, 1, 1])
        m = Gf.Matrix4d().SetScale(Gf.Vec3d(*s)) * Gf.Matrix4d().SetRotate(Gf.Quatd(w, x, y, z))
        m.SetTranslateOnly(t)
        return m

    skel = UsdSkel.Skeleton.Define(stage, "/Armature/Skeleton")
    skel.CreateJointsAttr(joints)
    skel.CreateRestTransformsAttr(Vt.Matrix4dArray([local(nodes[j]) for j in skin["joints"]]))
    ibm, _ = read(skin["inverseBindMatrices"])
    # glTF matrices are column-major; Gf's are row vectors, so the stored order is Gf's rows.
    skel.CreateBindTransformsAttr(Vt.Matrix4dArray([Gf.Matrix4d(*ibm[16 * k:16 * k + 16]).GetInverse() for k in range(len(ibm) // 16)]))

    anim = UsdSkel.Animation.Define(stage, "/Armature/Skeleton/Anim")
    anim.CreateJointsAttr(joints)
    tr, rot, sc = anim.CreateTranslationsAttr(), anim.CreateRotationsAttr(), anim.CreateScalesAttr()
    channels = {}
    clip = doc["animations"][0]
    for ch in clip["channels"]:
        sampler = clip["samplers"][ch["sampler"]]
        (times, _), (values, width) = read(sampler["input"]), read(sampler["output"])
        channels[(ch["target"]["node"], ch["target"]["path"])] = (times, [values[width * k:width * k + width] for k in range(len(times))])
    times = channels[(skin["joints"][0], "rotation")][0]
    for k, time in enumerate(times):
        code = Usd.TimeCode(round(float(time) * 24, 6))
        def value(j, path, rest):
            key = (j, path)
            return channels[key][1][k] if key in channels else rest
        tr.Set(Vt.Vec3fArray([Gf.Vec3f(*map(float, value(j, "translation", nodes[j].get("translation", [0, 0, 0])))) for j in skin["joints"]]), code)
        rot.Set(Vt.QuatfArray([Gf.Quatf(float(q[3]), float(q[0]), float(q[1]), float(q[2]))
                               for q in (value(j, "rotation", nodes[j].get("rotation", [0, 0, 0, 1])) for j in skin["joints"])]), code)
        sc.Set(Vt.Vec3hArray([Gf.Vec3h(*map(float, value(j, "scale", nodes[j].get("scale", [1, 1, 1])))) for j in skin["joints"]]), code)
    stage.SetStartTimeCode(round(float(times[0]) * 24, 6))
    stage.SetEndTimeCode(round(float(times[-1]) * 24, 6))
    binding = UsdSkel.BindingAPI.Apply(skel.GetPrim())
    binding.CreateAnimationSourceRel().SetTargets([anim.GetPrim().GetPath()])

    skinned = next(i for i, n in enumerate(nodes) if "skin" in n)
    mesh, prim = mesh_prim(stage, "/Armature/" + nodes[skinned]["name"], doc, read, nodes[skinned]["mesh"])
    mb = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    mb.CreateSkeletonRel().SetTargets([skel.GetPrim().GetPath()])
    ji, width = read(prim["attributes"]["JOINTS_0"])
    jw, _ = read(prim["attributes"]["WEIGHTS_0"])
    mb.CreateJointIndicesPrimvar(False, width).Set(Vt.IntArray.FromBuffer(array.array("i", ji)))
    mb.CreateJointWeightsPrimvar(False, width).Set(Vt.FloatArray.FromBuffer(jw))
    mb.CreateGeomBindTransformAttr(Gf.Matrix4d(1))
    for i, n in enumerate(nodes):
        if "mesh" in n and "skin" not in n:
            mesh_prim(stage, "/" + n["name"], doc, read, n["mesh"])
    stage.GetRootLayer().Save()
    print(f"{out}: {len(joints)} joints, {len(times)} time codes")


if __name__ == "__main__":
    main()
