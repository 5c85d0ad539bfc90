"""Session.intersect() against the CLI's CSV of the same run: the same pairs, joints and order
(both call the run layer's job; this checks the module's arrays say what the CSV says)."""
import json
import subprocess

import numpy as np
import pytest

import rigscope
from conftest import CORPUS, csv_rows

BEND = CORPUS / "bend_cylinder" / "bend_cylinder.glb"


@pytest.mark.skipif(not BEND.exists(), reason="no corpus")
def test_intersect_matches_the_cli_csv(cli, tmp_path):
    r = rigscope.load(str(BEND)).intersect(frames="60..91")
    rows = csv_rows(cli("intersect", BEND, "--frames", "60..91", "--format", "csv", "-o", "-"))
    assert len(rows) > 100
    assert r["meshes"] == ["Cylinder"] and r["frames"] == list(range(60, 92))
    for k in ("frame", "mesh_a", "face_a", "mesh_b", "face_b", "joint", "pairs"):
        assert r[k].dtype == np.int64, k
    got = [(r["frames"][f], r["meshes"][a], fa, r["meshes"][b], fb, r["joints"][j] if j >= 0 else "")
           for f, a, fa, b, fb, j in zip(r["frame"], r["mesh_a"], r["face_a"], r["mesh_b"], r["face_b"], r["joint"])]
    want = [(int(x["frame"]), x["mesh_a"], int(x["face_a"]), x["mesh_b"], int(x["face_b"]), x["joint"]) for x in rows]
    assert got == want
    # Per frame counts and lengths as the JSON has them, to the bit (shortest round-trip text).
    doc = json.loads(cli("intersect", BEND, "--frames", "60..91", "-o", "-"))
    assert r["pairs"].tolist() == [f["pairs"] for f in doc["frames"]]
    assert r["length"].tolist() == [f["length"] for f in doc["frames"]]


@pytest.mark.skipif(not BEND.exists(), reason="no corpus")
def test_intersect_clear_frames_and_errors():
    s = rigscope.load(str(BEND))
    r = s.intersect(frames="1..10")
    assert r["pairs"].tolist() == [0] * 10 and len(r["frame"]) == 0 and r["joints"] == []
    with pytest.raises(rigscope.BadValueError):
        s.intersect(frames="1..500")


@pytest.mark.skipif(not BEND.exists(), reason="no corpus")
def test_check_max_intersections_as_the_cli(cli, tmp_path):
    """check(max_intersections=N) is `rigscope check --max-intersections N`: the same verdict and
    JSON (bend_cylinder folds through itself from frame 64: the worst frame has the most pairs)."""
    s = rigscope.load(str(BEND))
    worst = max(s.intersect()["pairs"].tolist())
    assert s.check(max_intersections=worst).passed
    r = s.check(max_intersections=worst - 1)
    assert not r.passed
    with pytest.raises(subprocess.CalledProcessError) as failed:  # exit 1: the check failed
        cli("check", BEND, "--max-intersections", str(worst - 1), "--json", tmp_path / "c.json")
    assert failed.value.returncode == 1
    assert r.summary == json.load(open(tmp_path / "c.json"))
    assert r.summary["intersections"]["worst"]["pairs"] == worst
