"""rigscope.load() of USD files (issue 39 item 5): a converter's usdz package from the corpus and a
crate layer and a text layer Blender 4.5 wrote (tests/usd_blender), each giving the numbers the
CLI gives for the same file, bit for bit (the CLI is checked against usd-core's BakeSkinning in
tests/cli/usd/usd_skel.sh and usd_blender.sh)."""
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


def test_outputs_never_replace_a_layer_the_stage_composes(tmp_path):
    """Issue 56: a stage's sublayer is an input like the root layer. Python's check writes its
    JUnit and HTML reports through the same refusal as the CLI: over the sublayer (or a link to
    it) it raises naming the layer and how the stage reached it, and leaves the layer as it was."""
    layout = tmp_path / "layout.usda"
    layout.write_bytes((BLENDER / "rigged_simple.usda").read_bytes())
    shot = tmp_path / "shot.usda"
    shot.write_text('#usda 1.0\n(\n    defaultPrim = "root"\n    subLayers = [\n        @./layout.usda@\n    ]\n)\n')
    (tmp_path / "report.xml").symlink_to("layout.usda")
    (tmp_path / "report.html").symlink_to("layout.usda")
    before = layout.read_bytes()
    s = rigscope.load(shot)
    for kw in ({"junit": tmp_path / "report.xml"}, {"html": tmp_path / "report.html"}):
        with pytest.raises(rigscope.BadValueError, match=r"layout\.usda, which the run reads \(subLayers names @\./layout\.usda@ in .*shot\.usda\)"):
            s.check(max_stretch=0.5, **kw)
        assert layout.read_bytes() == before
