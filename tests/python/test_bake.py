"""Session.bake() and Session.regions() (issue 60) against the CLI's own outputs: bake()'s arrays
are the images `rigscope bake` writes (its 16-bit PNG and half EXR read by the tests' own readers,
image_files.py, so equal within the files' rounding), regions()'s values are `rigscope regions`'s
CSV."""
import numpy as np
import pytest

import rigscope
from conftest import CORPUS, csv_rows
from image_files import read_exr_half, read_png16

CYL = CORPUS / "bend_cylinder" / "bend_cylinder.glb"


@pytest.fixture(scope="module")
def session():
    if not CYL.exists():
        pytest.skip("no corpus")
    return rigscope.load(str(CYL))


def test_bake_matches_the_cli_png(session, cli, tmp_path):
    maps = session.bake(frames="31,61", map="tension", range=(0.0, 2.0), size=40, padding=1)
    assert maps.shape == (2, 40, 40) and maps.dtype == np.float32
    cli("bake", CYL, "--frames", "31,61", "--map", "tension", "--range", "0,2", "--size", "40", "--padding", "1",
        "-o", tmp_path / "{frame}.png")
    for k, frame in enumerate(("0031", "0061")):
        png = read_png16(tmp_path / f"{frame}.png").astype(np.float64)
        assert png.shape == (40, 40)
        want = np.round(np.clip(maps[k].astype(np.float64), 0, 1) * 65535)
        assert np.array_equal(png, want)
        assert (png > 0).sum() > 400  # the cylinder covers much of its UV square


def test_bake_color_matches_the_cli_exr(session, cli, tmp_path):
    maps = session.bake(frames="61", map="color", color="t", size=24, padding=1)
    assert maps.shape == (1, 24, 24, 3) and maps.dtype == np.float32
    cli("bake", CYL, "--frames", "61", "--map", "color", "--color", "t", "--size", "24", "--padding", "1", "-o", tmp_path / "c.exr")
    channels, data_window, display_window = read_exr_half(tmp_path / "c.exr")
    assert sorted(channels) == ["B", "G", "R"] and data_window == display_window == (0, 0, 23, 23)
    rgb = np.stack([channels["R"], channels["G"], channels["B"]], axis=-1)
    assert np.array_equal(rgb, maps[0].astype(np.float16))
    # The ramp is white where nothing bends: every covered texel has some green.
    assert (maps[0, :, :, 1] > 0).sum() > 100


def test_bake_refuses_as_the_cli(session):
    with pytest.raises(rigscope.BadValueError, match="size=0"):
        session.bake(frames="61", size=0)


def test_regions_match_the_cli_csv(session, cli):
    r = session.regions(frames="1,61,91", map="compress")
    assert r.values.shape == (3, len(r.regions))
    assert r.frames == [1, 61, 91]
    rows = csv_rows(cli("regions", CYL, "--frames", "1,61,91", "--map", "compress"))
    got = {(int(row["frame"]), row["region"]): float(row["value"]) for row in rows}
    assert len(got) == r.values.size
    for fi, frame in enumerate(r.frames):
        for k, (_mesh, region) in enumerate(r.regions):
            assert got[(frame, region)] == pytest.approx(r.values[fi, k], rel=1e-15, abs=0)
