"""Chunks of one run made by both front ends: chunk 0/2 by the CLI, chunk 1/2 by the module.
Their records' identity is the run layer's, computed from the job's options (run/chunk_identity.cpp),
so `rigscope merge` joins them into what one run writes (docs/farm.md)."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import rigscope
from conftest import CORPUS, DATA, ROOT

BIN = os.environ.get("RIGSCOPE_BIN", str(ROOT / "build" / "rigscope"))
BEND = str(DATA / "bend_cylinder.glb")
CORPUS_DIR = Path(os.environ.get("RIGSCOPE_CORPUS", str(CORPUS)))
BC_GLB = str(CORPUS_DIR / "bend_cylinder" / "bend_cylinder.glb")
BC_FBX = str(CORPUS_DIR / "bend_cylinder" / "bend_cylinder.fbx")


def run(*args):
    """The CLI's exit code and stdout (a failed verdict is exit 1, not an error here)."""
    out = subprocess.run([BIN, "-q", *map(str, args)], capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, out.stdout


def untimed(junit):
    """A JUnit report without when it ran and for how long: a merge sums its chunks' times."""
    return re.sub(r' (time|timestamp)="[^"]*"', "", junit)


@pytest.mark.parametrize("load_args,py_args,cli_args", [
    ({}, {"max_stretch": 0.8, "max_compress": 1.8, "measure": "area", "smooth": 1},
     ["--max-stretch", "0.8", "--max-compress", "1.8", "--measure", "area", "--smooth", "1"]),
    ({"rom": True}, {"max_compress": 1.3}, ["--rom", "--max-compress", "1.3"]),
])
def test_check_chunks_of_both_front_ends_merge_into_one_run(tmp_path, load_args, py_args, cli_args):
    want_code, want_text = run("check", BEND, *cli_args, "--junit", tmp_path / "single.xml")
    c0, c1 = str(tmp_path / "c_0.xml"), str(tmp_path / "c_1.xml")
    assert run("check", BEND, *cli_args, "--chunk", "0/2", "--junit", c0)[0] == 0
    rigscope.load(BEND, **load_args).check(**py_args, chunk=(1, 2), junit=c1)
    assert os.path.exists(c1 + ".chunk.json")
    records = [json.loads(Path(c + ".chunk.json").read_text()) for c in (c0, c1)]
    assert records[0]["options"] == records[1]["options"]
    code, text = run("merge", tmp_path / "merged.xml", c1, c0)
    assert (code, text) == (want_code, want_text)
    assert untimed((tmp_path / "merged.xml").read_text()) == untimed((tmp_path / "single.xml").read_text())


@pytest.mark.parametrize("ext", ["csv", "json"])
def test_diff_chunks_of_both_front_ends_merge_into_one_run(tmp_path, ext):
    if not Path(BC_FBX).exists():
        pytest.skip(f"no {BC_FBX}")
    cli_args = ["--match", "position", "--align", "start", "--max-displacement", "1e-5", "--frames", "1..91:3"]
    want_code, want_text = run("diff", BC_GLB, BC_FBX, *cli_args, "-o", tmp_path / f"single.{ext}", "--junit", tmp_path / "single.xml")
    c0, c1 = tmp_path / f"c_0.{ext}", tmp_path / f"c_1.{ext}"
    assert run("diff", BC_GLB, BC_FBX, *cli_args, "--chunk", "0/2", "-o", c0)[0] == 0
    rigscope.diff(BC_GLB, BC_FBX, match="position", align="start", max_displacement=1e-5, frames="1..91:3", chunk=(1, 2), output=c1)
    assert Path(str(c1) + ".chunk.json").exists()
    code, text = run("merge", tmp_path / f"merged.{ext}", "--junit", tmp_path / "merged.xml", c0, c1)
    assert (code, text) == (want_code, want_text)
    assert (tmp_path / f"merged.{ext}").read_bytes() == (tmp_path / f"single.{ext}").read_bytes()
    assert untimed((tmp_path / "merged.xml").read_text()) == untimed((tmp_path / "single.xml").read_text())
