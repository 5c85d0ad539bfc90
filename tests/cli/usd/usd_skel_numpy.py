#!/usr/bin/env python3
"""A second evaluation of a skinned USD scene, in numpy, that checks usd-core's BakeSkinning (the
oracle of tests/cli/usd/usd_skel_eval.sh) on the interpolation rules rigscope follows.

    usd_skel_numpy.py dump SCENE.usda SAMPLES.json     (usd-core venv: the stored samples only)
    usd_skel_numpy.py check SAMPLES.json ORACLE.json   (Debian's python3 with numpy)

`dump` reads what the layer stores (each attribute at its own sample times: no interpolation) of
the scene's one Skeleton, its SkelAnimation and its one skinned Mesh. `check` evaluates every time
code of the oracle from those samples alone, as OpenUSD's sources say it does: translations
interpolated as float3 (each product rounded to float, then the sum), scales as half3 (the weight
rounded to float, each product and the sum rounded to half: numpy's float16), quaternions by
GfSlerp in float and made a matrix without normalising; joints parented to their nearest listed
ancestor; linear blend skinning by bind^-1 x skel-space. It passes when every point is within 1e-5
of the mesh's diagonal of the oracle's, and when a plain evaluation (double interpolation,
normalised quaternions) is not: the scene must tell the two apart, or it tests nothing.
"""
import json
import math
import sys


def dump(scene, out):
    from pxr import Usd, UsdGeom, UsdSkel

    stage = Usd.Stage.Open(scene)
    skel = next(UsdSkel.Skeleton(p) for p in stage.Traverse() if p.IsA(UsdSkel.Skeleton))
    source = UsdSkel.BindingAPI(skel.GetPrim()).GetAnimationSourceRel().GetTargets()[0]
    anim = UsdSkel.Animation(stage.GetPrimAtPath(source))
    mesh = next(p for p in stage.Traverse() if p.IsA(UsdGeom.Mesh))
    binding = UsdSkel.BindingAPI(mesh)

    def samples(attr, convert):
        return [[t, [convert(v) for v in attr.Get(t)]] for t in attr.GetTimeSamples()]

    def quat(q):
        i = q.GetImaginary()
        return [q.GetReal(), i[0], i[1], i[2]]

    data = {
        "joints": list(skel.GetJointsAttr().Get()),
        "rest": [[list(r) for r in m] for m in skel.GetRestTransformsAttr().Get()],
        "bind": [[list(r) for r in m] for m in skel.GetBindTransformsAttr().Get()],
        "animJoints": list(anim.GetJointsAttr().Get()),
        "translations": samples(anim.GetTranslationsAttr(), list),
        "rotations": samples(anim.GetRotationsAttr(), quat),
        "scales": samples(anim.GetScalesAttr(), list),
        "mesh": mesh.GetName(),
        "points": [list(p) for p in UsdGeom.Mesh(mesh).GetPointsAttr().Get()],
        "indices": list(binding.GetJointIndicesAttr().Get()),
        "weights": list(binding.GetJointWeightsAttr().Get()),
        "influences": binding.GetJointIndicesPrimvar().GetElementSize(),
        "metersPerUnit": UsdGeom.GetStageMetersPerUnit(stage),
    }
    with open(out, "w") as f:
        json.dump(data, f)


def check(samples_path, oracle_path):
    import numpy as np

    d = json.load(open(samples_path))
    oracle = json.load(open(oracle_path))
    f32, f16 = np.float32, np.float16

    def bracket(samples, t):
        times = [s[0] for s in samples]
        if t <= times[0]:
            return samples[0][1], samples[0][1], 0.0
        if t >= times[-1]:
            return samples[-1][1], samples[-1][1], 0.0
        k = next(i for i, x in enumerate(times) if x >= t)
        if times[k] == t:
            return samples[k][1], samples[k][1], 0.0
        return samples[k - 1][1], samples[k][1], (t - times[k - 1]) / (times[k] - times[k - 1])

    def lerp_float3(a, b, u):
        a, b = np.array(a, dtype=np.float64), np.array(b, dtype=np.float64)
        return ((a * (1 - u)).astype(f32) + (b * u).astype(f32)).astype(f32).astype(np.float64)

    def lerp_half3(a, b, u):
        a, b = np.array(a, dtype=f32), np.array(b, dtype=f32)
        x = (a * f32(1 - u)).astype(f16)
        y = (b * f32(u)).astype(f16)
        return (x.astype(f32) + y.astype(f32)).astype(f16).astype(np.float64)

    def slerp_quatf(a, b, u):
        a, b = np.array(a, dtype=f32), np.array(b, dtype=f32)
        cos = float(f32(a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) + f32(a[0] * b[0]))
        flip = cos < 0
        cos = abs(cos)
        s0, s1 = 1 - u, u
        if 1 - cos > 1e-5:
            theta = float(f32(math.acos(cos)))
            sin_theta = float(f32(math.sin(theta)))
            s0, s1 = math.sin((1 - u) * theta) / sin_theta, math.sin(u * theta) / sin_theta
        if flip:
            s1 = -s1
        return ((a.astype(np.float64) * s0).astype(f32) + (b.astype(np.float64) * s1).astype(f32)).astype(f32)

    def quat_matrix(q):  # GfMatrix3f(GfQuatf): no normalisation
        r, i, j, k = (f32(x) for x in q)
        return np.array([
            [1 - 2 * float(j * j + k * k), 2 * float(i * j + k * r), 2 * float(k * i - j * r)],
            [2 * float(i * j - k * r), 1 - 2 * float(k * k + i * i), 2 * float(j * k + i * r)],
            [2 * float(k * i + j * r), 2 * float(j * k - i * r), 1 - 2 * float(j * j + i * i)]])

    def plain_matrix(q):  # a normalised rotation, for the plain evaluation
        q = np.array(q, dtype=np.float64)
        return quat_matrix(q / np.linalg.norm(q))

    joints = d["joints"]
    parent = []
    for name in joints:  # UsdSkelTopology: the nearest ancestor path the list holds
        parts, p = name.split("/"), -1
        for n in range(len(parts) - 1, 0, -1):
            if "/".join(parts[:n]) in joints:
                p = joints.index("/".join(parts[:n]))
                break
        parent.append(p)
    rest = [np.array(m) for m in d["rest"]]
    bind_inv = [np.linalg.inv(np.array(m)) for m in d["bind"]]
    points = np.array(d["points"], dtype=np.float64)
    k = d["influences"]
    idx = np.array(d["indices"]).reshape(-1, k)
    wts = np.array(d["weights"], dtype=np.float64).reshape(-1, k)
    mpu = d["metersPerUnit"]

    def evaluate(t, exact):
        ta, tb, u = bracket(d["translations"], t)
        ra, rb, _ = bracket(d["rotations"], t)
        sa, sb, _ = bracket(d["scales"], t)
        local = list(rest)
        for j, name in enumerate(d["animJoints"]):
            if exact:
                tr, q, s = lerp_float3(ta[j], tb[j], u), slerp_quatf(ra[j], rb[j], u), lerp_half3(sa[j], sb[j], u)
                rot = quat_matrix(q)
            else:
                tr = np.array(ta[j]) * (1 - u) + np.array(tb[j]) * u
                s = np.array(sa[j]) * (1 - u) + np.array(sb[j]) * u
                qa, qb = np.array(ra[j]), np.array(rb[j])
                qb = -qb if qa @ qb < 0 else qb
                rot = plain_matrix(qa * (1 - u) + qb * u)
            m = np.identity(4)
            m[:3, :3] = rot * s[:, None]  # row k of the rotation times scale k
            m[3, :3] = tr
            local[joints.index(name)] = m
        skel = []
        for j in range(len(joints)):
            skel.append(local[j] @ skel[parent[j]] if parent[j] >= 0 else local[j])
        homog = np.hstack([points, np.ones((len(points), 1))])
        out = np.zeros((len(points), 3))
        for e in range(k):
            m = np.array([bind_inv[j] @ skel[j] for j in idx[:, e]])
            out += wts[:, e:e + 1] * np.einsum("ni,nij->nj", homog, m)[:, :3]
        return out * mpu

    worst, worst_plain, failures = 0.0, 0.0, 0
    for t in oracle["timeCodes"]:
        want = np.array(oracle["meshes"][d["mesh"]][repr(t)])
        diagonal = np.linalg.norm(want.max(axis=0) - want.min(axis=0))
        err = np.linalg.norm(evaluate(t, True) - want, axis=1).max() / diagonal
        plain = np.linalg.norm(evaluate(t, False) - want, axis=1).max() / diagonal
        worst, worst_plain = max(worst, err), max(worst_plain, plain)
        if err > 1e-5:
            print(f"FAIL: numpy and BakeSkinning differ by {err:.3g} of the diagonal at time code {t}")
            failures += 1
    if worst_plain <= 1e-5:
        print(f"FAIL: a plain double evaluation is within {worst_plain:.3g} of BakeSkinning: the scene does not test the rule")
        failures += 1
    print(f"usd_skel_numpy: {len(oracle['timeCodes'])} time codes, numpy {worst:.3g} and a plain evaluation "
          f"{worst_plain:.3g} of the diagonal from BakeSkinning")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[2], sys.argv[3])
