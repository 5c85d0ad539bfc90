"""rigscope: tension maps, rivets and joystick drivers for skinned, animated meshes (FBX, glTF,
Collada), on the same engine as the rigscope CLI. docs/python.md has the API and examples.

The bindings live in the compiled extension rigscope._rigscope. This package exports each of
them wrapped once, here, so that every binding (the extension's functions and its classes'
methods, whichever file of python/ defines them) behaves the same way:
- its inputs take Python's forms: `frames` an int, a list of ints, a range or the CLI's text;
  paths os.PathLike as well as str (_inputs.py);
- the engine's warnings become warnings.warn(..., RigscopeWarning) once per message, naming the
  file, and its other messages go to the logger "rigscope"; nothing is printed to stderr.
"""
import functools
import logging
import warnings

from . import _inputs, _rigscope

__version__ = _rigscope.__version__

_log = logging.getLogger("rigscope")


class RigscopeWarning(UserWarning):
    """A warning from the engine about an input that was still used (the CLI prints it to
    stderr): the message starts with the file it is about."""


def _report(file, names):
    # stacklevel 3: the user's line that called the binding (_report <- the wrapper <- it).
    for level, text in _rigscope._take_messages():
        if file and not any(text.startswith(n + ":") for n in names):
            text = f"{file}: {text}"
        if level >= logging.WARNING:
            warnings.warn(text, RigscopeWarning, stacklevel=3)
        else:
            _log.log(level, text)


def _wrap(fn, method):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        args, kwargs = _inputs.arguments(args, kwargs)
        names = [a for a in (*args, *kwargs.values()) if isinstance(a, str)]
        if method:
            file = getattr(args[0], "file", None) if args else None
        else:
            file = next((a for a in args if isinstance(a, str)), kwargs.get("file"))
        try:
            return fn(*args, **kwargs)
        finally:
            _report(file if isinstance(file, str) else None, names)

    return call


_CALLED_DUNDERS = {"__init__", "__call__", "__next__"}


def _wrap_class(cls):
    for name, attr in list(vars(cls).items()):
        if name.startswith("__") and name not in _CALLED_DUNDERS:
            continue
        if isinstance(attr, staticmethod):
            setattr(cls, name, staticmethod(_wrap(attr.__func__, False)))
        elif callable(attr) and not isinstance(attr, (type, classmethod)):
            setattr(cls, name, _wrap(attr, True))
    cls.__module__ = __name__
    return cls


def _export(obj):
    if isinstance(obj, type):
        if issubclass(obj, BaseException):
            obj.__module__ = __name__
            return obj
        return _wrap_class(obj)
    if callable(obj):
        return _wrap(obj, False)
    return obj


__all__ = ["RigscopeWarning"]
for _name, _obj in vars(_rigscope).items():
    if not _name.startswith("_"):
        globals()[_name] = _export(_obj)
        __all__.append(_name)
del _name, _obj
