#!/usr/bin/env python3
"""The oracle of rigscope's USD reader: each Mesh's points in world space, in metres, at every time
code, as OpenUSD evaluates them.

    bake_oracle.py FILE OUT.json [--baked] [--step S]

Without --baked the stage is skinned by UsdSkel.BakeSkinning (in memory: the file is never
written; an instance holding a SkelRoot is first made an ordinary prim in the session layer, since BakeSkinning
refuses to bake an instanced SkelRoot and the prims it composes are the same); with --baked the file's own points are read (a baseline that BakeSkinning wrote, such as
the corpus's lbs.baked.usda). Points are taken to world space with the Mesh's
ComputeLocalToWorldTransform and scaled by the stage's metersPerUnit, as rigscope reports them.
Time codes: startTimeCode..endTimeCode when authored, else the span of the stage's samples, every
S time codes (default 1: --step 0.5 adds the codes halfway, where UsdAttribute::Get interpolates).
Runs in the usd-core venv that scripts/setup.sh makes (build/usd-venv).
"""
import json
import sys

from pxr import Gf, Usd, UsdGeom, UsdSkel


def time_codes(stage, step):
    if stage.HasAuthoredTimeCodeRange():
        start, end = stage.GetStartTimeCode(), stage.GetEndTimeCode()
    else:
        times = set()
        for prim in stage.Traverse():
            for attr in prim.GetAttributes():
                times.update(attr.GetTimeSamples())
        if not times:
            return [0.0]
        start, end = min(times), max(times)
    out, t = [], start
    while t <= end + 1e-9:
        out.append(t)
        t += step
    return out


def main():
    path, out_path = sys.argv[1], sys.argv[2]
    baked = "--baked" in sys.argv[3:]
    step = float(sys.argv[sys.argv.index("--step") + 1]) if "--step" in sys.argv else 1.0
    stage = Usd.Stage.Open(path)
    if stage is None:
        sys.exit(f"bake_oracle: usd-core cannot open {path}")
    codes = time_codes(stage, step)
    if not baked:
        # BakeSkinning refuses an instanced SkelRoot (it would write into the shared prototype).
        # An instance with no opinion of its own below it composes the same prims as the
        # ordinary prim it stands for, so each instance holding a SkelRoot is made ordinary in
        # the stage's session layer (the file is never written) and then baked. (One with its
        # own opinions below it would change: rigscope refuses to write outputs there.)
        stage.SetEditTarget(stage.GetSessionLayer())
        holding = [p for p in stage.Traverse(Usd.TraverseInstanceProxies()) if p.IsInstance() and
                   any(q.IsA(UsdSkel.Root) for q in Usd.PrimRange(p, Usd.TraverseInstanceProxies()))]
        for path in [p.GetPath() for p in holding]:
            stage.GetPrimAtPath(path).SetInstanceable(False)
        stage.SetEditTarget(stage.GetRootLayer())
        interval = Gf.Interval(codes[0], codes[-1])
        if not UsdSkel.BakeSkinning(stage.Traverse(), interval):
            sys.exit(f"bake_oracle: UsdSkel.BakeSkinning failed on {path}")
    mpu = UsdGeom.GetStageMetersPerUnit(stage)
    meshes = {}
    # Instance proxies too: the prims of an instanceable prim are its prototype's, which a reader
    # that composes (rigscope) reports as the instance's own.
    for prim in stage.Traverse(Usd.TraverseInstanceProxies()):
        if not prim.IsA(UsdGeom.Mesh):
            continue
        mesh = UsdGeom.Mesh(prim)
        frames = {}
        for t in codes:
            world = mesh.ComputeLocalToWorldTransform(t)
            pts = mesh.GetPointsAttr().Get(t)
            frames[repr(t)] = [[c * mpu for c in world.Transform(Gf.Vec3d(p))] for p in pts]
        meshes[prim.GetName()] = frames
    with open(out_path, "w") as f:
        json.dump({"metersPerUnit": mpu, "upAxis": UsdGeom.GetStageUpAxis(stage),
                   "timeCodes": codes, "meshes": meshes}, f)


if __name__ == "__main__":
    main()
