"""rigscope.load("x.abc") and load(base, cache="x.abc") (issue 58 item 5): the same numbers as the
CLI, on bend_cylinder's deformation written as an Alembic cache by Alembic's own library
(tests/cli/alembic/alembic_write.py, run in setup's build/usd-venv where alembic3d is installed). The
cache holds the skin's positions bit for bit, so T from the archive equals the skinned glb's."""
import subprocess
import sys

import numpy as np
import pytest

import rigscope
from conftest import DATA, ROOT

BEND = DATA / "bend_cylinder.glb"
VENV_PY = ROOT / "build" / "usd-venv" / "bin" / "python"


@pytest.fixture(scope="module")
def files(tmp_path_factory, cli):
    if subprocess.run([VENV_PY, "-c", "import alembic3d"], capture_output=True).returncode != 0:
        pytest.fail("alembic3d is not installed in build/usd-venv (scripts/setup.sh installs it)")
    d = tmp_path_factory.mktemp("alembic")
    tools = ROOT / "tests" / "cli"
    subprocess.run([sys.executable, tools / "write_neutral.py", BEND, d], check=True, capture_output=True)
    (d / "deform.csv").write_text(cli("deform", BEND, "--format", "csv"))
    subprocess.run([VENV_PY, tools / "alembic" / "alembic_write.py", d / "abc", d / "deform.csv", d / "ref.obj"], check=True, capture_output=True)
    return d


def test_an_archive_as_the_input(files):
    want = rigscope.load(BEND).tension()
    got = rigscope.load(files / "abc" / "cache.abc").tension()
    assert got.frames == want.frames
    assert np.array_equal(got.t, want.t)


def test_an_archive_as_the_cache(files):
    want = rigscope.load(BEND).tension()
    got = rigscope.load(files / "ref.obj", cache=files / "abc" / "cache.abc").tension()
    assert np.array_equal(got.t, want.t)


def test_a_changing_topology_is_refused(files):
    with pytest.raises(rigscope.BadInputError, match="a topology that changes over time"):
        rigscope.load(files / "abc" / "bad_topology.abc")


def test_abc_unit_reads_maya_centimetres(files):
    # cache_cm.abc: the same deformation x 100 under an Xform translated in centimetres (Maya's
    # unit), written by alembic3d; abc_unit="cm" gives the glb's metres back (to float32 rounding).
    want = np.asarray(rigscope.load(BEND).deform())
    got = np.asarray(rigscope.load(files / "abc" / "cache_cm.abc", abc_unit="cm").deform())
    raw = np.asarray(rigscope.load(files / "abc" / "cache_cm.abc").deform())
    assert got.shape == want.shape
    assert np.max(np.abs(got - want)) < 1e-5
    assert np.max(np.abs(raw - want)) > 1  # without it, centimetres
    assert rigscope.load(files / "abc" / "cache_cm.abc", abc_unit="cm").info()["units"]["scale_to_metres"] == 0.01
    with pytest.raises(rigscope.BadValueError, match="abc_unit: 'km' is not m, cm or mm"):
        rigscope.load(files / "abc" / "cache_cm.abc", abc_unit="km")
