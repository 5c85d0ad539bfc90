"""rigscope.batch() and rigscope.merge() for issue 57: a --task part records its library and merge
refuses parts of a changed one; a CSV or JSONL summary is written as files finish; max_output=
refuses an output past its size before a byte is written (each the CLI's rule, tests/cli/batch_*.sh)."""
import json
import shutil
from pathlib import Path

import pytest
import rigscope

ROOT = Path(__file__).resolve().parents[2]
BEND = ROOT / "data" / "bend_cylinder.glb"
LIMITS = {"max_stretch": 0.5, "max_compress": 2}


def library(tmp_path, names="abcd"):
    lib = tmp_path / "lib"
    lib.mkdir()
    for n in names:
        shutil.copy(BEND, lib / f"{n}.glb")
    return lib


def test_merge_refuses_tasks_of_a_library_renamed_between_them(tmp_path):
    lib = library(tmp_path)
    rigscope.batch([str(lib)], "check", task="0/2", summary=str(tmp_path / "t0.json"), **LIMITS)
    (lib / "c.glb").rename(lib / "e.glb")
    rigscope.batch([str(lib)], "check", task="1/2", summary=str(tmp_path / "t1.json"), **LIMITS)
    with pytest.raises(rigscope.MismatchError, match=r"file 3 of 4 vs 4: .*d\.glb vs .*c\.glb"):
        rigscope.merge(str(tmp_path / "m.csv"), [str(tmp_path / "t0.json"), str(tmp_path / "t1.json")])
    assert not (tmp_path / "m.csv").exists()


def test_tasks_of_one_library_merge_with_every_content_hash(tmp_path):
    lib = library(tmp_path)
    for i in range(2):
        rigscope.batch([str(lib)], "check", task=f"{i}/2", summary=str(tmp_path / f"t{i}.json"), **LIMITS)
    rigscope.merge(str(tmp_path / "m.json"), [str(tmp_path / "t1.json"), str(tmp_path / "t0.json")])
    ident = json.load(open(tmp_path / "m.json"))["identity"]
    assert [f["file"] for f in ident["files"]] == ["a.glb", "b.glb", "c.glb", "d.glb"]
    h = 0xcbf29ce484222325
    for b in BEND.read_bytes():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    assert {f["stamp"]["fnv1a64"] for f in ident["files"]} == {f"{h:016x}"}


def test_jsonl_summary_has_a_line_per_file_and_an_end_line(tmp_path):
    lib = library(tmp_path, "ab")
    rows = rigscope.batch([str(lib)], "check", summary=str(tmp_path / "s.jsonl"), **LIMITS)
    lines = [json.loads(l) for l in open(tmp_path / "s.jsonl")]
    assert [l["file"] for l in lines[:-1]] == [r["file"] for r in rows] == ["a.glb", "b.glb"]
    assert lines[-1]["end"] is True and lines[-1]["counts"] == "batch: 2 files: 2 fail" and "interrupted" not in lines[-1]


def test_max_output_refuses_each_files_output_before_writing(tmp_path):
    lib = library(tmp_path, "ab")
    rows = rigscope.batch([str(lib)], "deform", output=str(tmp_path / "out" / "{stem}.csv"), frames="1..10", max_output=0.001)
    assert [r["status"] for r in rows] == ["error", "error"]
    assert [r["exit_code"] for r in rows] == [4, 4]
    assert "past the 1.0 kB limit" in rows[0]["message"] and "max_output=" in rows[0]["message"]
    assert not list((tmp_path / "out").glob("*.csv"))
    rows = rigscope.batch([str(lib)], "deform", output=str(tmp_path / "out" / "{stem}.csv"), frames="1..10", max_output=100)
    assert [r["status"] for r in rows] == ["ok", "ok"]
    with pytest.raises(rigscope.BadValueError, match="max_output="):
        rigscope.batch([str(lib)], "deform", output=str(tmp_path / "o" / "{stem}.csv"), max_output=0)


def test_a_junit_report_named_json_is_refused_before_the_run(tmp_path):
    with pytest.raises(rigscope.BadValueError, match=r"junit= .*x\.json: the extension \.json says json but junit= writes xml"):
        rigscope.load(str(BEND)).check(max_stretch=0.5, junit=str(tmp_path / "x.json"))
    assert not (tmp_path / "x.json").exists()
    # Python's errors name its keywords (issue 57 item 6): junit=, not --junit.
    with pytest.raises(rigscope.BadValueError, match=r"junit= .*x\.json: the extension"):
        rigscope.batch([str(BEND)], "check", junit=str(tmp_path / "x.json"), **LIMITS)
