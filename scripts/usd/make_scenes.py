#!/usr/bin/env python3
"""Writes the crafted USD scenes of rigscope's USD tests with usd-core's own API, each with a
stated purpose (below), as text layers (.usda) and, with --usdc, binary crate layers too.

    make_scenes.py OUTDIR [--usdc]

The oracle for every scene is OpenUSD itself (scripts/usd/bake_oracle.py: UsdSkel.BakeSkinning);
nothing here states an expected position. Runs in the usd-core venv (build/usd-venv).
"""
import math
import os
import sys

from pxr import Gf, Sdf, Usd, UsdGeom, UsdSkel, Vt


def tube(stage, path, rings=6, sides=8, length=3.0, radius=0.4, axis="x"):
    """A quad tube along +x (or +y) from 0 to `length`: the skinned test mesh."""
    mesh = UsdGeom.Mesh.Define(stage, path)
    points, counts, indices = [], [], []
    for r in range(rings + 1):
        along = length * r / rings
        for s in range(sides):
            a = 2 * math.pi * s / sides
            u, v = radius * math.cos(a), radius * math.sin(a)
            points.append(Gf.Vec3f(along, u, v) if axis == "x" else Gf.Vec3f(u, along, v))
    for r in range(rings):
        for s in range(sides):
            a, b = r * sides + s, r * sides + (s + 1) % sides
            counts.append(4)
            indices += [a, b, b + sides, a + sides]
    mesh.CreatePointsAttr(points)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    return mesh, points, rings, sides, length


def chain(stage, path, names, spacing):
    """A Skeleton of joints in a row along +x, `spacing` apart: bind = rest."""
    skel = UsdGeom.Xform  # noqa: F841 (the schema module is UsdSkel)
    skel = UsdSkel.Skeleton.Define(stage, path)
    skel.CreateJointsAttr(names)
    rest, bind = [], []
    for i, n in enumerate(names):
        depth = n.count("/")
        rest.append(Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(spacing if depth else 0, 0, 0)))
        bind.append(Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(spacing * depth, 0, 0)))
    skel.CreateRestTransformsAttr(rest)
    skel.CreateBindTransformsAttr(bind)
    return skel


def linear_weights(points, length, joints):
    """Two influences per point, blending the neighbouring joints along x."""
    idx, w = [], []
    for p in points:
        f = min(max(p[0] / length * (joints - 1), 0), joints - 1 - 1e-6)
        j = int(f)
        t = f - j
        idx += [j, j + 1]
        w += [1 - t, t]
    return idx, w


def bind(mesh_prim, skel, idx, w, k, interpolation="vertex", joints=None, geom=None):
    api = UsdSkel.BindingAPI.Apply(mesh_prim)
    api.CreateSkeletonRel().SetTargets([skel.GetPath()])
    api.CreateJointIndicesPrimvar(interpolation == "constant", k).Set(idx)
    api.CreateJointWeightsPrimvar(interpolation == "constant", k).Set(w)
    if joints is not None:
        api.CreateJointsAttr(joints)
    if geom is not None:
        api.CreateGeomBindTransformAttr(geom)
    return api


def animate(stage, path, skel, joints, frames, rot_axis=(0, 0, 1), degrees=40, scale=None, translate=None):
    anim = UsdSkel.Animation.Define(stage, path)
    anim.CreateJointsAttr(joints)
    t_attr, r_attr, s_attr = anim.CreateTranslationsAttr(), anim.CreateRotationsAttr(), anim.CreateScalesAttr()
    rest = dict(zip(skel.GetJointsAttr().Get(), skel.GetRestTransformsAttr().Get()))
    for f in frames:
        u = (f - frames[0]) / max(frames[-1] - frames[0], 1)
        ts, rs, ss = [], [], []
        for i, j in enumerate(joints):
            base = rest[j].ExtractTranslation()
            if translate and i == 0:
                base = base + Gf.Vec3d(*translate) * u
            ts.append(Gf.Vec3f(base))
            rs.append(Gf.Quatf(Gf.Rotation(Gf.Vec3d(*rot_axis), degrees * u * (1 + 0.3 * i)).GetQuat()))
            s = 1.0 + (scale - 1.0) * u if scale else 1.0
            ss.append(Gf.Vec3h(s, 1.0 / s if scale else 1.0, 1.0))
        t_attr.Set(Vt.Vec3fArray(ts), f)
        r_attr.Set(Vt.QuatfArray(rs), f)
        s_attr.Set(Vt.Vec3hArray(ss), f)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    return anim


def new_stage(path, start=1, end=12, up="Y", mpu=None, tcps=24):
    stage = Usd.Stage.CreateNew(path)
    stage.SetStartTimeCode(start)
    stage.SetEndTimeCode(end)
    stage.SetTimeCodesPerSecond(tcps)
    UsdGeom.SetStageUpAxis(stage, up)
    if mpu is not None:
        UsdGeom.SetStageMetersPerUnit(stage, mpu)
    return stage


JOINTS = ["a", "a/b", "a/b/c"]


def scene_linear(path):
    """Purpose: a three-joint chain bending and stretching (scales at half precision) over
    12 time codes, two influences per point: the baseline linear case."""
    stage = new_stage(path)
    root = UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    mesh, pts, *_ = tube(stage, "/Rig/Tube")
    idx, w = linear_weights(pts, 3.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    animate(stage, "/Rig/Skel/Anim", skel, JOINTS, list(range(1, 13)), scale=1.3)
    UsdSkel.BindingAPI.Apply(root.GetPrim())
    stage.Save()


def scene_rigid_remap(path):
    """Purpose: rigid (constant) influences and a mesh's own skel:joints order, with a
    geomBindTransform that moves the mesh into place: one box follows joint a/b/c alone, another
    is held half by a and half by a/b through a two-joint skel:joints list in reverse order."""
    stage = new_stage(path)
    UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    box, _, *_ = tube(stage, "/Rig/Box", rings=1, sides=4, length=0.5, radius=0.3)
    bind(box.GetPrim(), skel, [0], [1.0], 1, "constant", joints=["a/b/c"],
         geom=Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(3.0, 0.2, 0)))
    half, _, *_ = tube(stage, "/Rig/Half", rings=1, sides=4, length=0.5, radius=0.3)
    bind(half.GetPrim(), skel, [1, 0], [0.5, 0.5], 2, "constant", joints=["a/b", "a"],
         geom=Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(0, 1, 0), 30)).SetTranslateOnly(Gf.Vec3d(1.5, 0, 0)))
    animate(stage, "/Rig/Skel/Anim", skel, JOINTS, list(range(1, 13)))
    stage.Save()


def scene_sparse(path):
    """Purpose: a sparse animation in its own joint order (c before a, b not animated: its
    restTransform holds) bound through skel:animationSource on the SkelRoot, inherited by the
    Skeleton; binding properties inherited by the mesh from an ancestor Xform; sample times that
    differ between translations (2 samples), rotations (every time code) and scales (none: a
    default value)."""
    stage = new_stage(path, 0, 10)
    root = UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    group = UsdGeom.Xform.Define(stage, "/Rig/Group")
    mesh, pts, *_ = tube(stage, "/Rig/Group/Tube")
    idx, w = linear_weights(pts, 3.0, 3)
    gapi = UsdSkel.BindingAPI.Apply(group.GetPrim())
    gapi.CreateSkeletonRel().SetTargets([skel.GetPath()])
    gapi.CreateJointIndicesPrimvar(False, 2).Set(idx)
    gapi.CreateJointWeightsPrimvar(False, 2).Set(w)
    UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    anim = UsdSkel.Animation.Define(stage, "/Rig/Anim")
    anim.CreateJointsAttr(["a/b/c", "a"])
    anim.GetTranslationsAttr().Set(Vt.Vec3fArray([Gf.Vec3f(1.5, 0, 0), Gf.Vec3f(0, 0, 0)]), 0)
    anim.GetTranslationsAttr().Set(Vt.Vec3fArray([Gf.Vec3f(1.5, 0.5, 0), Gf.Vec3f(0, 1, 0)]), 10)
    for f in range(0, 11):
        anim.GetRotationsAttr().Set(Vt.QuatfArray([Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 1, 0), 9 * f).GetQuat()),
                                                   Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 0, 1), -6 * f).GetQuat())]), f)
    anim.GetScalesAttr().Set(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1), Gf.Vec3h(1, 1, 1)]))
    UsdSkel.BindingAPI.Apply(root.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.Save()


def scene_xformops(path):
    """Purpose: time-sampled xformOps of every kind above the skeleton and on an unskinned mesh
    (translate, rotateXYZ, rotateZYX, rotateX, orient, scale, transform, an inverted translate),
    with the skin at rest: the placement alone moves the points."""
    stage = new_stage(path, 1, 8)
    top = UsdGeom.Xform.Define(stage, "/World")
    ops = top.AddTranslateOp()
    rxyz = top.AddRotateXYZOp()
    sc = top.AddScaleOp()
    for f in range(1, 9):
        ops.Set(Gf.Vec3d(0.1 * f, 0.2, -0.05 * f), f)
        rxyz.Set(Gf.Vec3f(5 * f, -3 * f, 7 * f), f)
        sc.Set(Gf.Vec3f(1 + 0.05 * f, 1, 1 - 0.02 * f), f)
    root = UsdSkel.Root.Define(stage, "/World/Rig")
    rz = root.AddRotateZYXOp()
    rz.Set(Gf.Vec3f(10, 20, 30))
    skel = chain(stage, "/World/Rig/Skel", JOINTS, 1.5)
    orient = skel.AddOrientOp()
    for f in range(1, 9):
        orient.Set(Gf.Quatf(Gf.Rotation(Gf.Vec3d(1, 1, 0), 8 * f).GetQuat()), f)
    mesh, pts, *_ = tube(stage, "/World/Rig/Tube")
    idx, w = linear_weights(pts, 3.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    prop, *_ = tube(stage, "/World/Prop", rings=2, sides=4, length=1.0, radius=0.2)
    xf = UsdGeom.Xformable(prop.GetPrim())
    m = xf.AddTransformOp()
    rx = xf.AddRotateXOp()
    inv = xf.AddTranslateOp(opSuffix="pivot")
    xf.AddTranslateOp(opSuffix="pivot", isInverseOp=True)
    inv.Set(Gf.Vec3d(0.5, 0, 0))
    for f in range(1, 9):
        m.Set(Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(0, 0, 1), 4 * f)).SetTranslateOnly(Gf.Vec3d(2, f * 0.1, 0)), f)
        rx.Set(11.0 * f, f)
    stage.Save()


def scene_zup_cm(path):
    """Purpose: a Z-up stage in centimetres (metersPerUnit 0.01 authored) at 30 time codes per
    second: positions come out in metres and upAxis is reported."""
    stage = new_stage(path, 1, 10, up="Z", mpu=0.01, tcps=30)
    UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 50.0)
    mesh, pts, *_ = tube(stage, "/Rig/Tube", length=100.0, radius=12.0)
    idx, w = linear_weights(pts, 100.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    animate(stage, "/Rig/Skel/Anim", skel, JOINTS, list(range(1, 11)), rot_axis=(0, 1, 0), translate=(0, 0, 20))
    stage.Save()


def scene_metres_weights(path):
    """Purpose: a metre stage (metersPerUnit 1) whose joint weights do not sum to 1 (UsdSkel uses
    them as stored) with four influences per point, some of them zero, and framesPerSecond
    without timeCodesPerSecond."""
    stage = Usd.Stage.CreateNew(path)
    stage.SetStartTimeCode(1)
    stage.SetEndTimeCode(6)
    stage.SetFramesPerSecond(25)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    mesh, pts, *_ = tube(stage, "/Rig/Tube")
    idx2, w2 = linear_weights(pts, 3.0, 3)
    idx, w = [], []
    for i in range(len(pts)):
        a, b = idx2[2 * i:2 * i + 2], w2[2 * i:2 * i + 2]
        idx += [a[0], a[1], 0, 2]
        w += [b[0] * 0.9, b[1] * 0.9, 0.0, 0.15 if i % 3 == 0 else 0.0]
    bind(mesh.GetPrim(), skel, idx, w, 4)
    animate(stage, "/Rig/Skel/Anim", skel, JOINTS, list(range(1, 7)))
    stage.Save()


def cloth_points(points, t):
    """The cloth's points at time code t: a travelling wave, so every sample differs."""
    return Vt.Vec3fArray([Gf.Vec3f(p[0], p[1] + 0.3 * math.sin(1.7 * p[0] + 0.6 * t), p[2] * (1 + 0.04 * t)) for p in points])


def scene_points_cache(path):
    """Purpose: a point cache in USD: an unskinned Mesh whose points are time-sampled at uneven
    time codes (1, 2, 4, 7, 7.5, 12: the codes between are interpolated, one sample is not on a
    whole code) under a time-sampled translate, with faceVertexCounts and faceVertexIndices
    time-sampled too but the same at every sample (exporters write them per frame); beside it a
    skinned tube, so the stage holds both kinds of animated mesh."""
    stage = new_stage(path)
    top = UsdGeom.Xform.Define(stage, "/World")
    move = top.AddTranslateOp()
    for f in (1, 12):
        move.Set(Gf.Vec3d(0.05 * f, 0, -0.1 * f), f)
    cloth, pts, *_ = tube(stage, "/World/Cloth", rings=4, sides=6, length=2.0, radius=0.5)
    counts, indices = cloth.GetFaceVertexCountsAttr().Get(), cloth.GetFaceVertexIndicesAttr().Get()
    for t in (1, 2, 4, 7, 7.5, 12):
        cloth.GetPointsAttr().Set(cloth_points(pts, t), t)
    for t in (1, 12):
        cloth.GetFaceVertexCountsAttr().Set(counts, t)
        cloth.GetFaceVertexIndicesAttr().Set(indices, t)
    UsdSkel.Root.Define(stage, "/World/Rig")
    skel = chain(stage, "/World/Rig/Skel", JOINTS, 1.5)
    mesh, tpts, *_ = tube(stage, "/World/Rig/Tube")
    idx, w = linear_weights(tpts, 3.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    animate(stage, "/World/Rig/Skel/Anim", skel, JOINTS, list(range(1, 13)))
    stage.Save()


def scene_changing_points(path):
    """Refused: the cloth's points hold another number of points at time code 5 (a topology that
    changes over time)."""
    stage = new_stage(path)
    cloth, pts, *_ = tube(stage, "/Cloth", rings=2, sides=4)
    for t in (1, 3, 5, 8):
        cloth.GetPointsAttr().Set(cloth_points(pts if t != 5 else pts[:-4], t), t)
    stage.Save()


def scene_changing_faces(path):
    """Refused: the cloth's faceVertexIndices differ at time code 3.5 (its points are the same
    length throughout)."""
    stage = new_stage(path)
    cloth, pts, *_ = tube(stage, "/Cloth", rings=2, sides=4)
    indices = list(cloth.GetFaceVertexIndicesAttr().Get())
    for t in (1, 3.5, 8):
        cloth.GetPointsAttr().Set(cloth_points(pts, t), t)
        cloth.GetFaceVertexIndicesAttr().Set(indices if t != 3.5 else indices[1:] + indices[:1], t)
    stage.Save()


def scene_changing_counts(path):
    """Refused: the cloth's faceVertexCounts differ at time code 6 (a quad and its neighbour
    regrouped as a triangle and a pentagon: the same faceVertexIndices, the same points)."""
    stage = new_stage(path)
    cloth, pts, *_ = tube(stage, "/Cloth", rings=2, sides=4)
    counts = list(cloth.GetFaceVertexCountsAttr().Get())
    for t in (1, 6, 8):
        cloth.GetPointsAttr().Set(cloth_points(pts, t), t)
        cloth.GetFaceVertexCountsAttr().Set(counts if t != 6 else [3, 5] + counts[2:], t)
    stage.Save()


def scene_blend_shapes(path):
    """Purpose: blend shapes before skinning: a dense shape (every point), a sparse one
    (pointIndices) with two in-betweens, at 0.3 and 0.65, and a sparse one without; the
    animation lists its shapes in another order, with one the mesh does not have, and drives
    the weights through negative values and past 1 (the in-between rule's extrapolations) while
    the chain bends."""
    stage = new_stage(path)
    UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    mesh, pts, *_ = tube(stage, "/Rig/Tube")
    idx, w = linear_weights(pts, 3.0, 3)
    api = bind(mesh.GetPrim(), skel, idx, w, 2)
    bulge = UsdSkel.BlendShape.Define(stage, "/Rig/Tube/Bulge")
    bulge.CreateOffsetsAttr([Gf.Vec3f(0, 0.2 * p[1], 0.2 * p[2]) for p in pts])
    sparse = [i for i in range(len(pts)) if i % 3 == 0]
    pinch = UsdSkel.BlendShape.Define(stage, "/Rig/Tube/Pinch")
    pinch.CreatePointIndicesAttr(sparse)
    pinch.CreateOffsetsAttr([Gf.Vec3f(0.1, -0.3 * pts[i][1], -0.3 * pts[i][2]) for i in sparse])
    for name, weight, k in (("quarter", 0.3, 0.5), ("most", 0.65, -0.4)):
        ib = pinch.CreateInbetween(name)
        ib.SetWeight(weight)
        ib.SetOffsets([Gf.Vec3f(k * 0.2, 0.25 * pts[i][2], k * pts[i][1]) for i in sparse])
    tip_points = [i for i in range(len(pts)) if pts[i][0] > 2.4]
    tip = UsdSkel.BlendShape.Define(stage, "/Rig/Tube/Tip")
    tip.CreatePointIndicesAttr(tip_points)
    tip.CreateOffsetsAttr([Gf.Vec3f(0.3, 0.1, 0) for _ in tip_points])
    api.CreateBlendShapesAttr(["bulge", "pinch", "tip"])
    api.CreateBlendShapeTargetsRel().SetTargets([bulge.GetPath(), pinch.GetPath(), tip.GetPath()])
    anim = animate(stage, "/Rig/Skel/Anim", skel, JOINTS, list(range(1, 13)))
    anim.CreateBlendShapesAttr(["tip", "unused", "pinch", "bulge"])
    for f in range(1, 13, 2):
        u = (f - 1) / 11
        anim.CreateBlendShapeWeightsAttr().Set(Vt.FloatArray([1.5 - 2 * u, 0.7, -0.6 + 2.4 * u, math.sin(3 * u)]), f)
    stage.Save()


def scene_dual_quaternion(path):
    """Purpose: UsdSkel's dualQuaternion skinning with scaled and rotated joints. A three-joint
    chain twists about its length while its joints scale non-uniformly (half floats; c is
    mirrored, det < 0, throughout, which adds a half turn about x to its polar rotation) and
    bends. The twists put a and c more than a half turn apart while b lies between them, so a
    point's three rotations straddle the quaternion hemispheres and the sign rule's pivot (the
    heaviest influence, not the first) decides the result: signing against the first moves the
    tube by up to 0.9 of its diagonal.
    Tube: three influences per point, the heaviest not listed first, weights that sum to 0.96 on
    every fifth point (the scale is blended with them as stored), and a geomBindTransform that
    rotates, scales and moves the mesh (UsdSkel applies it before taking the joints apart).
    Box: constant (rigid) influences of two joints, which UsdSkel bakes as a skinned transform.
    Plain: a tube whose method is inherited from its SkelRoot's primvars:skel:skinningMethod."""
    stage = new_stage(path)
    root = UsdSkel.Root.Define(stage, "/Rig")
    skel = chain(stage, "/Rig/Skel", JOINTS, 1.5)
    mesh, pts, *_ = tube(stage, "/Rig/Tube", rings=8)
    idx, w = [], []
    for i, p in enumerate(pts):
        f = min(max(p[0] / 3.0 * 2, 0), 2 - 1e-6)
        j = int(f)
        t = f - j
        near = [(j, 1 - t), (j + 1, t)]
        third = 2 if j == 0 else 0
        ws = [0.8 * near[0][1] + 0.05, 0.8 * near[1][1] + 0.05, 0.1]
        if i % 5 == 0:
            ws = [x * 0.96 for x in ws]
        # The lightest first, so the first influence is not the pivot.
        order = sorted(range(3), key=lambda k: ws[k])
        js = [near[0][0], near[1][0], third]
        idx += [js[k] for k in order]
        w += [ws[k] for k in order]
    geom = Gf.Matrix4d(1).SetScale(Gf.Vec3d(1.1, 0.9, 1.2)) * \
        Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(0, 0, 1), 12)) * Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(0.1, -0.2, 0.05))
    api = bind(mesh.GetPrim(), skel, idx, w, 3, geom=geom)
    api.CreateSkinningMethodAttr(UsdSkel.Tokens.dualQuaternion)
    # As large as the tube: the scaled joints' poses carry about 2e-5 units of float error at
    # this distance from the origin (the linear scene's too), which a small box's diagonal
    # would magnify past 1e-5.
    box, _, *_ = tube(stage, "/Rig/Box", rings=2, sides=4, length=3.0, radius=0.5)
    bapi = bind(box.GetPrim(), skel, [1, 2], [0.35, 0.65], 2, "constant",
                geom=Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(0.1, 0.05, 0)))
    bapi.CreateSkinningMethodAttr(UsdSkel.Tokens.dualQuaternion)
    plain, ppts, *_ = tube(stage, "/Rig/Plain", rings=6, sides=6, radius=0.25)
    pidx, pw = linear_weights(ppts, 3.0, 3)
    bind(plain.GetPrim(), skel, pidx, pw, 2)
    UsdSkel.BindingAPI.Apply(root.GetPrim()).CreateSkinningMethodAttr(UsdSkel.Tokens.dualQuaternion)
    anim = UsdSkel.Animation.Define(stage, "/Rig/Skel/Anim")
    anim.CreateJointsAttr(JOINTS)
    rest = [m.ExtractTranslation() for m in skel.GetRestTransformsAttr().Get()]
    for f in range(1, 13):
        u = (f - 1) / 11
        twist = [5 * u, 115 * u, -60 * u]
        bend = [10 * u, 25 * u, -15 * u]
        rs = [Gf.Quatf((Gf.Rotation(Gf.Vec3d(1, 0, 0), twist[i]) * Gf.Rotation(Gf.Vec3d(0, 0, 1), bend[i])).GetQuat())
              for i in range(3)]
        ss = [Gf.Vec3h(1 + 0.3 * u, 1 - 0.2 * u, 1), Gf.Vec3h(1, 1 + 0.5 * u, 1 - 0.25 * u),
              Gf.Vec3h(-1.1 + 0.2 * u, 0.9, 1 + 0.4 * u)]
        anim.GetTranslationsAttr().Set(Vt.Vec3fArray([Gf.Vec3f(r) for r in rest]), f)
        anim.GetRotationsAttr().Set(Vt.QuatfArray(rs), f)
        anim.GetScalesAttr().Set(Vt.Vec3hArray(ss), f)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.Save()


SCENES = {
    "linear": scene_linear,
    "rigid_remap": scene_rigid_remap,
    "sparse": scene_sparse,
    "xformops": scene_xformops,
    "zup_cm": scene_zup_cm,
    "metres_weights": scene_metres_weights,
    "points_cache": scene_points_cache,
    "blend_shapes": scene_blend_shapes,
    "dual_quaternion": scene_dual_quaternion,
    "changing_points": scene_changing_points,
    "changing_faces": scene_changing_faces,
    "changing_counts": scene_changing_counts,
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in SCENES.items():
        text = os.path.join(out, name + ".usda")
        if os.path.exists(text):
            os.remove(text)
        make(text)
        if "--usdc" in sys.argv[2:]:
            Usd.Stage.Open(text).Export(os.path.join(out, name + ".usdc"))


if __name__ == "__main__":
    main()
