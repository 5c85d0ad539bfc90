"""Session.check(), report(), rom() and rigscope.merge() against the CLI: the same jobs, so the
same JSON, text, pages and merged chunks (issue 27)."""
import json
import os
import re
import subprocess
import sys

from pathlib import Path

import pytest

import rigscope
from conftest import CORPUS, DATA, ROOT

BEND = str(DATA / "bend_cylinder.glb")
STATIC = Path(os.environ.get("RIGSCOPE_CORPUS", CORPUS)) / "pab" / "arnaud.fbx"  # a skinned rig with no animation
BIN = os.environ.get("RIGSCOPE_BIN", str(ROOT / "build" / "rigscope"))


def run(*args):
    """The CLI's exit code and stdout (a failed check is exit 1, not an error here)."""
    out = subprocess.run([BIN, "-q", *map(str, args)], capture_output=True, text=True)
    return out.returncode, out.stdout


@pytest.mark.parametrize("load_args,limits,cli_args", [
    ({}, {"max_stretch": 0.8, "max_compress": 1.8}, ["--max-stretch", "0.8", "--max-compress", "1.8"]),
    ({}, {"min_lambda": 0.7, "max_lambda": 1.3, "measure": "principal"},
     ["--min-lambda", "0.7", "--max-lambda", "1.3", "--measure", "principal"]),
    ({"rom": True}, {"max_compress": 1.3}, ["--rom", "--max-compress", "1.3"]),
    ({}, {"max_compress": 100, "frames": "1..91:5"}, ["--max-compress", "100", "--frames", "1..91:5"]),
])
def test_check_equals_cli_json_and_text(tmp_path, load_args, limits, cli_args):
    r = rigscope.load(BEND, **load_args).check(**limits)
    code, text = run("check", BEND, *cli_args, "--json", tmp_path / "v.json")
    assert code == (0 if r.passed else 1)
    assert r.summary == json.load(open(tmp_path / "v.json"))
    assert r.report == text
    assert bool(r) == r.passed == r.summary["passed"]
    # The failures are the summary's worst vertices, each with its limit.
    want = [dict(w, limit=l["limit"], clip=c["clip"]) for c in r.summary["clips"] for l in c["limits"] for w in l["worst"]]
    assert r.failures == want
    if load_args.get("rom"):
        assert r.failures and all(f["joint"] in ("Bone", "Bone.001") and f["axis"] in "XYZ" for f in r.failures)


def test_check_judges_every_clip_as_the_cli(tmp_path):
    """Issue 57: a second clip (BigBend, twice the bend, made by tests/cli/add_clip.py) is judged
    by default and fails the file, as `rigscope check` does; clip= chooses one, and says which
    clips were left out."""
    two = tmp_path / "two.glb"
    subprocess.run([sys.executable, str(ROOT / "tests" / "cli" / "add_clip.py"), BEND, str(two), "BigBend", "2"], check=True)
    limits = {"max_stretch": 0.7, "max_compress": 2.5}
    session = rigscope.load(str(two))
    r = session.check(**limits)
    code, text = run("check", two, "--max-stretch", "0.7", "--max-compress", "2.5", "--json", tmp_path / "v.json")
    assert code == 1 and not r.passed
    assert r.report == text and r.summary == json.load(open(tmp_path / "v.json"))
    first = r.summary["clips"][0]["clip"]
    assert [c["clip"] for c in r.summary["clips"]] == [first, "BigBend"]
    assert r.failures and {f["clip"] for f in r.failures} == {"BigBend"}
    all_clips = rigscope.load(str(two), clip="all")
    assert all_clips.check(**limits).summary == r.summary
    # A call that evaluates one clip does not take the first silently.
    with pytest.raises(rigscope.BadValueError, match="clip=NAME"):
        all_clips.tension(frames="1")
    one = session.check(clip=first, **limits)
    assert one.passed and one.summary["not_judged"] == ["BigBend"]
    assert one.report.splitlines()[-1] == f"PASS (1 of 2 clips judged: {first}; not judged: BigBend)"
    assert not session.check(clip="BigBend", **limits).passed


def test_calls_take_clip_all_as_the_cli(tmp_path):
    """Issue 57: tension(), rivets() and report() take clip= as the CLI's --clip: a clip by name
    for one call, "all" for a dict by clip (tension, rivets) or one page of every clip (report's
    default, as `rigscope report`); each clip's result is what a session loaded on that clip gives."""
    two = tmp_path / "two.glb"
    subprocess.run([sys.executable, str(ROOT / "tests" / "cli" / "add_clip.py"), BEND, str(two), "BigBend", "2"], check=True)
    session = rigscope.load(str(two))
    first = session.info()["clips"][0]["name"]
    names = [first, "BigBend"]
    by_clip = session.tension(clip="all", frames="1..40:13")
    assert list(by_clip) == names
    for name in names:
        alone = rigscope.load(str(two), clip=name).tension(frames="1..40:13")
        assert (by_clip[name].t == alone.t).all() and (session.tension(clip=name, frames="1..40:13").t == alone.t).all()
    assert not (by_clip[first].t == by_clip["BigBend"].t).all()
    # The session's own clip is back after a call on another.
    assert (session.tension(frames="1..40:13").t == by_clip[first].t).all()
    fits = session.rivets([5, 300], clip="all")
    assert list(fits) == names
    for name in names:
        assert [f["pivot_world"].tolist() for f in fits[name]] == \
            [f["pivot_world"].tolist() for f in rigscope.load(str(two), clip=name).rivets([5, 300])]
    # report(): every clip by default, one page with a menu, each clip as the CLI's --clip NAME page.
    page = session.report(str(tmp_path / "all.html"))
    assert page["clips"] == 2
    assert session.report(str(tmp_path / "big.html"), clip="BigBend")["clips"] == 1
    run("report", two, "--clip", "BigBend", "-o", tmp_path / "cli_big.html")
    strip = lambda p: re.sub(r'"(rigscope|seconds)":[^,]*,', "", open(p, encoding="utf-8").read())
    assert strip(tmp_path / "big.html") == strip(tmp_path / "cli_big.html")
    run("report", two, "-o", tmp_path / "cli_all.html")
    assert strip(tmp_path / "all.html") == strip(tmp_path / "cli_all.html")
    with pytest.raises(rigscope.Error, match="no clip .Nope."):
        session.tension(clip="Nope")


def test_check_and_report_refuse_a_rig_without_animation(tmp_path):
    if not STATIC.exists():
        pytest.skip(f"no {STATIC}")
    s = rigscope.load(str(STATIC))
    for call in (lambda: s.check(max_compress=1.5), lambda: s.report(str(tmp_path / "p.html"))):
        with pytest.raises(rigscope.BadValueError, match=r'nothing to check: .*arnaud.fbx has no animation \(use rom= or animation=, or frames="bind" to judge the bind pose alone\)'):
            call()
    assert not (tmp_path / "p.html").exists()
    # The bind pose, asked for, is checked.
    assert s.check(max_compress=1.5, frames="bind").passed


def test_report_writes_the_cli_page(tmp_path):
    info = rigscope.load(BEND).report(str(tmp_path / "py.html"), worst=5, frames="1..91:2")
    code, _ = run("report", BEND, "--worst", "5", "--frames", "1..91:2", "-o", tmp_path / "cli.html")
    assert code == 0
    assert (tmp_path / "py.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
    assert info["frames"] == info["shown"] == 46 and info["subsampled"] is None


def test_rom_equals_cli_listing_and_glb(tmp_path):
    listing = rigscope.load(BEND).rom(output=str(tmp_path / "py.glb"), rom_angle=45, rom_frames=8)
    code, text = run("rom", BEND, "--rom-angle", "45", "--rom-frames", "8", "--list", "json", "-o", tmp_path / "cli.glb")
    assert code == 0
    assert listing == json.loads(text)
    assert (tmp_path / "py.glb").read_bytes() == (tmp_path / "cli.glb").read_bytes()


def masked(junit):
    """The JUnit report without when and where it ran (each run's own)."""
    return re.sub(r' (time|timestamp|hostname)="[^"]*"', "", junit)


def test_chunked_checks_merge_as_the_cli_does(tmp_path):
    n = 3
    s = rigscope.load(BEND)
    py = [str(tmp_path / f"py_{i}.xml") for i in range(n)]
    for i, path in enumerate(py):
        s.check(max_stretch=0.8, max_compress=1.8, chunk=(i, n), junit=path)
        assert os.path.exists(path + ".chunk.json")
    cli = [str(tmp_path / f"cli_{i}.xml") for i in range(n)]
    for i, path in enumerate(cli):
        assert run("check", BEND, "--max-stretch", "0.8", "--max-compress", "1.8", "--chunk", f"{i}/{n}", "--junit", path)[0] == 0
    merged = rigscope.merge(str(tmp_path / "py.xml"), py)
    code, cli_text = run("merge", tmp_path / "cli.xml", *cli)
    _, single = run("check", BEND, "--max-stretch", "0.8", "--max-compress", "1.8")
    assert code == 1 and merged["passed"] is False and merged["command"] == "check" and merged["chunks"] == n
    # The merged verdict is one run's, through either front end.
    assert merged["report"] == cli_text == single
    assert masked((tmp_path / "py.xml").read_text()) == masked((tmp_path / "cli.xml").read_text())
    # The CLI merges the Python chunks to the same bytes as Python does.
    code, text = run("merge", tmp_path / "py_cli.xml", *py)
    assert code == 1 and text == single
    assert (tmp_path / "py_cli.xml").read_bytes() == (tmp_path / "py.xml").read_bytes()


def test_chunk_needs_a_junit_report():
    with pytest.raises(rigscope.BadValueError, match="junit"):
        rigscope.load(BEND).check(max_compress=1.5, chunk=(0, 2))
