"""Python's forms of the inputs (rigscope/_inputs.py): frames as an int, a list or tuple, a
range, numpy integers, the CLI's text or "bind"; paths as os.PathLike. Each form selects the
frames written next to it, in every binding that takes frames; a wrong form is refused with
the CLI's message (an empty selection) or a TypeError naming what frames takes."""
import pathlib

import numpy as np
import pytest

import rigscope
from conftest import DATA

BEND = DATA / "bend_cylinder.glb"
FACE = DATA / "joystick_face.glb"
RIG = DATA / "joystick_face.rig.json"


@pytest.fixture(scope="module")
def bend():
    return rigscope.load(BEND)  # a pathlib.Path


FORMS = [
    (61, [61]),
    ([1, 45, 91], [1, 45, 91]),
    ((10, 20), [10, 20]),
    (range(1, 92, 10), list(range(1, 92, 10))),
    (range(5, 8), [5, 6, 7]),
    (range(9, 0, -4), [9, 5, 1]),
    (np.arange(3, 6), [3, 4, 5]),
    (np.int64(7), [7]),
    ([2, "bind"], [2, "bind"]),
    (["1..3", 10], [1, 2, 3, 10]),
    ("1..9:4", [1, 5, 9]),
    ("bind", ["bind"]),
]


@pytest.mark.parametrize("form,frames", FORMS, ids=[repr(f) for f, _ in FORMS])
def test_frames_forms_select_those_frames(bend, form, frames):
    r = bend.tension(frames=form)
    assert r.frames == frames
    assert r.t.shape[0] == len(frames)
    # The same frames as the CLI's text for them, value for value.
    text = ",".join(map(str, frames))
    assert np.array_equal(r.t, bend.tension(frames=text).t)


def test_every_binding_takes_the_forms(bend):
    assert bend.deform(frames=range(1, 92, 30)).shape[0] == 4
    assert [f for f, _ in bend.iter_tension(frames=[3, 1])] == [3, 1]
    assert bend.rivets([272], frames=range(1, 92, 45), bake=True)["frames"] == [1, 46, 91]
    fit = bend.rivets([272], frames=range(1, 92, 5))
    assert _same_fits(fit, bend.rivets([272], frames="1..91:5"))
    face = rigscope.load(FACE)
    assert face.drive(RIG, frames=range(1, 11))["frames"] == list(range(1, 11))


def _same_fits(a, b):
    def same(x, y):
        return np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
    return len(a) == len(b) and all(x.keys() == y.keys() and all(same(x[k], y[k]) for k in x) for x, y in zip(a, b))


def test_paths_take_os_pathlike(tmp_path):
    s = rigscope.load(pathlib.Path(BEND))
    assert s.file == str(BEND)
    r = s.tension(frames=61, reference=pathlib.Path(BEND))
    assert np.array_equal(r.t, s.tension(frames=61, reference=str(BEND)).t)
    face = rigscope.load(FACE, rig=RIG)  # rig= as a Path
    a, b = face.drive(frames="1..5"), face.drive(RIG, frames="1..5")
    assert all(np.array_equal(x["weights"], y["weights"]) for x, y in zip(a["series"], b["series"]))
    with pytest.raises(rigscope.BadInputError, match="missing.glb"):
        rigscope.load(tmp_path / "missing.glb")


@pytest.mark.parametrize("form", [[], (), range(0), range(5, 5)])
def test_an_empty_selection_is_the_clis_refusal(bend, form):
    # Not "" (which means the clip's own frames): no frame at all is refused.
    with pytest.raises(rigscope.BadValueError, match="frames: empty frame list"):
        bend.tension(frames=form)


@pytest.mark.parametrize("form", [1.5, True, [1, 2.5], [None], b"1..3", object()])
def test_other_types_are_a_type_error_naming_the_forms(bend, form):
    with pytest.raises(TypeError, match="frames takes an int, a list or tuple of ints, a range"):
        bend.deform(frames=form)


def test_a_frame_outside_the_clip_keeps_the_clis_message(bend):
    with pytest.raises(rigscope.BadValueError, match="frames: frame 490 is outside clip"):
        bend.tension(frames=range(490, 501))
