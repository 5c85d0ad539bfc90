"""The Python module against the CLI on the same files: results equal the CLI's CSV exactly
(both come from the same run layer; the CSV prints floats as the shortest text that reads back
bit for bit), and bad inputs raise the exception class of the CLI's exit code."""
import json
import signal
import threading

import numpy as np
import pytest

import rigscope
from conftest import CORPUS, DATA, ROOT, column, csv_rows

BEND = str(DATA / "bend_cylinder.glb")
FACE = str(DATA / "joystick_face.glb")
RIG = str(DATA / "joystick_face.rig.json")
CESIUM = CORPUS / "khronos" / "cesium_man.gltf"
TUBE = CORPUS.parent / "bench" / "tube_262k.glb"


def frames_of(rows):
    return [r["frame"] for r in rows]


def test_info_is_the_cli_json(cli):
    s = rigscope.load(BEND)
    assert s.info() == json.loads(cli("info", BEND, "--json"))


@pytest.mark.parametrize("path,frames", [(BEND, "1..91:9"), (str(CESIUM), "0..20:4")])
def test_deform_equals_cli_csv(cli, path, frames):
    if not CESIUM.exists() and path == str(CESIUM):
        pytest.fail("corpus file missing: " + path)
    s = rigscope.load(path)
    p = s.deform(frames=frames)
    rows = csv_rows(cli("deform", path, "--frames", frames))
    nf = len(set(frames_of(rows)))
    assert p.dtype == np.float32 and p.shape[0] == nf and p.shape[2] == 3
    want = np.stack([column(rows, c) for c in "xyz"], axis=1).reshape(nf, -1, 3)
    assert np.array_equal(p, want)


@pytest.mark.parametrize("measure", ["edge", "area", "principal"])
def test_tension_equals_cli_csv(cli, measure):
    s = rigscope.load(BEND)
    r = s.tension(frames="1..91:10", stretch_area=0.7, measure=measure)
    rows = csv_rows(cli("tension", BEND, "--frames", "1..91:10", "--stretch-area", "0.7", "--measure", measure))
    nf = len(r.frames)
    assert r.t.shape == (nf, len(rows) // nf)
    for name in ("t", "compress", "stretch"):
        assert np.array_equal(getattr(r, name).ravel(), column(rows, name)), name
    if measure == "area":
        assert np.array_equal(r.t_area.ravel(), column(rows, "t_area"))
    if measure == "principal":
        assert np.array_equal(r.lambda_max.ravel(), column(rows, "lambda_max"))
        assert np.array_equal(r.lambda_min.ravel(), column(rows, "lambda_min"))
        d = np.stack([column(rows, c) for c in ("dir_x", "dir_y", "dir_z")], axis=1)
        assert np.array_equal(r.compress_dir.reshape(-1, 3), d)
    assert r.frames == [int(f) for f in dict.fromkeys(frames_of(rows))]


def test_auto_range_equals_cli(cli):
    s = rigscope.load(BEND)
    r = s.tension(frames="1..91:15", auto_range=95)
    rows = csv_rows(cli("tension", BEND, "--frames", "1..91:15", "--auto-range", "95"))
    assert np.array_equal(r.compress.ravel(), column(rows, "compress"))
    assert np.array_equal(r.stretch.ravel(), column(rows, "stretch"))


def test_maps_are_worked_out_once_from_a_read_only_t():
    # compress and stretch come from t when first read; t is read-only so that they always match.
    r = rigscope.load(BEND).tension(frames="1..91:10")
    with pytest.raises(ValueError, match="read-only"):
        r.t[0, 0] = 2.0
    assert r.compress is r.compress and r.stretch is r.stretch
    assert r.compress.shape == r.t.shape and r.compress.dtype == np.float32
    assert r.compress.max() > 0 and r.stretch.max() > 0  # the bend both compresses and stretches


def test_iter_tension_streams_the_same_frames():
    s = rigscope.load(BEND)
    whole = s.tension(frames="1..91:30")
    seen = []
    for i, (frame, maps) in enumerate(s.iter_tension(frames="1..91:30")):
        seen.append(frame)
        assert maps.t.shape == whole.t.shape[1:]
        assert np.array_equal(maps.t, whole.t[i])
        assert np.array_equal(maps.compress, whole.compress[i])
    assert seen == whole.frames


def test_threads_give_the_same_maps():
    one = rigscope.load(BEND, threads=1).tension(frames="1..91:10")
    two = rigscope.load(BEND, threads=2).tension(frames="1..91:10")
    assert np.array_equal(one.t, two.t)


def test_rivets_equal_cli_csv(cli):
    s = rigscope.load(BEND)
    fits = s.rivets([272, 300], frames="1..91:5")
    rows = csv_rows(cli("rivet", BEND, "--vertices", "272,300", "--frames", "1..91:5", "--format", "csv"))
    assert [f["vertex"] for f in fits] == [int(r["vertex"]) for r in rows]
    for f, r in zip(fits, rows):
        assert f["joint"] == r["joint"]
        for key in ("pivot_world", "pivot_parent", "offset"):
            assert list(f[key]) == [float(r[f"{key}_{c}"]) for c in "xyz"], key
        assert f["rms_error"] == float(r["rms_error"]) and f["max_error"] == float(r["max_error"])
        assert f["rank"] == int(r["rank"])


def plain(value):
    """A result as the JSON text would hold it: arrays as lists of Python numbers."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def test_rivets_are_keyed_and_valued_as_the_cli_json(cli):
    # The CLI prints the shortest text that reads back as the same double: equal, not close.
    s = rigscope.load(BEND)
    fits = s.rivets([272, 300, 12], frames="1..91:5")
    doc = json.loads(cli("rivet", BEND, "--vertices", "272,300,12", "--frames", "1..91:5", "--format", "json"))
    assert plain(fits) == doc["rivets"]


def test_drive_is_keyed_and_valued_as_the_cli_json(cli):
    # Weights and x, y are float32 in both: the JSON's shortest text reads back as the float32.
    d = rigscope.load(FACE).drive(RIG, frames="1..97:8")
    doc = json.loads(cli("drive", FACE, "--rig", RIG, "--frames", "1..97:8", "--format", "json"))
    assert list(d) == list(doc)
    f32 = lambda xs: np.array(xs, dtype=np.float32).tolist()
    for c in doc["controls"]:
        c["x"], c["y"] = f32(c["x"]), f32(c["y"])
    for series in doc["series"]:
        series["weights"] = f32(series["weights"])
    assert plain(d) == doc


def test_baked_rivets_equal_cli_csv(cli):
    s = rigscope.load(BEND)
    b = s.rivets([272, 300], frames="1..91:10", bake=True)
    rows = csv_rows(cli("rivet", BEND, "--vertices", "272,300", "--frames", "1..91:10", "--bake", "--format", "csv"))
    pos = np.array([[float(r[c]) for c in "xyz"] for r in rows]).reshape(b["position"].shape)
    rot = np.array([[float(r[c]) for c in ("qx", "qy", "qz", "qw")] for r in rows]).reshape(b["rotation"].shape)
    assert np.array_equal(b["position"], pos) and np.array_equal(b["rotation"], rot)


def test_drive_equals_cli_csv(cli):
    s = rigscope.load(FACE)
    d = s.drive(RIG)
    rows = csv_rows(cli("drive", FACE, "--rig", RIG))
    for series in d["series"]:
        mine = [r for r in rows if r["target"] == series["target"] and r["mesh"] == series["mesh"]]
        assert np.array_equal(series["weights"], column(mine, "weight"))
        assert series["control"] == mine[0]["control"]
    assert len(d["frames"]) == len({r["frame"] for r in rows})


@pytest.mark.parametrize("call", ["deform", "tension", "auto_range", "rivets", "bake", "drive"])
def test_progress_sees_every_frame_in_order(call):
    s = rigscope.load(FACE if call == "drive" else BEND)
    seen = []
    progress = lambda done, total: seen.append((done, total))
    runs = {
        "deform": lambda: s.deform(frames="1..91:10", progress=progress),
        "tension": lambda: s.tension(frames="1..91:10", progress=progress),
        "auto_range": lambda: s.tension(frames="1..91:10", auto_range=95, progress=progress),
        "rivets": lambda: s.rivets([272], frames="1..91:10", progress=progress),
        "bake": lambda: s.rivets([272], frames="1..91:10", bake=True, progress=progress),
        "drive": lambda: s.drive(RIG, progress=progress),
    }
    runs[call]()
    n = len(s.drive(RIG)["frames"]) if call == "drive" else len(range(1, 92, 10))
    once = [(i, n) for i in range(1, n + 1)]
    # --auto-range is two passes over the frames (the range, then the maps): each reports.
    assert seen == (once * 2 if call == "auto_range" else once)


def test_an_exception_in_progress_stops_the_run_and_leaves_the_session_usable():
    s = rigscope.load(BEND)
    whole = s.tension(frames="1..91:10")

    def stop(done, total):
        if done == 3:
            raise KeyboardInterrupt  # what Ctrl-C raises between frames
    with pytest.raises(KeyboardInterrupt):
        s.tension(frames="1..91:10", progress=stop)
    with pytest.raises(ZeroDivisionError):
        s.deform(progress=lambda done, total: 1 / 0)
    again = s.tension(frames="1..91:10")
    assert np.array_equal(again.t, whole.t) and again.frames == whole.frames
    assert s.deform().shape[0] == len(s.tension().frames)


def test_ctrl_c_stops_a_run_between_frames():
    # A timer's SIGALRM, whose handler raises KeyboardInterrupt as Ctrl-C's does, fires 1 ms into
    # the call, while it prepares (the tube's topology alone takes longer on any machine). The
    # progress is a C function (dict.setdefault), so no Python code runs during the call: only
    # the module's check between frames can raise. Without it every frame would be evaluated and
    # the interrupt raised after the call.
    s = rigscope.load(str(TUBE))
    done = {}

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        with pytest.raises(KeyboardInterrupt):
            s.tension(progress=done.setdefault)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    clip = s.info()["clips"][0]
    total = round((clip["end"] - clip["start"]) * s.info()["fps"]) + 1  # the clip's frames, 24
    assert total > 1 and len(done) < total


def test_other_threads_run_while_frames_are_evaluated():
    # The call reports each frame through a C function (dict.setdefault), which runs no Python
    # code. If the call held the GIL from start to end, this thread could only ever see no frame
    # or every frame done; it sees frames in between only because evaluation releases the GIL.
    s = rigscope.load(str(TUBE))
    done = {}
    worker = threading.Thread(target=lambda: s.tension(progress=done.setdefault))
    seen = set()
    worker.start()
    while worker.is_alive():
        seen.add(len(done))
    worker.join()
    total = len(done)
    assert total > 2 and any(0 < n < total for n in seen), sorted(seen)


def test_errors_raise_the_class_of_the_cli_exit_code(tmp_path):
    with pytest.raises(rigscope.BadInputError, match="missing.glb"):
        rigscope.load(str(tmp_path / "missing.glb"))
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTF\x02\x00\x00\x00\x10\x00\x00\x00garbage!")
    with pytest.raises(rigscope.BadInputError, match="bad.glb"):
        rigscope.load(str(bad))
    s = rigscope.load(BEND)
    with pytest.raises(rigscope.BadValueError, match=r"frames: '1\.\.x'"):
        s.deform(frames="1..x")
    with pytest.raises(rigscope.BadValueError, match="stretch_area"):
        s.tension(stretch_area=2.0)
    with pytest.raises(rigscope.MismatchError, match="vertices"):
        s.tension(reference=FACE)
    with pytest.raises(rigscope.MismatchError, match="no clip .nope."):
        rigscope.load(BEND, clip="nope")
    with pytest.raises(rigscope.BadValueError, match="vertices: .*vertex 99999 is out of range"):
        s.rivets([99999])
    with pytest.raises(rigscope.BadValueError, match="threads"):
        rigscope.load(BEND, threads=5000)
    with pytest.raises(rigscope.BadValueError, match="fps"):
        rigscope.load(BEND, fps=-1.0)
    with pytest.raises(rigscope.BadValueError, match="auto_range"):
        s.tension(auto_range=20)
    assert issubclass(rigscope.MismatchError, rigscope.Error)


def test_result_arrays_past_max_memory_are_refused_before_the_run():
    # bend_cylinder at 2400 fps: 9001 frames x 625 vertices. t alone is 21.5 MiB, deform's
    # positions 64.4 MiB; a 16 MiB budget loads the file (a few hundred KB) but holds neither.
    s = rigscope.load(BEND, fps=2400, max_memory=16)
    calls = []
    with pytest.raises(rigscope.BadValueError, match=r"tension\(\): its arrays need 22 MiB for 9001 frames, more than max_memory \(16 MiB\)"):
        s.tension(progress=lambda done, total: calls.append(done))
    with pytest.raises(rigscope.BadValueError, match=r"deform\(\): its arrays need 65 MiB .*max_memory \(16 MiB\)"):
        s.deform(progress=lambda done, total: calls.append(done))
    assert calls == []  # refused before the first frame
    # What fits still runs, and a budget that holds the arrays lets the whole range through.
    assert s.tension(frames="100..4000").t.shape == (3901, 625)
    assert rigscope.load(BEND, fps=2400, max_memory=24).tension().t.shape == (9001, 625)
