"""rigscope.load(base, cache=, reference=, reference_match=, reference_scale=) (issue 42 item 5):
the same numbers as the CLI's --cache and --reference-match, on bend_cylinder and the caches and
neutrals tests/cli/cache/write_cache.py, write_neutral.py and reference_match.py write (their own
readers of the formats, not rigscope's). The cache holds the skin's positions bit for bit, so
T from OBJ + cache is the skinned glb's exactly; a shuffled neutral paired by position is the
bind mesh again, exactly."""
import subprocess
import sys

import numpy as np
import pytest

import rigscope
from conftest import DATA, ROOT

BEND = DATA / "bend_cylinder.glb"


@pytest.fixture(scope="module")
def files(tmp_path_factory, cli):
    d = tmp_path_factory.mktemp("cache")
    tools = ROOT / "tests" / "cli"
    subprocess.run([sys.executable, tools / "write_neutral.py", BEND, d], check=True, capture_output=True)
    subprocess.run([sys.executable, tools / "tension" / "reference_match.py", d / "ref.obj", d], check=True, capture_output=True)
    (d / "deform.csv").write_text(cli("deform", BEND, "--format", "csv"))
    subprocess.run([sys.executable, tools / "cache" / "write_cache.py", d / "deform.csv", "24", d], check=True, capture_output=True)
    return d


def test_cache_gives_the_skinned_tension(files):
    want = rigscope.load(BEND).tension()
    got = rigscope.load(files / "ref.obj", cache=files / "cloth.pc2").tension()
    assert got.frames == want.frames
    assert np.array_equal(got.t, want.t)
    seq = rigscope.load(files / "ref.obj", cache=files / "seq" / "cloth_0001.obj").tension()
    assert np.array_equal(seq.t, want.t)


def test_reference_by_position_recovers_a_shuffled_neutral(files):
    want = rigscope.load(BEND).tension(frames="1..91:15")
    got = rigscope.load(BEND, reference=files / "permuted.obj", reference_match="position").tension(frames="1..91:15")
    assert np.array_equal(got.t, want.t)
    with pytest.raises(rigscope.MismatchError, match="another order"):
        rigscope.load(BEND, reference=files / "permuted.obj").tension(frames="1")


def test_reference_scale(files):
    with pytest.raises(rigscope.MismatchError, match="reference_scale=0.01"):
        rigscope.load(BEND, reference=files / "cm.obj").tension(frames="1")
    r = rigscope.load(BEND, reference=files / "cm.obj", reference_scale=0.01).tension(frames="1")
    assert np.allclose(r.t, 1, atol=1e-5)  # x100 then x0.01 in float: a rounding or two


def test_bad_keywords_are_refused_at_load():
    with pytest.raises(rigscope.BadValueError, match="reference_match"):
        rigscope.load(BEND, reference=BEND, reference_match="nearest")
    with pytest.raises(rigscope.BadValueError, match="reference_scale"):
        rigscope.load(BEND, reference_scale=0.01)


@pytest.mark.parametrize("other", [
    {"cache": "mdd"},                                   # --cache: another file
    {"reference_match": "position"},                    # --reference-match
    {"reference_scale": 1.0},                           # --reference-scale, given
])
def test_chunks_of_other_cache_or_reference_options_do_not_merge(files, tmp_path, other):
    """A chunk's identity (python/check_calls.cpp) holds the cache and reference options, as the
    CLI's does: chunks differing in one of them are refused by merge, naming the option."""
    base = {"cache": files / "cloth.pc2", "reference": files / "ref.obj"}
    alt = dict(base)
    alt.update({k: (files / "cloth.mdd" if v == "mdd" else v) for k, v in other.items()})
    paths = [str(tmp_path / f"c_{i}.xml") for i in range(2)]
    rigscope.load(files / "ref.obj", **base).check(max_compress=100, chunk=(0, 2), junit=paths[0])
    rigscope.load(files / "ref.obj", **alt).check(max_compress=100, chunk=(1, 2), junit=paths[1])
    name = next(iter(other))  # named by its keyword, as Python passes it
    with pytest.raises(rigscope.MismatchError, match=r"(^|[ (])" + name + r"\b"):
        rigscope.merge(str(tmp_path / "m.xml"), paths)
    # The same options twice merge.
    rigscope.load(files / "ref.obj", **base).check(max_compress=100, chunk=(1, 2), junit=paths[1])
    assert rigscope.merge(str(tmp_path / "m.xml"), paths)["chunks"] == 2


def test_tension_takes_the_reference_keywords(files):
    """tension() (and check(), report(), iter_tension(): one table) takes reference_match= and
    reference_scale= as the CLI's tension does, and its errors name those keywords, not flags."""
    want = rigscope.load(BEND).tension(frames="1..91:15")
    s = rigscope.load(BEND)
    got = s.tension(frames="1..91:15", reference=files / "permuted.obj", reference_match="position")
    assert np.array_equal(got.t, want.t)
    r = s.tension(frames="1", reference=files / "cm.obj", reference_scale=0.01)
    assert np.allclose(r.t, 1, atol=1e-5)  # x100 then x0.01 in float, as test_reference_scale
    c = s.check(max_compress=100, frames="1", reference=files / "cm.obj", reference_scale=0.01)
    assert c.passed
    # The call's keywords win over load()'s.
    loaded = rigscope.load(BEND, reference=files / "cm.obj", reference_scale=0.01)
    with pytest.raises(rigscope.MismatchError, match="another order"):
        loaded.tension(frames="1", reference=files / "permuted.obj", reference_scale=1.0)
    with pytest.raises(rigscope.MismatchError, match=r"use reference_scale=0\.01$") as e:
        s.tension(frames="1", reference=files / "cm.obj")
    assert "--" not in str(e.value), str(e.value)
    with pytest.raises(rigscope.MismatchError, match='pair them with reference_match="position", or give reference_match="index" to go on'):
        s.tension(frames="1", reference=files / "permuted.obj")
    with pytest.raises(rigscope.BadValueError, match="reference_match"):
        s.tension(frames="1", reference=files / "ref.obj", reference_match="nearest")


def shifted_obj(src, dst, fraction):
    """src's OBJ with every vertex moved along x by `fraction` of bend_cylinder's bind diagonal:
    the same surface (T unchanged) at a distance position pairing sees."""
    v = [line.split() for line in src.read_text().splitlines() if line.startswith("v ")]
    p = np.array([[float(x) for x in f[1:4]] for f in v])
    step = fraction * np.linalg.norm(p.max(axis=0) - p.min(axis=0))
    out = []
    for line in src.read_text().splitlines():
        if line.startswith("v "):
            f = line.split()
            line = f"v {float(f[1]) + step!r} {f[2]} {f[3]}"
        out.append(line)
    dst.write_text("\n".join(out) + "\n")
    return dst


def test_reference_tolerance_is_the_clis(files, tmp_path):
    """reference_tolerance= (--reference-tolerance's keyword, the options table's row) widens
    position pairing as the CLI's option does: a neutral moved by 1e-3 of the diagonal pairs at
    2e-3 and not at the default 1e-4, whose refusal names the keyword; out of (0, 1) is refused."""
    moved = shifted_obj(files / "permuted.obj", tmp_path / "moved.obj", 1e-3)
    s = rigscope.load(BEND)
    with pytest.raises(rigscope.MismatchError, match=r"reference_tolerance=") as e:
        s.tension(frames="1", reference=moved, reference_match="position")
    assert "--" not in str(e.value), str(e.value)
    want = s.tension(frames="1..91:15")
    got = s.tension(frames="1..91:15", reference=moved, reference_match="position", reference_tolerance=2e-3)
    assert np.allclose(got.t, want.t, atol=1e-5)  # moved, not deformed: a float rounding or two
    c = s.check(max_compress=100, frames="1", reference=moved, reference_match="position", reference_tolerance=2e-3)
    assert c.passed
    for bad in (0.0, 1.0):
        with pytest.raises(rigscope.BadValueError, match="reference_tolerance"):
            s.tension(frames="1", reference=moved, reference_match="position", reference_tolerance=bad)
