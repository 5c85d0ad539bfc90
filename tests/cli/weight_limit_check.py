"""Checks the compress and stretch maps of a tension output against docs/methods.md's formula
applied to the output's own T, for tests/cli/tension/weight_limit.sh:

    weight_limit_check.py KIND FILE... --falloff F --weight-limit W

KIND: csv (FILE: a CSV), json (a JSON with --vertices series), glb (per-frame files: _TENSION,
_COMPRESS, _STRETCH and COLOR_0's red and green). The expectation is computed here, in double,
from the defaults' thresholds (stretch_area 0.75, compress_area 0.6, smooth_k 0.1), never from a
previous run. Tolerance 1e-6: rigscope multiplies by the ramp's reciprocal where the formula
divides, a difference in the last double digit that can move the rounded float by one ulp
(6e-8 at 0.5); a dropped weight limit of 0.5 is off by up to 0.5, a wrong falloff by 0.1 or more.
The data must reach both ramps' insides and ends, so that the limit and the falloff both show."""
import csv
import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from read_glb import attributes  # noqa: E402


def smooth_min(a, b, k):
    if k <= 0:
        return min(a, b)
    h = max(k - abs(a - b), 0.0) / k
    return min(a, b) - h ** 3 * k / 6


def smooth_max(a, b, k):
    return -smooth_min(-a, -b, k)


def maps(t, falloff, limit, stretch_area=0.75, compress_area=0.6, k=0.1):
    t_s = smooth_min(stretch_area, 1.0, k)
    t_c = smooth_max(1.0 / max(compress_area, 0.001), 1.0, k)
    # T as the float rigscope holds: CSV and JSON print the shortest text that reads back as that
    # float, which read as a double is another number (near T = 1 at falloff 2.5, off by 1e-6).
    t = np.asarray(t, dtype=np.float32).astype(np.float64)
    stretch = limit * np.clip((1.0 - t) / (1.0 - t_s), 0.0, 1.0) ** (1.0 / falloff)
    compress = limit * np.clip((t - 1.0) / (t_c - 1.0), 0.0, 1.0) ** (1.0 / falloff)
    return compress, stretch


def main():
    args = sys.argv[1:]
    falloff = float(args[args.index("--falloff") + 1])
    limit = float(args[args.index("--weight-limit") + 1])
    kind, files = args[0], args[1:args.index("--falloff")]
    t, got = [], {"compress": [], "stretch": []}
    for path in files:
        if kind == "csv":
            rows = list(csv.DictReader(open(path)))
            t += [float(r["t"]) for r in rows]
            for name in got:
                got[name] += [float(r[name]) for r in rows]
        elif kind == "json":
            for v in json.load(open(path))["vertices"]:
                t += v["t"]
                for name in got:
                    got[name] += v[name]
        else:
            for attrs in attributes(path).values():
                t += attrs["_TENSION"]
                for name, colour in (("compress", 0), ("stretch", 1)):
                    got[name] += attrs["_" + name.upper()]
                    # COLOR_0 (--color maps): red compress, green stretch.
                    got[name + " colour"] = got.get(name + " colour", []) + [c[colour] for c in attrs["COLOR_0"]]
    compress, stretch = maps(t, falloff, limit)
    want = {"compress": compress, "stretch": stretch, "compress colour": compress, "stretch colour": stretch}
    for name, values in got.items():
        w = want[name].astype(np.float32).astype(np.float64)
        err = np.abs(np.asarray(values, dtype=np.float64) - w)
        assert len(values) == len(w) > 0, (name, len(values), len(w))
        assert err.max() <= 1e-6, f"{name}: worst error {err.max()} at T = {t[int(err.argmax())]}"
    for name, w in (("compress", compress), ("stretch", stretch)):
        inside = int(((w > 0.01 * limit) & (w < 0.99 * limit)).sum())
        assert inside >= 10 and w.max() >= 0.9 * limit, f"{name}: the data does not reach the ramp ({inside} inside, max {w.max()})"
    print(f"{kind}: {len(t)} values, falloff {falloff}, weight limit {limit}")


main()
