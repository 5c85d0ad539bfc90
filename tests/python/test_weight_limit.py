"""weight_limit in the module's arrays: r.compress and r.stretch of tension(), and the maps of
iter_tension(), against docs/methods.md's formula applied to the run's own T, at falloff 1 (the
remap's vectorised plain loop) and 2.5 (pow). The expectation is computed here in double with the
default thresholds, never from a previous run. Tolerance 1e-6: rigscope multiplies by the ramp's
reciprocal where the formula divides, which can move the rounded float by one ulp (6e-8 at 0.5);
a dropped weight limit of 0.5 is off by up to 0.5."""
import numpy as np
import pytest

import rigscope
from conftest import DATA

BEND = str(DATA / "bend_cylinder.glb")


def smooth_min(a, b, k):
    h = max(k - abs(a - b), 0.0) / k
    return min(a, b) - h ** 3 * k / 6


def expected_maps(t, falloff, limit, stretch_area=0.75, compress_area=0.6, k=0.1):
    t_s = smooth_min(stretch_area, 1.0, k)
    t_c = -smooth_min(-1.0 / max(compress_area, 0.001), -1.0, k)
    t = t.astype(np.float64)
    stretch = limit * np.clip((1.0 - t) / (1.0 - t_s), 0.0, 1.0) ** (1.0 / falloff)
    compress = limit * np.clip((t - 1.0) / (t_c - 1.0), 0.0, 1.0) ** (1.0 / falloff)
    return compress.astype(np.float32), stretch.astype(np.float32)


def check_maps(t, compress, stretch, falloff, limit):
    want_c, want_s = expected_maps(t, falloff, limit)
    assert np.abs(compress.astype(np.float64) - want_c).max() <= 1e-6
    assert np.abs(stretch.astype(np.float64) - want_s).max() <= 1e-6
    # The frames reach inside both ramps and their ends, so the limit and the falloff both show.
    for w in (want_c, want_s):
        assert ((w > 0.01 * limit) & (w < 0.99 * limit)).sum() >= 10 and w.max() >= 0.9 * limit


@pytest.mark.parametrize("falloff", [1.0, 2.5])
def test_weight_limit_in_tension_arrays(falloff):
    r = rigscope.load(BEND).tension(frames="31..91:30", weight_limit=0.5, falloff=falloff)
    check_maps(r.t, r.compress, r.stretch, falloff, 0.5)


@pytest.mark.parametrize("falloff", [1.0, 2.5])
def test_weight_limit_in_iter_tension_maps(falloff):
    frames = list(rigscope.load(BEND).iter_tension(frames="31..91:30", weight_limit=0.5, falloff=falloff))
    assert [f for f, _ in frames] == [31, 61, 91]
    t = np.stack([m.t for _, m in frames])
    check_maps(t, np.stack([m.compress for _, m in frames]), np.stack([m.stretch for _, m in frames]), falloff, 0.5)
