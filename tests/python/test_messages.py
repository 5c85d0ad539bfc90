"""The engine's messages the Python way: its warnings through `warnings` as RigscopeWarning,
once per message and naming the file; per-frame progress to the logger "rigscope"; nothing
written to stderr by the module."""
import logging
import os
import warnings

import pytest

import rigscope
from conftest import CORPUS, DATA

BEND = str(DATA / "bend_cylinder.glb")
# Its texture l.jpg is absent on purpose (corpus README): a warning, and the geometry is used.
NO_IMAGE = CORPUS / "khronos" / "interpolation_test.gltf"
# Its mesh's stored positions are not its skinning at the rest pose: one warning, about a mesh.
FBX = CORPUS / "assimp" / "FBX" / "animation_with_skeleton.fbx"
# A skin, and a walk for its skeleton whose keys run past the take: a warning about walk.fbx.
SKIN, WALK = CORPUS / "pab" / "arnaud.fbx", CORPUS / "pab" / "walk.fbx"
MORE_THREADS = 1024  # the most --threads takes; a machine with fewer cores is warned


def need_fewer_cores():
    if (os.cpu_count() or 1) >= MORE_THREADS:
        pytest.skip("this machine has as many cores as --threads takes")


def test_a_file_warning_is_a_rigscope_warning_once(capfd):
    corpus(NO_IMAGE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rigscope.load(NO_IMAGE)
    mine = [w for w in caught if issubclass(w.category, rigscope.RigscopeWarning)]
    assert len(mine) == 1, [str(w.message) for w in caught]
    assert str(mine[0].message).startswith(str(NO_IMAGE) + ": ") and "l.jpg" in str(mine[0].message)
    # Attributed to the line that called load(), this file, as warnings.warn does for a script.
    assert mine[0].filename == __file__
    assert capfd.readouterr().err == ""  # nothing printed by the module itself


def test_a_warning_without_a_file_is_given_the_sessions(capfd):
    need_fewer_cores()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rigscope.load(BEND, threads=MORE_THREADS)
    [w] = caught
    assert w.category is rigscope.RigscopeWarning
    assert str(w.message).startswith(f"{BEND}: threads={MORE_THREADS}: this machine has ")
    assert capfd.readouterr().err == ""


def test_warnings_filters_apply_an_error_filter_raises():
    need_fewer_cores()
    with warnings.catch_warnings():
        warnings.simplefilter("error", rigscope.RigscopeWarning)
        with pytest.raises(rigscope.RigscopeWarning, match="threads="):
            rigscope.load(BEND, threads=MORE_THREADS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rigscope.RigscopeWarning)
        rigscope.load(BEND, threads=MORE_THREADS)  # quiet, and loaded


def corpus(*files):
    for f in files:
        if not f.exists():
            pytest.fail("corpus file missing: " + str(f))


def test_a_warning_names_the_file_it_is_about():
    corpus(FBX, SKIN, WALK)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rigscope.load(FBX)
    assert [str(w.message) for w in caught] == [str(caught[0].message)]
    assert str(caught[0].message).startswith(f"{FBX}: mesh 'Cube': skinning at the rest pose misses the stored mesh")
    # The animation's own warning names the animation, not the file loaded.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rigscope.load(SKIN, animation=WALK)
    walk = [str(w.message) for w in caught if "outside its take" in str(w.message)]
    assert len(walk) == 1 and walk[0].startswith(f"{WALK}: animation 'walk': keys run from frame"), [str(w.message) for w in caught]


def test_a_message_logged_twice_in_one_call_is_warned_once():
    # The file is both the mesh and the animation: the engine logs the same warning for each.
    corpus(FBX)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rigscope.load(FBX, animation=FBX)
    assert len([w for w in caught if "skinning at the rest pose" in str(w.message)]) == 1


def test_the_default_filter_shows_a_warning_once_per_calling_line():
    need_fewer_cores()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            rigscope.load(BEND, threads=MORE_THREADS)
    assert len(caught) == 1


def test_progress_reaches_the_rigscope_logger(caplog):
    s = rigscope.load(BEND)
    with caplog.at_level(logging.DEBUG, logger="rigscope"):
        s.tension(frames="1..91:30")
    records = [r for r in caplog.records if r.name == "rigscope"]
    assert [r.getMessage() for r in records] == [f"frame {i} of 4" for i in range(1, 5)]
    assert all(r.levelno == logging.DEBUG for r in records)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="rigscope"):
        s.tension(frames="1..91:30")
    assert [r for r in caplog.records if r.name == "rigscope"] == []  # below the logger's level


def test_a_sessions_warnings_carry_their_kind():
    # The missing image is passed over (skipped); the FBX's rest pose is not its bind pose
    # (transform): docs/formats.md, "Warnings". The messages are info()'s.
    corpus(NO_IMAGE, FBX)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rigscope.RigscopeWarning)
        image, fbx = rigscope.load(NO_IMAGE), rigscope.load(FBX)
    assert [kind for kind, _ in image.warnings] == ["skipped"]
    assert "l.jpg" in image.warnings[0][1]
    assert [kind for kind, _ in fbx.warnings] == ["transform"]
    assert fbx.warnings[0][1].startswith("mesh 'Cube': skinning at the rest pose misses the stored mesh")
    for s in (image, fbx):
        assert [message for _, message in s.warnings] == s.info()["warnings"]
