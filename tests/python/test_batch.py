"""rigscope.batch(): the run layer's batch job, the rows `rigscope check FILE... --summary s.json` writes."""
import json
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
import rigscope

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("RIGSCOPE_CORPUS", ROOT.parent / "shared" / "corpus"))
BIN = os.environ.get("RIGSCOPE_BIN", str(ROOT / "build" / "rigscope"))
LIMITS = {"max_stretch": 0.99, "max_compress": 1.01}


@pytest.fixture
def library(tmp_path):
    if not (CORPUS / "khronos" / "cesium_man.gltf").exists():
        pytest.skip(f"no corpus at {CORPUS}")
    lib = tmp_path / "lib"
    (lib / "sub").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "bend_cylinder.glb", lib)
    shutil.copy(CORPUS / "khronos" / "cesium_man.gltf", lib / "sub")
    (lib / "sub" / "broken.glb").write_bytes((ROOT / "data" / "bend_cylinder.glb").read_bytes()[:3000])
    return lib


def without_timing(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "peak_mib")} for r in rows]


def test_rows_are_the_cli_summary(library, tmp_path):
    rows = rigscope.batch([str(library)], "check", **LIMITS)
    out = subprocess.run([BIN, "-q", "check", str(library), "--max-stretch", "0.99", "--max-compress", "1.01", "--summary",
                          str(tmp_path / "s.json")], capture_output=True, text=True)
    assert out.returncode == 3, out.stderr  # the truncated file is the worst
    cli = json.load(open(tmp_path / "s.json"))["files"]
    assert [r["file"] for r in rows] == [r["file"] for r in cli] == ["bend_cylinder.glb", "sub/broken.glb", "sub/cesium_man.gltf"]
    assert [r["status"] for r in rows] == [r["status"] for r in cli]
    for got, want in zip(rows, cli):
        if want["status"] == "error":
            assert got["message"] == want["message"] and got["min_t"] is None
            continue
        assert got["frames"] == want["frames"] and got["vertices"] == want["vertices"]
        assert got["past"] == want["past"]
        assert got["min_t"]["vertex"] == want["min_t"]["vertex"] and got["max_t"]["frame"] == want["max_t"]["frame"]
        assert got["min_t"]["value"] == pytest.approx(want["min_t"]["value"], rel=1e-7)


def test_counts_are_a_single_checks(library):
    rows = rigscope.batch([str(library / "bend_cylinder.glb")], "check", **LIMITS)
    single = rigscope.load(str(library / "bend_cylinder.glb")).check(**LIMITS)
    assert rows[0]["status"] == ("pass" if single.passed else "fail")


def test_jobs_give_the_same_rows(library):
    one = rigscope.batch([str(library)], "check", jobs=1, **LIMITS)
    two = rigscope.batch([str(library)], "check", jobs=2, **LIMITS)
    assert without_timing(one) == without_timing(two)


def test_lint_rows(library):
    rows = rigscope.batch([str(library)], "lint")
    assert [r["status"] for r in rows][1] == "error"
    assert all(r["lint"] is not None for r in rows if r["status"] != "error")


def test_refusals(library, tmp_path):
    with pytest.raises(rigscope.BadValueError, match="would both write|placeholder"):
        rigscope.batch([str(library)], "check", json=str(tmp_path / "one.json"), **LIMITS)
    with pytest.raises(rigscope.BadValueError, match="junit="):
        rigscope.batch([str(library)], "check", junit="", **LIMITS)
    with pytest.raises(rigscope.BadValueError, match="not a batch verb"):
        rigscope.batch([str(library)], "rivet")
    with pytest.raises(rigscope.BadValueError, match="give -o with a placeholder"):
        rigscope.batch([str(library)], "tension")
    with pytest.raises(rigscope.BadValueError, match="judges nothing"):
        rigscope.batch([str(library)], "tension", output=str(tmp_path / "{relpath}.csv"), max_stretch=0.9)
    assert not (tmp_path / "bend_cylinder.glb.csv").exists()


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def present(rows):
    """Rows as the JSON summary writes them: without time and memory, without the members it
    leaves out where Python's rows hold None (or no limit counts), T as the float it is (the JSON
    prints the float's shortest form, Python holds it widened to a double)."""
    out = []
    for r in without_timing(rows):
        r = {k: v for k, v in r.items() if v is not None and v != {}}
        for side in ("min_t", "max_t"):
            if side in r:
                r[side] = dict(r[side], value=f32(r[side]["value"]))
        out.append(r)
    return out


def cli_rows(tmp_path, *args):
    """The rows of `rigscope -q ARGS --summary s.json`, as present() gives them."""
    summary = tmp_path / "cli_summary.json"
    subprocess.run([BIN, "-q", *args, "--summary", str(summary)], capture_output=True, text=True)
    return present(json.load(open(summary))["files"])


@pytest.mark.parametrize("verb, ext", [("tension", "csv"), ("deform", "csv"), ("info", "json"), ("intersect", "json"), ("intersect", "csv"),
                                       ("volume", "csv"), ("volume", "json")])
def test_verbs_that_write_a_file_each(library, tmp_path, verb, ext):
    """tension, deform, info, intersect and volume: each file's output by placeholder, the rows the CLI's summary has."""
    out = tmp_path / "py" / ("{relpath}." + ext)
    rows = rigscope.batch([str(library)], verb, output=str(out), jobs=2)
    assert [r["status"] for r in rows] == ["ok", "error", "ok"]  # a verb that judges nothing never says pass
    assert "truncated GLB" in rows[1]["message"]
    written = sorted(p.relative_to(tmp_path / "py").as_posix() for p in (tmp_path / "py").rglob("*") if p.is_file())
    assert written == ["bend_cylinder.glb." + ext, "sub/cesium_man.gltf." + ext]
    cli = cli_rows(tmp_path, verb, str(library), "-o", str(tmp_path / "cli" / ("{relpath}." + ext)))
    assert present(rows) == cli
    for name in written:  # the same bytes as the CLI's batch writes
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    if verb == "tension":
        # min and max T as the written map's t column holds them
        import csv
        t = [float(x["t"]) for x in csv.DictReader(open(tmp_path / "py" / "sub/cesium_man.gltf.csv"))]
        assert rows[2]["min_t"]["value"] == pytest.approx(min(t), rel=1e-7)
        assert rows[2]["max_t"]["value"] == pytest.approx(max(t), rel=1e-7)


def test_report_pages_and_index(library, tmp_path):
    rows = rigscope.batch([str(library)], "report", output=str(tmp_path / "pages" / "{relpath}.html"))
    assert [r["status"] for r in rows] == ["ok", "error", "ok"]
    index = (tmp_path / "pages" / "index.html").read_text()
    assert 'href="bend_cylinder.glb.html"' in index and 'href="sub/cesium_man.gltf.html"' in index
    assert "sub/broken.glb" in index and "truncated GLB" in index and "broken.glb.html" not in index


def test_diff_pairs(library, tmp_path):
    """diff over pairs: each OLD with the file of its relpath under against=; a missing partner is
    its row's error, not a stop; one JUnit with a suite per pair."""
    new = tmp_path / "new"
    (new / "sub").mkdir(parents=True)
    shutil.copy(library / "bend_cylinder.glb", new)
    shutil.copy(library / "sub" / "cesium_man.gltf", new / "sub")
    (tmp_path / "lone.glb").write_bytes((library / "bend_cylinder.glb").read_bytes())
    shutil.copy(tmp_path / "lone.glb", library / "lone.glb")  # no partner under new/
    rows = rigscope.batch([str(library)], "diff", against=str(new), max_displacement=0.001, junit=str(tmp_path / "d.xml"))
    assert [(r["file"], r["status"]) for r in rows] == [("bend_cylinder.glb", "pass"), ("lone.glb", "error"), ("sub/broken.glb", "error"),
                                                        ("sub/cesium_man.gltf", "pass")]
    assert rows[0]["new"] == str(new / "bend_cylinder.glb")
    assert "no partner under" in rows[1]["message"]
    junit = (tmp_path / "d.xml").read_text()
    assert junit.count("<testsuite ") == 4 and 'name="sub/cesium_man.gltf"' in junit
    single = rigscope.diff(str(library / "sub" / "cesium_man.gltf"), str(new / "sub" / "cesium_man.gltf"), max_displacement=0.001)
    assert rows[3]["vertices"] == sum(len(m.vertex) for m in single.meshes.values())
    with pytest.raises(rigscope.BadValueError, match="diff's"):
        rigscope.batch([str(library)], "check", against=str(new))


def test_check_volume_and_intersection_limits(library, tmp_path):
    """check's issue-59 limits in a batch: the rows and JUnit report the CLI's batch gives."""
    kw = dict(max_volume_loss=0.05, max_intersections=0)
    rows = rigscope.batch([str(library)], "check", junit=str(tmp_path / "py.xml"), **kw)
    cli = cli_rows(tmp_path, "check", str(library), "--max-volume-loss", "0.05", "--max-intersections", "0", "--junit", str(tmp_path / "cli.xml"))
    # The summary's "clip" (the clip a check judged worst) is not one of Python's row keys.
    assert present(rows) == [{k: v for k, v in c.items() if k != "clip"} for c in cli]
    assert rows[0]["status"] == "fail" and "face pairs cross" in rows[0]["message"]  # bend_cylinder folds through itself past 63 degrees
    strip = lambda t: __import__("re").sub(r'(time|timestamp|hostname)="[^"]*"', "", t)
    assert strip((tmp_path / "py.xml").read_text()) == strip((tmp_path / "cli.xml").read_text())
    with pytest.raises(rigscope.BadValueError, match="check's"):
        rigscope.batch([str(library)], "volume", output=str(tmp_path / "{relpath}.csv"), max_volume_loss=0.1)
