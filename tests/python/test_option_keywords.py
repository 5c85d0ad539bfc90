"""Every verb's options table (rigscope/run/option_table.h, exported as _option_tables) against its
Python call, the bindings and the stub: a row has a keyword or says why it has none; a row's
keyword is a keyword of its verb's call; every keyword of a call is a row's (of the verb's tables
or the input options'), with the row's default; and the stub lists each call's keywords as the
binding does. test_keywords.py holds the tension keywords to their table in the same way."""
from rigscope import _rigscope
from test_keywords import NONE, binding_of, binding_params, stub_defs, stub_params

TABLES = dict(_rigscope._option_tables)
TENSION = ["tension_reference", "tension_maps"]

# verb: (its tables, its Python calls as (class or None, name)). Each call of a Session takes the
# input options load() took; those that evaluate frames take frames= (and clip=, chunk=) itself.
VERBS = {
    "tension": (TENSION + ["tension"], [("Session", "tension"), ("Session", "iter_tension")]),
    "check": (TENSION + ["check"], [("Session", "check")]),
    "report": (TENSION + ["report"], [("Session", "report")]),
    "bake": (TENSION + ["bake"], [("Session", "bake")]),
    "regions": (TENSION + ["regions"], [("Session", "regions")]),
    "lint": (["lint"], [("Session", "lint")]),
    "deform": (["deform"], [("Session", "deform")]),
    "volume": (["volume"], [("Session", "volume")]),
    "intersect": (["intersect"], [("Session", "intersect")]),
    "drive": (["drive"], [("Session", "drive")]),
    "rivet": (["rivet"], [("Session", "rivets")]),
    "info": (["info"], [("Session", "info")]),
    "rom": (["rom_input", "rom"], [("Session", "rom")]),
    # diff() loads its two files itself: the input options are its own keywords.
    "diff": (["diff"], [(None, "diff")]),
}
# Keywords that are no option: the progress callback.
NOT_OPTIONS = {"progress"}
# diff(old, new): FILE is OLD.
ALIAS = {("diff", "old"): "file"}


def rows(*names):
    return [row for name in names for row in TABLES[name]]


def keyword_rows(*names):
    return {row[1]: row for row in rows(*names) if row[1] is not None}


def call_params(cls, name):
    obj = binding_of(cls, name)
    assert obj is not None, f"no binding {cls or 'rigscope'}.{name}"
    return binding_params(obj, name)


def test_every_row_has_a_keyword_or_says_why_not():
    assert set(TABLES) >= {name for tables, _ in VERBS.values() for name in tables} | {"input"}
    for table, table_rows in TABLES.items():
        assert table_rows, table
        for option, keyword, why, _, _ in table_rows:
            assert (keyword is None) != (why is None), f"{table} {option}: keyword {keyword!r}, reason {why!r}: one of the two"


def test_each_rows_keyword_is_a_keyword_of_its_verbs_calls():
    for verb, (tables, calls) in VERBS.items():
        for cls, name in calls:
            got = {n for n, _ in call_params(cls, name)}
            for keyword, row in keyword_rows(*tables).items():
                assert keyword in got, f"{verb}: {row[0]}'s keyword {keyword} is no keyword of {cls or 'rigscope'}.{name}"


def test_each_keyword_of_a_call_is_a_rows_with_its_default():
    inputs = keyword_rows("input")
    for verb, (tables, calls) in VERBS.items():
        own = keyword_rows(*tables)
        for cls, name in calls:
            for keyword, default in call_params(cls, name):
                if keyword in NOT_OPTIONS:
                    continue
                row = own.get(keyword) or inputs.get(ALIAS.get((verb, keyword), keyword))
                assert row is not None, f"{cls or 'rigscope'}.{name}({keyword}=) has no row in {verb}'s tables or the input options'"
                check_default(f"{cls or 'rigscope'}.{name}({keyword}=)", default, row)


def check_default(where, default, row):
    """A literal default of a binding is the row's, as --help and the docs state it."""
    shown = row[3]
    if default is NONE or default is None or isinstance(default, (bool, list, tuple)) or shown == "":
        return  # unset, a flag, a list: nothing the table writes as a number or a word
    if isinstance(default, (int, float)):
        assert float(shown) == default, f"{where}: {default!r}, the table's {row[0]} {shown!r}"
    elif isinstance(default, str):
        assert default == shown, f"{where}: {default!r}, the table's {row[0]} {shown!r}"


def test_load_takes_the_input_rows_keywords():
    """load()'s keywords are input rows' (or the reference rows', the default of the calls that
    evaluate T); an input row's keyword that load() lacks is one of the calls' own (frames=,
    chunk=)."""
    load = call_params(None, "load")
    rows_by_keyword = {**keyword_rows("input"), **keyword_rows("tension_reference")}
    for keyword, default in load:
        assert keyword in rows_by_keyword, f"load({keyword}=) has no input row"
        check_default(f"load({keyword}=)", default, rows_by_keyword[keyword])
    loaded = {k for k, _ in load}
    called = {k for _, calls in VERBS.values() for cls, name in calls for k, _ in call_params(cls, name)}
    for keyword, row in keyword_rows("input").items():
        assert keyword in loaded or keyword in called, f"input row {row[0]}: no call takes {keyword}="


def test_the_stub_lists_each_calls_keywords_as_the_binding():
    defs = {}
    for cls, fn in stub_defs():
        defs.setdefault((cls, fn.name), []).append(fn)
    for cls, name in [call for _, calls in VERBS.values() for call in calls] + [(None, "load")]:
        want = [n for n, _ in call_params(cls, name)]
        assert (cls, name) in defs, f"the stub has no {cls or 'rigscope'}.{name}"
        for fn in defs[(cls, name)]:  # each overload (rivets: bake=False and bake=True)
            assert [n for n, _ in stub_params(fn)] == want, f"stub {cls or 'rigscope'}.{name}"
