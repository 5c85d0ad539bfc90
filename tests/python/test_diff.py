"""rigscope.diff() against the CLI's `diff` JSON and CSV: the same summary, the same per-frame values."""
import json
import os
from pathlib import Path

import numpy as np
import pytest
import rigscope

from conftest import CORPUS, column, csv_rows

CORPUS_DIR = Path(os.environ.get("RIGSCOPE_CORPUS", str(CORPUS)))
BC_GLB = CORPUS_DIR / "bend_cylinder" / "bend_cylinder.glb"
BC_FBX = CORPUS_DIR / "bend_cylinder" / "bend_cylinder.fbx"


def cli_json(cli, tmp_path, *args):
    out = tmp_path / "diff.json"
    cli("diff", *args, "-o", out)
    return json.loads(out.read_text())


def test_summary_and_arrays_equal_the_cli(cli, tmp_path):
    args = (BC_GLB, BC_FBX, "--match", "position", "--align", "start", "--max-displacement", "1e-5")
    want = cli_json(cli, tmp_path, *args)
    got = rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", max_displacement=1e-5)
    assert got.summary == want["summary"]
    assert got.passed and got.frame_offset == want["frame_offset"] == -1
    assert got.frames == [f["frame"] for f in want["frames"]]
    m = got.meshes["Cylinder"]
    assert m.displacement.shape == m.t_change.shape == (91, 544)
    # Per frame, the largest value over the vertices is the JSON's frame maximum, bit for bit
    # (the CLI prints the shortest text that reads back as the same float32).
    np.testing.assert_array_equal(m.displacement.max(1), np.array([f["max_displacement"] for f in want["frames"]], dtype=np.float32))
    np.testing.assert_array_equal(np.abs(m.t_change).max(1), np.array([f["max_t_change"] for f in want["frames"]], dtype=np.float32))


def test_rows_equal_the_cli_csv(cli, tmp_path):
    rows = csv_rows(cli("diff", BC_GLB, BC_FBX, "--match", "position", "--align", "start", "--frames", "1..91:10", "-o", "-"))
    got = rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", frames="1..91:10")
    m = got.meshes["Cylinder"]
    n = len(m.vertex)
    assert len(rows) == len(got.frames) * n and m.displacement.max() > 0
    np.testing.assert_array_equal(column(rows, "new_vertex", np.uint32), np.tile(m.new_vertex, len(got.frames)))
    np.testing.assert_array_equal(column(rows, "vertex", np.uint32), np.tile(m.vertex, len(got.frames)))
    np.testing.assert_array_equal(column(rows, "displacement"), m.displacement.ravel())
    np.testing.assert_array_equal(column(rows, "t_change"), m.t_change.ravel())


def test_a_chunk_is_the_cli_chunk(cli, tmp_path):
    out = tmp_path / "c.json"
    cli("diff", BC_GLB, BC_FBX, "--match", "position", "--align", "start", "--chunk", "1/3", "-o", out)
    want = json.loads(out.read_text())
    got = rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", chunk=(1, 3), output=tmp_path / "py.json")
    assert got.summary == want["summary"]
    assert got.frames == [f["frame"] for f in want["frames"]] and len(got.frames) == 30
    # The file and the record are the CLI's: the same bytes, the same identity and inputs.
    assert (tmp_path / "py.json").read_bytes() == out.read_bytes()
    py_rec = json.loads((tmp_path / "py.json.chunk.json").read_text())
    cli_rec = json.loads((tmp_path / "c.json.chunk.json").read_text())
    assert py_rec["options"] == cli_rec["options"] and py_rec["inputs"] == cli_rec["inputs"]
    assert py_rec["chunk"] == cli_rec["chunk"] == {"index": 1, "count": 3}


def test_output_writes_the_cli_file_and_a_chunk_needs_one(cli, tmp_path):
    args = ("--match", "position", "--align", "start", "--frames", "1..91:10")
    cli("diff", BC_GLB, BC_FBX, *args, "-o", tmp_path / "cli.csv")
    rigscope.diff(BC_GLB, BC_FBX, match="position", align="start", frames="1..91:10", output=tmp_path / "py.txt", format="csv")
    assert (tmp_path / "py.txt").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    with pytest.raises(rigscope.BadValueError, match="chunk= needs output=FILE"):
        rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", chunk=(0, 2))
    with pytest.raises(rigscope.BadValueError, match="format= is output='s format"):
        rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", format="json")
    # A glTF colours by the largest displacement over all frames, which a chunk does not see.
    with pytest.raises(rigscope.BadValueError, match="run it without chunk="):
        rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", chunk=(0, 2), output=tmp_path / "d.glb")
    assert not (tmp_path / "d.glb").exists()


def test_limits_and_refusals():
    got = rigscope.diff(str(BC_GLB), str(BC_FBX), match="position", align="start", max_displacement=1e-9)
    assert not got.passed and "FAIL" in got.report
    with pytest.raises(rigscope.MismatchError, match="frame 91 is outside clip"):
        rigscope.diff(str(BC_GLB), str(BC_FBX), match="position")
    with pytest.raises(rigscope.BadValueError, match="align= excludes frame_offset="):
        rigscope.diff(str(BC_GLB), str(BC_FBX), align="start", frame_offset=1)
