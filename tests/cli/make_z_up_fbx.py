"""For tests/cli/tension/axes.sh: writes a Z-up twin of a crafted FBX case, as 3ds Max would store it.

    make_z_up_fbx.py CASE OUT.fbx

The case's description (scripts/fbx/make_cases.py) is Y-up. Every length and rotation is turned by
C: (x, y, z) -> (x, -z, y), a quarter turn about X that takes +Y to +Z, and GlobalSettings says
UpAxis 2 (Z), FrontAxis -1 (-Y), CoordAxis 0 (X): 3ds Max's axes. The twin's world positions are
C times the case's, so turned back upright (C's inverse, what rigscope's glTF root node must do)
they are the Y-up case's oracle positions (tests/fbx_cases/CASE.oracle.json)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "scripts", "fbx"))
import make_cases  # noqa: E402
from fbx_write import write_scene  # noqa: E402


def turn(v):
    x, y, z = v
    return [x, -z, y]


def z_up(desc):
    desc["axes"] = ((2, 1), (1, -1), (0, 1))
    desc["mesh"]["vertices"] = [turn(v) for v in desc["mesh"]["vertices"]]
    for m in desc["models"]:
        props = m.get("props", {})
        for key in list(props):
            if key != "T":
                raise SystemExit("only translated models can be turned here: %s has %s" % (m["name"], key))
        if "T" in props:
            props["T"] = turn(props["T"])
    for c in desc["curves"]:
        if c["prop"] == "Lcl Translation":
            # X stays X; Y becomes Z; Z becomes -Y.
            c["axis"], sign = {0: (0, 1), 1: (2, 1), 2: (1, -1)}[c["axis"]]
        elif c["prop"] == "Lcl Rotation":
            # C Rx(a) C' = Rx(a); C Rz(c) C' = Ry(-c). With no Y rotation, the order XYZ
            # (R = Rz Ry Rx) stays exact: C Rz(c) Rx(a) C' = Ry(-c) Rx(a) = Rz(0) Ry(-c) Rx(a).
            if c["axis"] == 1:
                raise SystemExit("a Y rotation would change the Euler order: pick another case")
            c["axis"], sign = {0: (0, 1), 2: (1, -1)}[c["axis"]]
        else:
            raise SystemExit("unexpected curve " + c["prop"])
        c["values"] = [sign * v for v in c["values"]]
    return desc


def main():
    case, out = sys.argv[1], sys.argv[2]
    write_scene(z_up(make_cases.CASES[case]()), out)


if __name__ == "__main__":
    main()
