"""rigscope.load() of USD files (issue 39 item 5): a converter's usdz package from the corpus and a
crate layer and a text layer Blender 4.5 wrote (tests/usd_blender), each giving the numbers the
CLI gives for the same file, bit for bit (the CLI is checked against usd-core's BakeSkinning in
tests/cli/usd_skel.sh and usd_blender.sh)."""
import json

import numpy as np
import pytest

import rigscope
from conftest import CORPUS, ROOT, column, csv_rows

BLENDER = ROOT / "tests" / "usd_blender"
FILES = [CORPUS / "usd" / "RiggedSimple.usdz", BLENDER / "bend_cylinder.usdc", BLENDER / "rigged_simple.usda",
         BLENDER / "joystick_face.usdc"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_usd_loads_as_the_cli_reads_it(cli, path):
    if not path.exists():
        pytest.fail("test file missing: " + str(path))
    s = rigscope.load(path)
    info = s.info()
    assert info == json.loads(cli("info", path, "--json"))
    assert info["format"] == "USD"
    p = s.deform(frames="1..40:3")
    rows = csv_rows(cli("deform", path, "--frames", "1..40:3"))
    want = np.stack([column(rows, c) for c in "xyz"], axis=1).reshape(p.shape)
    assert np.array_equal(p, want)
    r = s.tension(frames="1..40:3")
    rows = csv_rows(cli("tension", path, "--frames", "1..40:3"))
    assert np.array_equal(r.t.ravel(), column(rows, "t"))


def test_usd_lint_and_check_judge_the_file(cli):
    s = rigscope.load(BLENDER / "bend_cylinder.usdc")
    lint = s.lint()
    # Blender applies SkelBindingAPI and writes weights that sum to 1: nothing to say.
    assert len(lint["checks"]) == 10 and not lint["failed"] and lint["counts"]["error"] == 0
    # The bend's inner side shortens to T 0.79 (the glTF it was exported from does too): past a
    # 0.9 limit, inside a 0.5 one.
    assert not s.check(max_stretch=0.9)
    assert s.check(max_stretch=0.5)
