"""Session.volume() is `rigscope volume`: the CLI's CSV rows, bit for bit, as arrays (issue 59),
on the candy-wrapper rig tests/cli/volume/make_twist_cylinder.py makes (closed and open) and
on bend_cylinder."""
import subprocess
import sys

import numpy as np
import pytest

import rigscope
from conftest import CORPUS, ROOT, csv_rows

MAKE = ROOT / "tests" / "cli" / "volume" / "make_twist_cylinder.py"
BEND = str(CORPUS / "bend_cylinder" / "bend_cylinder.glb")


def made(tmp_path, *args):
    out = tmp_path / "twist.glb"
    subprocess.run([sys.executable, str(MAKE), str(out), *args], check=True)
    return str(out)


def assert_equals_cli(cli, result, *args):
    rows = csv_rows(cli("volume", *args, "-o", "-"))
    nf, nc = result["volume"].shape
    assert result["volume"].dtype == np.float64 and len(rows) == nf * nc
    for i, r in enumerate(rows):
        f, c = divmod(i, nc)
        assert r["frame"] == str(result["frames"][f])
        assert (r["mesh"], r["region"]) == (result["mesh"][c], result["region"][c])
        assert float(r["volume"]) == result["volume"][f, c]
        if r["ratio"] == "":
            assert np.isnan(result["ratio"][f, c])
        else:
            assert float(r["ratio"]) == result["ratio"][f, c]


@pytest.mark.parametrize("skinning", ["linear", "dq"])
def test_volume_equals_cli(cli, tmp_path, skinning):
    path = made(tmp_path)
    r = rigscope.load(path, skinning=skinning).volume(frames="0..24:4")
    assert r["region"] == ["*", "Root", "Tip"] and r["closed"] == {"Cylinder": True}
    assert_equals_cli(cli, r, path, "--frames", "0..24:4", "--skinning", skinning)
    # The candy wrapper: linear blend keeps 2/3 at 180 degrees (each ring scaled by |1 - 2w|),
    # dual quaternions nearly all.
    if skinning == "linear":
        assert r["ratio"][-1, 0] == pytest.approx(2 / 3, abs=1e-6)
    else:
        assert r["ratio"][-1, 0] > 0.97


def test_open_mesh_has_regions_only(cli, tmp_path):
    path = made(tmp_path, "--open")
    r = rigscope.load(path).volume(frames="0,24")
    assert "*" not in r["region"] and r["closed"] == {"Cylinder": False}
    assert len(r["notes"]) == 1 and "open after welding" in r["notes"][0]
    assert_equals_cli(cli, r, path, "--frames", "0,24")


def test_bend_cylinder(cli):
    r = rigscope.load(BEND).volume(frames="bind,1..91:30")
    assert r["frames"] == ["bind", 1, 31, 61, 91]
    assert np.all(r["ratio"][0] == 1.0)
    assert_equals_cli(cli, r, BEND, "--frames", "bind,1..91:30")


def test_no_faces_is_a_bad_input(tmp_path):
    path = made(tmp_path, "--no-faces")
    with pytest.raises(rigscope.BadInputError, match="no selected mesh is closed or has joint regions"):
        rigscope.load(path).volume()


def test_check_max_volume_loss(tmp_path):
    # The candy wrapper loses exactly 1/3 under linear blend at 180 degrees (volume.sh).
    s = rigscope.load(made(tmp_path), skinning="linear")
    assert s.check(max_volume_loss=0.3334).passed
    r = s.check(max_volume_loss=0.3332)
    assert not r.passed
    v = r.summary["volume"]
    assert [(f["mesh"], f["region"], f["frame"]) for f in v["failures"]] == [("Cylinder", "*", 24)]
    assert "volume loss" in r.junit
