#!/usr/bin/env python3
"""Checks a .usda layer rigscope wrote over a USD input, opened in usd-core (the venv's python).

    usd_output_check.py LAYER INPUT TENSION.csv [--codes-per-frame R] [--color maps]
    usd_output_check.py LAYER INPUT --points-only [--baked]

- the layer's stage opens, its root layer sublayers INPUT (resolved from the layer's folder) and
  restates the input stage's metersPerUnit, upAxis and time codes per second;
- every mesh of the CSV has primvars:rigscope:tension, :compress and :stretch (float[]) and
  primvars:displayColor (color3f[]), each of vertex interpolation, time-sampled at each CSV
  frame's time code (frame x R; R = 1 at the file's own rate) with exactly the CSV's numbers
  (both are the shortest text of the same float) as USD resolves them (ComputeFlattened: any
  index array applied; meshes below an instance as their instance proxies show them), and
  displayColor is (compress, stretch, 0) with --color maps;
- UsdValidation (usd-core's successor of UsdUtils.ComplianceChecker, which this usd-core no
  longer ships) reports no error on the layer's stage; with --baked (points baked, SkelRoots
  retyped) only the SkelBindingAPI errors UsdSkel.BakeSkinning's own result of INPUT has, and
  no Mesh with time-sampled points is left under a SkelRoot.
"""
import csv
import os
import struct
import sys
from collections import defaultdict

from pxr import Sdf, Usd, UsdGeom, UsdValidation


def f32(text):
    """The float the text stands for, as USD's float[] holds it (Python floats are doubles)."""
    return struct.unpack("f", struct.pack("f", float(text)))[0]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def validation_errors(stage):
    ctx = UsdValidation.ValidationContext(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())
    return [e for e in ctx.Validate(stage) if e.GetType() == UsdValidation.ValidationErrorType.Error]


def main():
    args = sys.argv[1:]
    layer_path, input_path = args[0], args[1]
    rate = float(args[args.index("--codes-per-frame") + 1]) if "--codes-per-frame" in args else 1.0
    stage = Usd.Stage.Open(layer_path)
    if stage is None:
        fail(f"usd-core cannot open {layer_path}")
    root = stage.GetRootLayer()
    subs = list(root.subLayerPaths)
    if len(subs) != 1:
        fail(f"{layer_path} sublayers {subs}, not the input alone")
    resolved = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(layer_path)), subs[0]))
    if resolved != os.path.normpath(os.path.abspath(input_path)):
        fail(f"the sublayer {subs[0]} resolves to {resolved}, not {input_path}")
    if subs[0].startswith("/"):
        fail(f"the sublayer {subs[0]} is not relative to the output")
    source = Usd.Stage.Open(input_path)
    for what, a, b in (("metersPerUnit", UsdGeom.GetStageMetersPerUnit(stage), UsdGeom.GetStageMetersPerUnit(source)),
                       ("upAxis", UsdGeom.GetStageUpAxis(stage), UsdGeom.GetStageUpAxis(source)),
                       ("timeCodesPerSecond", stage.GetTimeCodesPerSecond(), source.GetTimeCodesPerSecond())):
        if a != b:
            fail(f"{what} is {a} in the layer's stage, {b} in the input's")
    errors = [e.GetMessage() for e in validation_errors(stage)]
    if "--baked" in args:
        # Baked points retype the SkelRoots as Xforms, as UsdSkel.BakeSkinning does, and the
        # SkelBindingAPI its prims keep is then reported. The same errors as BakeSkinning's own
        # result of the input are allowed, no other.
        from pxr import Gf, UsdSkel
        # No baked Mesh is left under a SkelRoot, where UsdSkel would take its points as rest
        # points to skin.
        for prim in stage.Traverse():
            if prim.IsA(UsdGeom.Mesh) and prim.GetAttribute("points").GetNumTimeSamples() and UsdSkel.Root.Find(prim):
                fail(f"{prim.GetPath()} has baked points under SkelRoot {UsdSkel.Root.Find(prim).GetPath()}")
        # BakeSkinning writes into the stage's edit target: an anonymous root layer that
        # sublayers the input (by its absolute path, so the input's own relative references
        # still resolve against its folder) keeps the input's file and layers untouched. An
        # instance is made an ordinary prim there first: BakeSkinning refuses instanced SkelRoots.
        root = Sdf.Layer.CreateAnonymous(".usda")
        root.subLayerPaths.append(os.path.abspath(input_path))
        baked = Usd.Stage.Open(root)
        holding = [p for p in baked.Traverse(Usd.TraverseInstanceProxies()) if p.IsInstance() and
                   any(q.IsA(UsdSkel.Root) for q in Usd.PrimRange(p, Usd.TraverseInstanceProxies()))]
        for path in [p.GetPath() for p in holding]:
            baked.GetPrimAtPath(path).SetInstanceable(False)
        UsdSkel.BakeSkinning(baked.Traverse(), Gf.Interval.GetFullInterval())
        allowed = {e.GetMessage() for e in validation_errors(baked) if "InvalidSkelBindingAPIApply" in e.GetIdentifier()}
        if not allowed:
            fail("BakeSkinning's result of the input has no SkelBindingAPI errors to compare with")
        errors = [e for e in errors if e not in allowed]
    if errors:
        fail("UsdValidation: " + "; ".join(errors))
    if "--points-only" in args:
        print(f"usd_output_check: {layer_path} opens over {subs[0]}, no validation errors")
        return

    rows = defaultdict(lambda: defaultdict(dict))  # mesh -> code -> vertex -> (t, c, s)
    bind = defaultdict(dict)
    with open(args[2]) as f:
        r = csv.reader(f)
        header = next(r)
        if header[:7] != ["frame", "time", "mesh", "vertex", "t", "compress", "stretch"]:
            fail(f"unexpected CSV header {header}")
        for row in r:
            values = tuple(f32(x) for x in row[4:7])
            if row[0] == "bind":
                bind[row[2]][int(row[3])] = values
            else:
                rows[row[2]][float(row[0]) * rate][int(row[3])] = values
    # Instance proxies too: a mesh left below an instance is found, and shows what USD resolves
    # there (the prototype's primvars, not the layer's).
    meshes = {p.GetName(): p for p in stage.Traverse(Usd.TraverseInstanceProxies()) if p.IsA(UsdGeom.Mesh)}
    checked = 0
    for name in set(rows) | set(bind):
        prim = meshes.get(name)
        if prim is None:
            fail(f"no Mesh {name} in the layer's stage")
        api = UsdGeom.PrimvarsAPI(prim)
        series = {}
        for k, (pv, type_name) in enumerate((("rigscope:tension", Sdf.ValueTypeNames.FloatArray),
                                             ("rigscope:compress", Sdf.ValueTypeNames.FloatArray),
                                             ("rigscope:stretch", Sdf.ValueTypeNames.FloatArray),
                                             ("displayColor", Sdf.ValueTypeNames.Color3fArray))):
            var = api.GetPrimvar(pv)
            if not var or not var.IsDefined():
                fail(f"{name} has no primvars:{pv}")
            if var.GetInterpolation() != UsdGeom.Tokens.vertex:
                fail(f"{name}'s primvars:{pv} has interpolation {var.GetInterpolation()}")
            if var.GetTypeName() != type_name:
                fail(f"{name}'s primvars:{pv} is {var.GetTypeName()}, not {type_name}")
            series[pv] = var
        codes = sorted(rows[name])
        samples = series["rigscope:tension"].GetAttr().GetTimeSamples()
        if [float(c) for c in samples] != codes:
            fail(f"{name}'s time samples {samples} are not the CSV frames' codes {codes}")
        points = len(prim.GetAttribute("points").Get())
        for code in codes + (["bind"] if name in bind else []):
            want = bind[name] if code == "bind" else rows[name][code]
            at = Usd.TimeCode.Default() if code == "bind" else Usd.TimeCode(code)
            # What USD resolves, indices applied: an index array left under the written values
            # (an indexed constant colour of the input) would show one colour, not the map.
            got = [series[pv].ComputeFlattened(at) for pv in ("rigscope:tension", "rigscope:compress", "rigscope:stretch")]
            colour = series["displayColor"].ComputeFlattened(at)
            for arr in got + [colour]:
                if len(arr) != points:
                    fail(f"{name} at {code}: {len(arr)} values for {points} points")
            if len(want) != points:
                fail(f"{name} at {code}: the CSV has {len(want)} rows for {points} points")
            for v, (t, c, s) in want.items():
                if (got[0][v], got[1][v], got[2][v]) != (t, c, s):
                    fail(f"{name} at {code}, point {v}: primvars {got[0][v]}, {got[1][v]}, {got[2][v]}, the CSV {t}, {c}, {s}")
                if "--color" in args and args[args.index("--color") + 1] == "maps" and tuple(colour[v]) != (c, s, 0.0):
                    fail(f"{name} at {code}, point {v}: displayColor {tuple(colour[v])}, not (compress, stretch, 0)")
                checked += 1
    print(f"usd_output_check: {checked} point values equal the CSV's, no validation errors")


if __name__ == "__main__":
    main()
