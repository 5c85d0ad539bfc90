# Types of the rigscope package for editors and type checkers (PEP 561: py.typed beside it).
# The runtime is the extension rigscope._rigscope, wrapped by __init__.py; this stub describes
# what a user calls. One section per binding file of python/; a new binding adds its section:
# its functions with the inputs' Python forms (`frames: Frames = None`, paths `PathArg`) and,
# for a dict result, a TypedDict with the CLI JSON's keys. tests/python/test_docs.py runs mypy
# on docs/python.md's examples against this file.
import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, TypedDict, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

# --- Inputs (_inputs.py) ---------------------------------------------------------------------
# A path: str or os.PathLike (pathlib.Path).
PathArg = Union[str, "os.PathLike[str]"]
# frames=: one frame, a list or tuple of frames, a range, the CLI's --frames text ("1..91:5",
# "0,10,20"), or "bind"; None: the clip's own frames.
Frames = Union[None, int, str, range, Iterable[Union[int, str]]]
# progress=: called after each frame as progress(done, total).
Progress = Optional[Callable[[int, int], object]]
# Vertex indices: a list, tuple, range or integer numpy array.
Vertices = Union[Sequence[int], npt.NDArray[np.integer[Any]]]

# --- Results ---------------------------------------------------------------------------------
# A method's result is typed "the value | Any": it is the value itself for one mesh and a dict
# keyed by mesh name for several; the Any (typeshed's "Any trick") lets single-mesh scripts check
# cleanly, and a multi-mesh script casts: typing.cast(Dict[str, TensionResult], s.tension()).
# The names below (PathArg ... DriveResult) exist for type checkers only, not at run time.
Float32Array = npt.NDArray[np.float32]
Float64Array = npt.NDArray[np.float64]
Int64Array = npt.NDArray[np.int64]

# --- Errors and warnings (rigscope_module.cpp, __init__.py) ----------------------------------
class Error(Exception): ...
class BadValueError(Error): ...
class BadInputError(Error): ...
class CannotWriteError(Error): ...
class MismatchError(Error): ...
class InternalError(Error): ...
class RigscopeWarning(UserWarning): ...

# --- Results (session.cpp, tension_result.cpp) -----------------------------------------------
class TensionResult:
    """tension()'s maps of one mesh."""
    mesh: str
    frames: List[Union[int, str]]
    times: Float64Array
    t: Float32Array
    t_s: float
    t_c: float
    # measure="area"
    t_area: Float32Array
    # measure="principal"
    lambda_max: Float32Array
    lambda_min: Float32Array
    compress_dir: Float32Array
    @property
    def compress(self) -> Float32Array: ...
    @property
    def stretch(self) -> Float32Array: ...

class FrameMaps:
    """One frame's maps from iter_tension() (a types.SimpleNamespace at run time)."""
    t: Float32Array
    compress: Float32Array
    stretch: Float32Array
    t_area: Float32Array
    lambda_max: Float32Array
    lambda_min: Float32Array
    compress_dir: Float32Array

class TensionFrames(Iterator[Tuple[Union[int, str], Any]]):
    def __iter__(self) -> "TensionFrames": ...
    def __next__(self) -> Tuple[Union[int, str], Union[FrameMaps, Any]]: ...

class RivetInfluence(TypedDict):
    joint: str
    weight: float

class RivetFit(TypedDict):
    """One item of `rigscope rivet --format json`'s "rivets"."""
    vertex: int
    joint: str
    parent: Optional[str]
    influences: List[RivetInfluence]
    analytic_pivot: Optional[Float64Array]
    pivot_world: Float64Array
    pivot_parent: Float64Array
    offset: Float64Array
    rank: int
    rms_error: float
    max_error: float
    max_error_relative: float

class RivetBake(TypedDict):
    """rivets(bake=True): the CLI's "bake" rows as arrays."""
    frames: List[Union[int, str]]
    times: Float64Array
    vertices: List[int]
    position: Float64Array  # (frames, vertices, 3)
    rotation: Float64Array  # (frames, vertices, 4), quaternion x, y, z, w

class IntersectResult(TypedDict):
    # Session.intersect() (intersect_calls.cpp): the rows of `rigscope intersect --format csv`
    # column by column, and per frame its JSON's pairs and length.
    frames: List[Union[int, str]]
    times: Float64Array
    meshes: List[str]
    joints: List[str]
    frame: Int64Array   # per pair: index into frames
    mesh_a: Int64Array  # index into meshes
    face_a: Int64Array
    mesh_b: Int64Array
    face_b: Int64Array
    joint: Int64Array   # index into joints, -1 where neither face is skinned
    pairs: Int64Array   # per frame
    length: Float64Array  # per frame: metres of the crossings
    zero_area_triangles: int

class DriveControl(TypedDict):
    control: str
    node: str
    x: Float32Array
    y: Float32Array

class DriveSeries(TypedDict):
    control: str
    mesh: str
    target: str
    weights: Float32Array

class VolumeResult(TypedDict):
    """volume(): `rigscope volume`'s CSV rows as arrays: row (frame f, column c) is
    frames[f], mesh[c], region[c] ("*" for a closed mesh), volume[f, c], ratio[f, c] (NaN where the
    bind measure is too close to 0 to divide by)."""
    frames: List[Union[int, str]]
    times: Float64Array
    mesh: List[str]
    region: List[str]
    volume: Float64Array  # (frames, columns)
    ratio: Float64Array  # (frames, columns)
    closed: Dict[str, bool]  # per measured mesh: closed once welded
    notes: List[str]  # open meshes, meshes without faces, skipped faces

class DriveResult(TypedDict):
    """The keys of `rigscope drive --format json`."""
    input: str
    rig: str
    clip: Optional[str]
    fps: float
    frames: List[Union[int, str]]
    times: Float64Array
    controls: List[DriveControl]
    series: List[DriveSeries]

# --- Rig CI results (check_calls.cpp) ----------------------------------------------------------
class CheckResult:
    """check()'s verdict: `summary` is what `rigscope check --json` writes."""
    passed: bool
    failures: List[Dict[str, Any]]
    summary: Dict[str, Any]
    report: str
    junit: str
    def __bool__(self) -> bool: ...

# merge(): joins --chunk outputs as `rigscope merge OUT CHUNK...` (keys command, chunks, passed, report).
def merge(out: PathArg, chunks: Sequence[PathArg], *, junit: Optional[PathArg] = None) -> Dict[str, Any]: ...

# --- Rig CI over many files (batch_calls.cpp) ------------------------------------------------------
# paths: files, folders (searched for .fbx .gltf .glb .dae .usd*) and "@list.txt"; verb "check",
# "lint", "tension", "report", "info", "deform", "intersect", "volume" or "diff" (tension, report,
# deform, intersect and volume need output= with a placeholder; format= as --format; check also
# takes max_volume_loss= and max_intersections=; diff pairs each path with the file of its
# relative path under against=, or reads ["@pairs.txt"], and takes max_displacement=,
# max_t_change=, match=; its rows also have "new"). Returns a row per file, as `--summary s.json` writes its
# "files": file, path, status ("pass", "fail", "ok" for a verb that judges nothing, "error",
# "not checked"), exit_code, frames, meshes, vertices, min_t and
# max_t ({value, mesh, vertex, frame} or None), past ({limit: file vertices}), lint
# ({errors, warnings} or None), message, seconds, peak_mib. junit=, json=, output=, summary= write
# as the CLI's options do (placeholders {stem} {name} {ext} {relpath} {dir}).
def batch(
    paths: Sequence[str],
    verb: str = "check",
    *,
    max_stretch: Optional[float] = None,
    max_compress: Optional[float] = None,
    max_lambda: Optional[float] = None,
    min_lambda: Optional[float] = None,
    measure: Optional[str] = None,
    frames: Optional[str] = None,
    rom: bool = False,
    lint: bool = False,
    strict: bool = False,
    mesh: Optional[str] = None,
    jobs: int = 1,
    task: Optional[str] = None,
    junit: Optional[str] = None,
    json: Optional[str] = None,
    output: Optional[str] = None,
    summary: Optional[str] = None,
    format: Optional[str] = None,
    against: Optional[str] = None,
    max_displacement: Optional[float] = None,
    max_t_change: Optional[float] = None,
    match: Optional[str] = None,
    max_memory: float = 8192.0,
    max_output: float = 2000.0,
    max_volume_loss: Optional[float] = None,
    max_intersections: Optional[int] = None,
) -> List[Dict[str, Any]]: ...

# --- Rig CI: diff (diff_calls.cpp) ----------------------------------------------------------------
class DiffMesh:
    """One mesh pair of diff(): columns are OLD's welded vertices."""
    name: str
    new_name: str
    diagonal: float
    vertex: npt.NDArray[np.integer[Any]]
    new_vertex: npt.NDArray[np.integer[Any]]
    displacement: Float32Array  # (frames, vertices), metres
    t_change: Float32Array      # (frames, vertices)

class DiffResult:
    meshes: Dict[str, DiffMesh]
    frames: List[Union[int, str]]
    times: Float64Array
    frame_offset: int
    summary: Dict[str, Any]  # the CLI JSON's "summary"
    report: str
    passed: bool

def diff(
    old: PathArg,
    new: PathArg,
    *,
    frames: Frames = None,
    chunk: Optional[Tuple[int, int]] = None,
    mesh: Optional[str] = None,
    clip: Optional[str] = None,
    fps: Optional[float] = None,
    weld: bool = True,
    match: str = "index",  # or "position"
    match_tolerance: Optional[float] = None,
    align: Optional[str] = None,  # "start"
    frame_offset: Optional[int] = None,
    max_displacement: Optional[float] = None,
    max_t_change: Optional[float] = None,
    worst: int = 10,
    rom: bool = False,
    joints: Optional[str] = None,
    rom_angle: float = 60.0,
    rom_frames: int = 24,
    max_memory: float = 8192.0,
    allow_outside_uris: bool = False,
    threads: int = 0,
    output: Optional[PathArg] = None,  # the CLI's -o file; chunk= needs one
    format: Optional[str] = None,  # "csv", "json" or "gltf" (default: from output's extension, else csv)
    progress: Progress = None,
) -> DiffResult: ...

# --- The session (session.cpp) ---------------------------------------------------------------
class Session:
    @property
    def file(self) -> str: ...
    @property
    def warnings(self) -> List[Tuple[str, str]]: ...  # (kind, message) of each reader warning
    def info(self) -> Dict[str, Any]: ...
    def deform(self, *, frames: Frames = None, progress: Progress = None) -> Union[Float32Array, Any]: ...
    def tension(
        self,
        *,
        frames: Frames = None,
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,  # "index" or "position" (default: load()'s, else index)
        reference_scale: Optional[float] = None,  # the reference's positions times this (default: load()'s)
        reference_tolerance: Optional[float] = None,  # reference_match="position": pair within this fraction of the diagonal (default 1e-4)
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",  # "edge", "area" or "principal"
        smooth: int = 0,
        smooth_weights: str = "uniform",  # "uniform" or "cotan"
        auto_range: Optional[float] = None,
        clip: Optional[str] = None,  # a clip's name or index for this call; "all": a dict of results by clip
        progress: Progress = None,
    ) -> Union[TensionResult, Any]: ...  # clip="all": Dict[str, TensionResult]
    def iter_tension(
        self,
        *,
        frames: Frames = None,
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,  # "index" or "position" (default: load()'s, else index)
        reference_scale: Optional[float] = None,  # the reference's positions times this (default: load()'s)
        reference_tolerance: Optional[float] = None,  # reference_match="position": pair within this fraction of the diagonal (default 1e-4)
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",  # "edge", "area" or "principal"
        smooth: int = 0,
        smooth_weights: str = "uniform",  # "uniform" or "cotan"
        auto_range: Optional[float] = None,
    ) -> TensionFrames: ...
    @overload
    def rivets(
        self, vertices: Vertices, *, joint: Optional[str] = None, frames: Frames = None, bake: Literal[False] = False,
        clip: Optional[str] = None, progress: Progress = None,
    ) -> List[RivetFit]: ...  # clip="all": Dict[str, List[RivetFit]]
    @overload
    def rivets(
        self, vertices: Vertices, *, joint: None = None, frames: Frames = None, bake: Literal[True], clip: Optional[str] = None,
        progress: Progress = None,
    ) -> RivetBake: ...  # clip="all": Dict[str, RivetBake]
    def volume(self, *, frames: Frames = None, progress: Progress = None) -> VolumeResult: ...
    def drive(self, rig: Optional[PathArg] = None, *, frames: Frames = None, progress: Progress = None) -> DriveResult: ...
    def intersect(self, *, frames: Frames = None, progress: Progress = None) -> IntersectResult: ...
    # Texture space and regions (bake_calls.cpp, issue 60): `rigscope bake` and `rigscope regions`.
    # bake(): per mesh float32 (frames, size, size), row 0 first (glTF: v = 0; FBX, USD: v = 1).
    def bake(
        self,
        *,
        frames: Frames = None,
        map: str = "compress",  # "compress", "stretch", "tension", "area", "lambda_max", "lambda_min" or "color"
        size: int = 1024,
        padding: int = 2,
        range: Optional[Tuple[float, float]] = None,  # (lo, hi): values written as (v - lo) / (hi - lo)
        uv: Optional[str] = None,  # a UV set by name (default: each mesh's first)
        color: str = "maps",  # map="color": "maps" (R compress, G stretch, B 0) or "t" (a T ramp)
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,
        reference_scale: Optional[float] = None,
        reference_tolerance: Optional[float] = None,
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",
        smooth: int = 0,
        smooth_weights: str = "uniform",
        progress: Progress = None,
    ) -> Union[Float32Array, Dict[str, Float32Array]]: ...
    # regions(): frames, times, regions [(mesh, region)], values float64 (frames, regions).
    def regions(
        self,
        *,
        frames: Frames = None,
        by: str = "joints",  # "joints", "@regions.json" or "masks/{region}.png"
        map: str = "compress",  # "compress", "stretch" or "tension"
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,
        reference_scale: Optional[float] = None,
        reference_tolerance: Optional[float] = None,
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",
        smooth: int = 0,
        smooth_weights: str = "uniform",
        progress: Progress = None,
    ) -> Any: ...
    # Rig lint (lint_calls.cpp): `rigscope lint --format json` as a dict (findings, counts,
    # failed, checks, parameters).
    def lint(
        self,
        *,
        weight_tolerance: float = ...,
        max_influences: int = ...,
        min_weight: float = ...,
        mirror: Optional[str] = None,  # "x", "y" or "z"
        mirror_names: Sequence[str] = ...,
        mirror_tolerance: float = ...,
        bind_tolerance: float = ...,
        scale_tolerance: float = ...,
        strict: bool = False,
    ) -> Dict[str, Any]: ...
    # Rig CI (check_calls.cpp): check, report, rom as the CLI's commands.
    def check(
        self,
        *,
        max_stretch: Optional[float] = None,
        max_compress: Optional[float] = None,
        max_lambda: Optional[float] = None,
        min_lambda: Optional[float] = None,
        max_volume_loss: Optional[float] = None,  # 1 - volume ratio, any closed mesh or joint region, any frame
        max_intersections: Optional[int] = None,  # face pairs crossing in any frame (intersect)
        worst: int = 10,
        frames: Frames = None,
        chunk: Optional[Tuple[int, int]] = None,
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,  # "index" or "position" (default: load()'s, else index)
        reference_scale: Optional[float] = None,  # the reference's positions times this (default: load()'s)
        reference_tolerance: Optional[float] = None,  # reference_match="position": pair within this fraction of the diagonal (default 1e-4)
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",
        smooth: int = 0,
        smooth_weights: str = "uniform",
        html: Optional[PathArg] = None,
        junit: Optional[PathArg] = None,
        clip: Optional[str] = None,
        progress: Progress = None,
    ) -> CheckResult: ...
    def report(
        self,
        path: PathArg,
        *,
        worst: int = 10,
        max_size: float = 40.0,
        frames: Frames = None,
        reference: Optional[PathArg] = None,
        reference_frame: Optional[int] = None,
        reference_match: Optional[str] = None,  # "index" or "position" (default: load()'s, else index)
        reference_scale: Optional[float] = None,  # the reference's positions times this (default: load()'s)
        reference_tolerance: Optional[float] = None,  # reference_match="position": pair within this fraction of the diagonal (default 1e-4)
        falloff: float = ...,
        stretch_area: float = ...,
        compress_area: float = ...,
        weight_limit: float = ...,
        smooth_k: float = ...,
        measure: str = "edge",
        smooth: int = 0,
        smooth_weights: str = "uniform",
        clip: Optional[str] = None,  # None: every clip (one page, a clip menu), or a clip's name or index
        progress: Progress = None,
    ) -> Dict[str, Any]: ...
    def rom(
        self,
        *,
        output: Optional[PathArg] = None,
        rom_angle: Optional[float] = None,
        rom_frames: Optional[int] = None,
        joints: Optional[str] = None,
    ) -> Dict[str, Any]: ...

def load(
    file: PathArg,
    *,
    clip: Optional[str] = None,
    animation: Optional[PathArg] = None,
    rig: Optional[PathArg] = None,
    weld: bool = True,
    mesh: Optional[str] = None,
    fps: Optional[float] = None,
    retarget: str = "rotation",  # or "full"
    max_memory: float = 8192.0,
    allow_outside_uris: bool = False,
    threads: int = 0,
    rom: bool = False,
    joints: Optional[str] = None,
    rom_angle: float = 60.0,
    rom_frames: int = 24,
    skinning: str = "file",  # "file" (the FBX skin's SkinningType), "linear" or "dq"
    cache: Optional[PathArg] = None,  # PC2, MDD or a numbered OBJ sequence animating the mesh
    reference: Optional[PathArg] = None,  # the rest mesh of tension() and check() (tension(reference=) overrides)
    reference_match: Optional[str] = None,  # "index" (default) or "position"
    reference_scale: Optional[float] = None,  # the reference's positions times this first
    abc_unit: str = "m",  # Alembic archives' unit (input, cache, reference): "m", "cm" (Maya) or "mm"
) -> Session: ...
