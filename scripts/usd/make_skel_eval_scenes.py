#!/usr/bin/env python3
"""Writes the USD scenes of tests/cli/usd/usd_skel_eval.sh with usd-core's own API: one scene per rule
of how OpenUSD evaluates a skeleton or a transform stack, each built so that a reader that departs
from the rule is visibly off between or at the samples (the comment of each scene says how).

    make_skel_eval_scenes.py OUTDIR

The oracle for every scene is OpenUSD itself (scripts/usd/bake_oracle.py: UsdSkel.BakeSkinning and
UsdGeom's ComputeLocalToWorldTransform at every time code); nothing here states an expected
position. Runs in the usd-core venv (build/usd-venv).
"""
import math
import os
import sys

from pxr import Gf, Usd, UsdGeom, UsdSkel, Vt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scenes import bind, linear_weights, new_stage, tube  # noqa: E402


def skel_of(stage, path, joints, rest, bind_xforms=None):
    skel = UsdSkel.Skeleton.Define(stage, path)
    skel.CreateJointsAttr(joints)
    skel.CreateRestTransformsAttr(rest)
    if bind_xforms is None:  # bind = rest, composed down the topology UsdSkel computes
        topo = UsdSkel.Topology(joints)
        bind_xforms = Vt.Matrix4dArray(len(joints))
        for i in range(len(joints)):
            p = topo.GetParent(i)
            bind_xforms[i] = rest[i] * bind_xforms[p] if p >= 0 else rest[i]
    skel.CreateBindTransformsAttr(bind_xforms)
    return skel


def translate(x, y=0.0, z=0.0):
    return Gf.Matrix4d(1).SetTranslate(Gf.Vec3d(x, y, z))


def scene_no_joints(path):
    """A Skeleton with no joints at all (its `joints` unauthored), bound to a mesh only for its
    blend shapes, as Pixar's blendshapes.usda is written: the SkelAnimation's weights, sampled at 1,
    6 and 12, drive a dense shape and a sparse one. A reader that refuses a jointless skeleton
    fails; one that ignores the shapes is off at every code past 1."""
    stage = new_stage(path, 1, 12)
    UsdSkel.Root.Define(stage, "/Face")
    skel = UsdSkel.Skeleton.Define(stage, "/Face/Skel")
    mesh, pts, *_ = tube(stage, "/Face/Head", rings=4, sides=6, length=2.0)
    api = UsdSkel.BindingAPI.Apply(mesh.GetPrim())
    api.CreateSkeletonRel().SetTargets([skel.GetPath()])
    swell = UsdSkel.BlendShape.Define(stage, "/Face/Head/Swell")
    swell.CreateOffsetsAttr([Gf.Vec3f(0.1 * p[0], 0.3 * p[1], 0.3 * p[2]) for p in pts])
    tip = UsdSkel.BlendShape.Define(stage, "/Face/Head/Tip")
    tip.CreateOffsetsAttr([Gf.Vec3f(0.4, 0.5, 0)] * 6)
    tip.CreatePointIndicesAttr(list(range(len(pts) - 6, len(pts))))
    api.CreateBlendShapesAttr(["swell", "tip"])
    api.CreateBlendShapeTargetsRel().SetTargets([swell.GetPath(), tip.GetPath()])
    anim = UsdSkel.Animation.Define(stage, "/Face/Skel/Anim")
    anim.CreateBlendShapesAttr(["tip", "swell"])
    w = anim.CreateBlendShapeWeightsAttr()
    for t, a, b in [(1, 0.0, 0.0), (6, 1.0, 0.25), (12, 0.3, 1.2)]:
        w.Set(Vt.FloatArray([a, b]), t)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.Save()


def scene_ancestor_parent(path):
    """A joint whose parent path is not in the list: `Hips/Spine/Chest/Clavicle/Arm` with neither
    `.../Chest` nor `.../Clavicle` listed. UsdSkelTopology makes `Hips/Spine` its parent, so the arm
    follows the spine's bend and its rest transform is relative to the spine; a reader that makes
    it a root (or its path's direct parent) puts the arm elsewhere at every code."""
    stage = new_stage(path, 1, 10)
    UsdSkel.Root.Define(stage, "/Rig")
    joints = ["Hips", "Hips/Spine", "Hips/Spine/Chest/Clavicle/Arm"]
    rest = Vt.Matrix4dArray([translate(0), translate(1.0), translate(1.0)])
    skel = skel_of(stage, "/Rig/Skel", joints, rest)
    mesh, pts, *_ = tube(stage, "/Rig/Body", rings=6, sides=8, length=3.0)
    idx, w = linear_weights(pts, 3.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    anim = UsdSkel.Animation.Define(stage, "/Rig/Skel/Anim")
    anim.CreateJointsAttr(joints)
    tr, ro, sc = anim.CreateTranslationsAttr(), anim.CreateRotationsAttr(), anim.CreateScalesAttr()
    for t in range(1, 11):
        u = (t - 1) / 9
        tr.Set(Vt.Vec3fArray([Gf.Vec3f(0, 0, 0), Gf.Vec3f(1, 0, 0), Gf.Vec3f(1, 0.2 * u, 0)]), t)
        ro.Set(Vt.QuatfArray([Gf.Quatf(1, 0, 0, 0),
                              Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 0, 1), 70 * u).GetQuat()),
                              Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 1, 0), 30 * u).GetQuat())]), t)
        sc.Set(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1)] * 3), t)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.Save()


def scene_half_scales(path):
    """A SkelAnimation sampled at 1 and 13 only, so UsdAttribute::Get interpolates every code between:
    its half3 scales as USD does it, in half precision (each product and the sum rounded to half),
    about 5e-4 of the value away from a double interpolation; its quatf rotations written with four
    decimals (a text exporter's rounding: not of unit length), which OpenUSD slerps and turns into a
    matrix without normalising; its translations in float. A reader that interpolates in double or
    normalises the quaternions is off by 1e-4 of the diagonal or more."""
    stage = new_stage(path, 1, 13)
    UsdSkel.Root.Define(stage, "/Rig")
    joints = ["a", "a/b", "a/b/c"]
    rest = Vt.Matrix4dArray([translate(0), translate(1.5), translate(1.5)])
    skel = skel_of(stage, "/Rig/Skel", joints, rest)
    mesh, pts, *_ = tube(stage, "/Rig/Tube", rings=6, sides=8, length=3.0)
    idx, w = linear_weights(pts, 3.0, 3)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    anim = UsdSkel.Animation.Define(stage, "/Rig/Skel/Anim")
    anim.CreateJointsAttr(joints)
    tr, ro, sc = anim.CreateTranslationsAttr(), anim.CreateRotationsAttr(), anim.CreateScalesAttr()

    def rounded_quat(axis, degrees):
        q = Gf.Rotation(Gf.Vec3d(*axis), degrees).GetQuat()
        i = q.GetImaginary()
        return Gf.Quatf(round(q.GetReal(), 4), Gf.Vec3f(round(i[0], 4), round(i[1], 4), round(i[2], 4)))

    for t, u in [(1, 0.0), (13, 1.0)]:
        tr.Set(Vt.Vec3fArray([Gf.Vec3f(0.1 * u, 0, 0), Gf.Vec3f(1.5, 0.05 * u, 0), Gf.Vec3f(1.5, 0, 0)]), t)
        ro.Set(Vt.QuatfArray([rounded_quat((0, 0, 1), 10 + 50 * u), rounded_quat((0, 1, 1), 35 * u),
                              rounded_quat((1, 0, 0), 80 * u)]), t)
        sc.Set(Vt.Vec3hArray([Gf.Vec3h(1 + 0.731 * u, 1 - 0.377 * u, 1 + 0.613 * u),
                              Gf.Vec3h(1.0 + 0.917 * u, 1.0 + 0.291 * u, 1.0 - 0.333 * u),
                              Gf.Vec3h(1.9 - 0.811 * u, 1.0, 1.3)]), t)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    stage.Save()


def scene_matrix_op(path):
    """A time-sampled xformOp:transform on the Xform above a skinned rig and above an unskinned
    mesh, sampled at 1 and 11 a quarter turn apart: USD interpolates the matrix element by element
    (the rig shrinks towards the middle code), which no translate/rotate/scale interpolation gives.
    Its other samples, at 11 and 21, add a shear that the Xform carries in its own matrix."""
    stage = new_stage(path, 1, 21)
    mover = UsdGeom.Xform.Define(stage, "/Mover")
    op = mover.AddTransformOp()
    sheared = Gf.Matrix4d(1.0, 0.4, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0.5, 0, 0, 1)
    op.Set(translate(0, 0, 0), 1)
    op.Set(Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(0, 0, 1), 90)).SetTranslateOnly(Gf.Vec3d(1, 2, 0)), 11)
    op.Set(sheared * Gf.Matrix4d(1).SetRotate(Gf.Rotation(Gf.Vec3d(1, 0, 0), 60)), 21)
    UsdSkel.Root.Define(stage, "/Mover/Rig")
    joints = ["a", "a/b"]
    skel = skel_of(stage, "/Mover/Rig/Skel", joints, Vt.Matrix4dArray([translate(0), translate(1.5)]))
    mesh, pts, *_ = tube(stage, "/Mover/Rig/Tube", rings=4, sides=6, length=3.0)
    idx, w = linear_weights(pts, 3.0, 2)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    prop = UsdGeom.Xform.Define(stage, "/Mover/Prop")
    prop.AddTranslateOp().Set(Gf.Vec3d(0, -1, 0))
    tube(stage, "/Mover/Prop/Box", rings=1, sides=4, length=0.5, radius=0.3)
    stage.Save()


def scene_euler_ops(path):
    """Time-sampled rotateXYZ and scale ops with large steps between samples (1, 9, 17): USD
    interpolates each op's own values (the angles, 0 to 270 degrees about Z, and a scale that goes
    through a mirror) and composes the ops at the time; keys of translate/rotate/scale slerp the
    short way and lerp a mirror's decomposition, and are off between the samples."""
    stage = new_stage(path, 1, 17)
    arm = UsdGeom.Xform.Define(stage, "/Arm")
    t_op, r_op, s_op = arm.AddTranslateOp(), arm.AddRotateXYZOp(), arm.AddScaleOp(precision=UsdGeom.XformOp.PrecisionFloat)
    for t, tx, angles, s in [(1, 0, (0, 0, 0), (1, 1, 1)), (9, 1, (30, 10, 270), (-1, 1.5, 1)), (17, 2, (0, 40, 200), (1, 1, 0.5))]:
        t_op.Set(Gf.Vec3d(tx, 0, 0), t)
        r_op.Set(Gf.Vec3f(*angles), t)
        s_op.Set(Gf.Vec3f(*s), t)
    tube(stage, "/Arm/Box", rings=2, sides=4, length=1.0, radius=0.3)
    stage.Save()


def scene_shear_stack(path):
    """xformOp stacks that shear: a rotation followed by a non-uniform scale (xformOpOrder scale,
    rotateZ: the point is rotated first), animated on the rotation (sampled at 1, 5 and 9), above a skinned rig; and a
    mirrored, unevenly scaled parent above a child rotated by an orient op. Translate/rotate/scale
    cannot hold the first Xform's matrix at any code but 1; the hierarchy's world matrix is a
    product of plain ones."""
    stage = new_stage(path, 1, 9)
    squash = UsdGeom.Xform.Define(stage, "/Squash")
    squash.AddTranslateOp().Set(Gf.Vec3d(0.5, 0, 0))
    squash.AddScaleOp().Set(Gf.Vec3f(1.0, 2.5, 0.5))
    rz = squash.AddRotateZOp()
    rz.Set(0.0, 1)
    rz.Set(50.0, 5)
    rz.Set(120.0, 9)
    UsdSkel.Root.Define(stage, "/Squash/Rig")
    joints = ["a", "a/b"]
    skel = skel_of(stage, "/Squash/Rig/Skel", joints, Vt.Matrix4dArray([translate(0), translate(1.5)]))
    mesh, pts, *_ = tube(stage, "/Squash/Rig/Tube", rings=4, sides=6, length=3.0)
    idx, w = linear_weights(pts, 3.0, 2)
    bind(mesh.GetPrim(), skel, idx, w, 2)
    anim = UsdSkel.Animation.Define(stage, "/Squash/Rig/Skel/Anim")
    anim.CreateJointsAttr(joints)
    tr, ro, sc = anim.CreateTranslationsAttr(), anim.CreateRotationsAttr(), anim.CreateScalesAttr()
    for t in range(1, 10):  # the joints turn too, so a rivet on the tube has frames to fit
        u = (t - 1) / 8
        tr.Set(Vt.Vec3fArray([Gf.Vec3f(0, 0, 0), Gf.Vec3f(1.5, 0, 0)]), t)
        ro.Set(Vt.QuatfArray([Gf.Quatf(Gf.Rotation(Gf.Vec3d(0, 1, 1), 40 * u * u).GetQuat()),
                              Gf.Quatf(Gf.Rotation(Gf.Vec3d(1, 0, 1), 60 * u).GetQuat())]), t)
        sc.Set(Vt.Vec3hArray([Gf.Vec3h(1, 1, 1)] * 2), t)
    UsdSkel.BindingAPI.Apply(skel.GetPrim()).CreateAnimationSourceRel().SetTargets([anim.GetPath()])
    mirror = UsdGeom.Xform.Define(stage, "/Mirror")
    mirror.AddScaleOp().Set(Gf.Vec3f(-1, 2, 1))
    child = UsdGeom.Xform.Define(stage, "/Mirror/Child")
    child.AddTranslateOp().Set(Gf.Vec3d(0, 1, 0))
    child.AddOrientOp().Set(Gf.Quatf(Gf.Rotation(Gf.Vec3d(1, 1, 0), 50).GetQuat()))
    child.AddScaleOp().Set(Gf.Vec3f(1, 0.5, 2))
    tube(stage, "/Mirror/Child/Box", rings=2, sides=4, length=1.0, radius=0.3)
    stage.Save()


SCENES = {
    "no_joints": scene_no_joints,
    "ancestor_parent": scene_ancestor_parent,
    "half_scales": scene_half_scales,
    "matrix_op": scene_matrix_op,
    "euler_ops": scene_euler_ops,
    "shear_stack": scene_shear_stack,
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    only = sys.argv[2:] or list(SCENES)
    for name in only:
        text = os.path.join(out, name + ".usda")
        if os.path.exists(text):
            os.remove(text)
        SCENES[name](text)
        Usd.Stage.Open(text).Export(os.path.join(out, name + ".usdc"))


if __name__ == "__main__":
    main()
