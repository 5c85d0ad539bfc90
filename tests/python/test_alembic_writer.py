"""Alembic output from Python (issue 58 items 3 and 5): rigscope.batch(..., "tension" or "deform",
output="...abc") writes the archive the CLI writes (the same run-layer job), and
rigscope.load("x.abc") / load(cache="x.abc") read it back to the glb's own numbers: the archive
holds the deformation bit for bit (float32 points), so T and the positions are equal."""
import numpy as np
import pytest

import rigscope
from conftest import DATA

BEND = DATA / "bend_cylinder.glb"


def test_tension_to_an_archive_and_back(tmp_path):
    rows = rigscope.batch([str(BEND)], "tension", output=str(tmp_path / "{stem}.abc"))
    assert [r["status"] for r in rows] != ["error"]
    archive = tmp_path / "bend_cylinder.abc"
    assert archive.read_bytes()[:6] == b"Ogawa\xff"  # the header, frozen: a whole archive
    want = rigscope.load(BEND).tension()
    got = rigscope.load(archive).tension()
    assert got.frames == want.frames
    assert np.array_equal(got.t, want.t)
    assert np.array_equal(got.compress, want.compress)


def test_deform_to_an_archive_then_as_a_cache(tmp_path):
    rigscope.batch([str(BEND)], "deform", output=str(tmp_path / "{stem}.abc"))
    archive = tmp_path / "bend_cylinder.abc"
    want = rigscope.load(BEND).deform()
    assert np.array_equal(rigscope.load(archive).deform(), want)
    # The same archive as the point cache of the glb's mesh: the skin is not applied, the
    # archive's points are, and they are the skin's.
    with pytest.warns(Warning, match="the skin is ignored"):
        cached = rigscope.load(BEND, cache=archive)
    assert np.array_equal(cached.deform(), want)
    assert np.array_equal(cached.tension().t, rigscope.load(BEND).tension().t)


def test_stdout_is_refused():
    with pytest.raises(rigscope.BadValueError, match="FILE.abc"):
        rigscope.batch([str(BEND)], "tension", output="-", format="abc")
