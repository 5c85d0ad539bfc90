"""The stub (python/rigscope/__init__.pyi) against the bindings, so that the two cannot drift:
the tension keywords' table (python/tension_keywords.h, exported as _tension_keywords) appears in
every call that evaluates T, in its order and with its defaults, in the stub and in the bindings;
and every default the stub writes as a literal is the binding's (which reads it from the C++
structs: 8192 MiB, 60 degrees, 10 worst, 40 MB...)."""
import ast

from rigscope import _rigscope
from conftest import ROOT

STUB = ROOT / "python" / "rigscope" / "__init__.pyi"
TENSION_CALLS = ("tension", "iter_tension", "check", "report")


def stub_defs():
    """(class name or None, FunctionDef) for every def of the stub, overloads included."""
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield None, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield node.name, item


def stub_params(fn):
    """[(name, default)] of a stub def, keyword-only ones included; default is Ellipsis for
    `= ...`, a missing object for none, else the literal."""
    a = fn.args
    positional = a.posonlyargs + a.args
    out = []
    pos_defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(positional, pos_defaults):
        out.append((arg.arg, d))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, d))
    return [(name, NONE if d is None else ast.literal_eval(d) if not (isinstance(d, ast.Constant) and d.value is Ellipsis) else ...)
            for name, d in out if name != "self"]


NONE = object()  # no default


def split_top(text):
    """Splits pybind11's parameter text at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def binding_params(obj, name):
    """[(name, default)] from a binding's pybind11 signature line (its docstring's first line);
    default NONE where there is none, the repr's value where it is a literal, else its text."""
    first = obj.__doc__.lstrip().splitlines()[0]
    assert first.startswith(name + "("), first
    inner = first[len(name) + 1:first.rindex(") ->")] if ") ->" in first else first[len(name) + 1:first.rindex(")")]
    out = []
    for p in split_top(inner):
        if p in ("*", "/") or p.startswith("self"):
            continue
        head, _, default = p.partition(" = ")
        pname = head.split(":")[0].strip()
        if not default:
            out.append((pname, NONE))
            continue
        try:
            out.append((pname, ast.literal_eval(default)))
        except (ValueError, SyntaxError):
            out.append((pname, default))
    return out


def binding_of(cls, name):
    owner = _rigscope if cls is None else getattr(_rigscope, cls, None)
    return getattr(owner, name, None) if owner is not None else None


def table_names():
    return [k for k, _ in _rigscope._tension_keywords]


def test_the_table_is_each_tension_calls_keywords_in_stub_and_bindings():
    table = list(_rigscope._tension_keywords)
    names = table_names()
    assert names[:6] == ["reference", "reference_frame", "reference_match", "reference_scale", "reference_tolerance", "falloff"]
    assert len(names) == 13
    seen = set()
    for cls, fn in stub_defs():
        if cls != "Session" or fn.name not in TENSION_CALLS:
            continue
        seen.add(fn.name)
        for where, params in (("stub", stub_params(fn)), ("binding", binding_params(binding_of(cls, fn.name), fn.name))):
            got = [n for n, _ in params]
            assert names[0] in got, f"{where} Session.{fn.name} lacks the tension keywords"
            i = got.index(names[0])
            assert got[i:i + len(names)] == names, f"{where} Session.{fn.name}: {got[i:i + len(names)]} is not the table {names}"
            for (n, d), (_, want) in zip(params[i:i + len(names)], table):
                # The stub may leave a float default to the binding (`= ...`); any it writes is the table's.
                assert d is ... or d == want, f"{where} Session.{fn.name}: {n} defaults to {d!r}, the table to {want!r}"
    assert seen == set(TENSION_CALLS)


def test_every_literal_default_of_the_stub_is_the_bindings():
    checked = 0
    for cls, fn in stub_defs():
        obj = binding_of(cls, fn.name)
        if obj is None or not getattr(obj, "__doc__", None) or not obj.__doc__.lstrip().startswith(fn.name + "("):
            continue  # pure Python, a property, or an overloaded binding without one signature line
        bound = dict(binding_params(obj, fn.name))
        for name, default in stub_params(fn):
            assert name in bound, f"{cls or 'rigscope'}.{fn.name}: the stub's {name} is no keyword of the binding"
            if default is ... or default is NONE:
                continue
            assert bound[name] == default, f"{cls or 'rigscope'}.{fn.name}({name}): stub {default!r}, binding {bound[name]!r}"
            checked += 1
    # load(), diff(), batch(), check() and report() write such defaults at least.
    assert checked >= 20


def test_the_keywords_are_the_option_tables():
    """The tension keywords (python/tension_keywords.h) are exactly the Python keywords of the
    shared options' table (rigscope/run/option_table.h, exported as _tension_options), and each
    keyword's default is the table's: the value the CLI's option defaults to."""
    rows = list(_rigscope._tension_options)
    assert len(rows) >= 12 and all(name.startswith("--") for name, _, _ in rows)
    table = {keyword: default for _, keyword, default in rows if keyword is not None}
    keywords = dict(_rigscope._tension_keywords)
    assert set(keywords) == set(table), f"keywords {sorted(keywords)}, the table's {sorted(table)}"
    for keyword, default in keywords.items():
        if default is None:
            continue  # unset in Python: what the table's shown default says unset means
        want = table[keyword]
        if isinstance(default, str):
            assert default == want, f"{keyword}: {default!r}, the table {want!r}"
        else:
            assert float(want) == default, f"{keyword}: {default!r}, the table {want!r}"
