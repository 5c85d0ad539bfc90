"""rigscope.load(skinning=...) is the CLI's --skinning: the same positions bit for bit, the
file's method by default, and a bad name refused as the CLI's usage error."""
import json

import numpy as np
import pytest

import rigscope
from conftest import ROOT, column, csv_rows

TWIST = str(ROOT / "tests" / "fbx_dq" / "dq_twist.fbx")


@pytest.mark.parametrize("skinning", [None, "file", "linear", "dq"])
def test_skinning_equals_cli(cli, skinning):
    s = rigscope.load(TWIST) if skinning is None else rigscope.load(TWIST, skinning=skinning)
    p = s.deform(frames="0..24:8")
    args = ["deform", TWIST, "--frames", "0..24:8"] + ([] if skinning is None else ["--skinning", skinning])
    rows = csv_rows(cli(*args))
    want = np.stack([column(rows, c) for c in "xyz"], axis=1).reshape(p.shape)
    assert np.array_equal(p, want)


def test_file_method_is_dual_quaternion():
    assert rigscope.load(TWIST).info()["skins"][0]["method"] == "DualQuaternion"
    dq = rigscope.load(TWIST).deform(frames="24")
    assert np.array_equal(dq, rigscope.load(TWIST, skinning="dq").deform(frames="24"))
    # The twisted tube: linear skinning pulls the middle in by centimetres.
    assert np.abs(dq - rigscope.load(TWIST, skinning="linear").deform(frames="24")).max() > 0.01


def test_bad_skinning_is_a_usage_error():
    with pytest.raises(rigscope.BadValueError, match="skinning: 'spline' is not file, linear or dq"):
        rigscope.load(TWIST, skinning="spline")
