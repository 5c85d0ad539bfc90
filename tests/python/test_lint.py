"""Session.lint(): the same findings as `rigscope lint --format json`, with the CLI's options as keywords."""
import json
import os
import subprocess
from pathlib import Path

import pytest
import rigscope

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("RIGSCOPE_CORPUS", ROOT.parent / "shared" / "corpus"))
BIN = os.environ.get("RIGSCOPE_BIN", str(ROOT / "build" / "rigscope"))


def cli_lint(path, *args):
    out = subprocess.run([BIN, "-q", "lint", str(path), "--format", "json", *args], capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("path, options, args", [
    ("khronos/cesium_man.gltf", {}, []),
    ("bend_cylinder/bend_cylinder.glb", {"mirror": "x", "min_weight": 0.01, "strict": True}, ["--mirror", "x", "--min-weight", "0.01", "--strict"]),
    ("pab/arnaud.fbx", {"mirror": "x", "mirror_names": ["Lf=Rt"], "max_influences": 2},
     ["--mirror", "x", "--mirror-names", "Lf=Rt", "--max-influences", "2"]),
    # No skinned mesh: the skin checks are not checked and the lint fails, in Python as on the CLI.
    ("khronos/interpolation_test.gltf", {}, []),
])
def test_lint_is_the_cli_json(path, options, args):
    if not (CORPUS / path).exists():
        pytest.skip(f"no corpus at {CORPUS}")
    got = rigscope.load(str(CORPUS / path)).lint(**options)
    want = cli_lint(CORPUS / path, *args)
    assert got["findings"] == want["findings"] and got["checks"] == want["checks"]
    assert got["counts"] == want["counts"] and got["failed"] == want["failed"] and got["parameters"] == want["parameters"]
    assert got["not_checked"] == want["not_checked"]
    if path.startswith("khronos/interpolation"):
        assert got["failed"] and got["checks"] == ["degenerate_face"] and len(got["not_checked"]) == 9


def test_lint_finds_cesium_mans_sums_and_refuses_bad_options():
    path = CORPUS / "khronos/cesium_man.gltf"
    if not path.exists():
        pytest.skip(f"no corpus at {CORPUS}")
    s = rigscope.load(str(path))
    r = s.lint()
    assert r["failed"] and {f["check"] for f in r["findings"] if f["severity"] == "error"} == {"weights_sum"}
    # A looser tolerance passes the sums that are off by less.
    loose = s.lint(weight_tolerance=0.2)
    assert 0 < len([f for f in loose["findings"] if f["check"] == "weights_sum"]) < r["counts"]["error"]
    with pytest.raises(rigscope.BadValueError, match="mirror"):
        s.lint(mirror="w")
    with pytest.raises(rigscope.BadValueError, match="needs mirror="):
        s.lint(mirror_names=["Lf=Rt"])
