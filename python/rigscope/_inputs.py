"""Python's forms of the engine's inputs, as the CLI's option strings, in one place.

Every binding of the extension takes frames as the CLI's `--frames` text and paths as `str`;
rigscope/__init__.py passes every call's arguments through `arguments()` first.
"""
import operator
import os

from . import _rigscope

_FRAMES_HELP = "an int, a list or tuple of ints, a range, a str such as '1..91:5' or '0,10,20', or 'bind'"


def _empty():
    # A selection of no frame: the CLI's refusal, not "" (which means the clip's own frames).
    return _rigscope.BadValueError("--frames: empty frame list")


def _frame_item(f):
    if isinstance(f, str):
        return f
    if not isinstance(f, bool):
        try:
            return str(operator.index(f))
        except TypeError:
            pass
    raise TypeError(f"frames: {f!r} is not a frame number or 'bind'; frames takes {_FRAMES_HELP}")


def frames_spec(frames):
    """`frames` as the CLI's text: None (the clip's frames) and str stay; an int is one frame, a
    range with a positive step is 'first..last:step', any other iterable a comma list."""
    if frames is None or isinstance(frames, str):
        return frames
    if isinstance(frames, range):
        if len(frames) == 0:
            raise _empty()
        if frames.step > 0:
            return f"{frames.start}..{frames[-1]}" + (f":{frames.step}" if frames.step != 1 else "")
    if isinstance(frames, bool) or isinstance(frames, (bytes, bytearray)):
        raise TypeError(f"frames: got {type(frames).__name__}; frames takes {_FRAMES_HELP}")
    try:
        return str(operator.index(frames))
    except TypeError:
        pass
    try:
        items = iter(frames)
    except TypeError:
        raise TypeError(f"frames: got {type(frames).__name__}; frames takes {_FRAMES_HELP}") from None
    spec = ",".join(_frame_item(f) for f in items)
    if not spec:
        raise _empty()
    return spec


def path_arg(value):
    """An os.PathLike as the str the engine opens; a list or tuple of them (merge's chunks) item
    by item; anything else as it is."""
    if isinstance(value, os.PathLike):
        return os.fsdecode(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, os.PathLike) for v in value):
        return type(value)(os.fsdecode(v) if isinstance(v, os.PathLike) else v for v in value)
    return value


def arguments(args, kwargs):
    """A call's arguments with `frames=` and every path converted."""
    args = tuple(path_arg(a) for a in args)
    kwargs = {k: frames_spec(v) if k == "frames" else path_arg(v) for k, v in kwargs.items()}
    return args, kwargs
