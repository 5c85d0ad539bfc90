#!/usr/bin/env python3
"""Validates rigscope's JSON outputs against docs/schema/, in one process for every file.

Usage: json_schema_check.py SCHEMA_DIR MANIFEST

Each MANIFEST line is `SCHEMA<TAB>FILE`: FILE (a .json output, or an .html report whose
<script id="rigscope-data"> element holds the document) must be valid against
SCHEMA_DIR/SCHEMA.schema.json, and where that schema takes the header, its first members must be
the header's, in order. Then each
document is mutated so that it must fail, showing the schema can: the header's "command"
dropped, "command" of another verb, a member of another type, an unknown member added to the
top level and to the first closed object nested in an array, and the schema's own range cases
(RANGE_CASES) where the document has the member. Prints one line per failure, then a count;
exit 1 when anything failed.
"""
import copy
import html.parser
import json
import pathlib
import sys

import jsonschema

HEADER = ["rigscope", "command", "input"]

# Per schema, (JSON path, value) pairs a valid document cannot hold: ranges, enums and the frame
# form (a number or "bind"). A path element "*" is the first element of an array.
RANGE_CASES = {
    "tension": [(["vertices", "*", "compress", "*"], 1.5), (["vertices", "*", "stretch", "*"], -0.25),
                (["frames", "*", "frame"], "7"), (["meshes", "*", "welded_vertices"], -1),
                (["frames", "*", "meshes", "*", "min_t"], 0), (["parameters", "stretch_area"], 2)],
    "check": [(["limits", "*", "limit"], "max_size"), (["limits", "*", "worst", "*", "vertices"], []),
              (["worst"], -1)],
    "diff": [(["summary", "percentiles", "displacement", "50"], -1e-3), (["frames", "*", "frame"], 1.5),
             (["summary", "max_displacement", "relative"], "0"), (["summary", "seams_torn", "*", "gap"], -0.5)],
    "deform": [(["frames", "*", "meshes", "*", "positions", "*"], [0, 0]), (["frames", "*", "frame"], None)],
    "rivet": [(["mode"], "solve"), (["rivets", "*", "rank"], 7), (["bake", "*", "qw"], 1.5),
              (["rivets", "*", "influences", "*", "weight"], 1.01)],
    "drive": [(["series", "*", "weights", "*"], 1.25), (["controls", "*", "x", "*"], -2)],
    "info": [(["format"], "OBJ"), (["skins", "*", "method"], "linear"), (["up_axis"], "W"), (["nodes"], 0.5)],
    "rom": [(["frames_per_sweep"], 6), (["sweeps", "*", "axis"], "W"), (["angle_deg"], 180)],
    "intersect": [(["frames", "*", "pairs"], -1), (["frames", "*", "length"], -0.5), (["weld"], "on"), (["frames", "*", "by_joint"], [])],
    "lint": [(["findings", "*", "severity"], "fatal"), (["counts", "error"], -1), (["checks", "*"], "spelling")],
    "chunk": [(["rigscope_chunk"], 2), (["inputs", "*", "fnv1a64"], "xyz"), (["chunk", "count"], 0),
              (["state", "diff", "meshes", "*", "seams", "*"], [1, 2, 0.5])],
    "volume": [(["frames", "*", "frame"], 2.5), (["meshes", "*", "faces"], -1), (["meshes", "*", "closed"], "yes")],
    "regions": [(["map"], "area"), (["regions", "*", "vertices"], 0), (["regions", "*", "values", "*"], "0.5")],
    "report": [(["t_encoding", "bits"], 12), (["meshes", "*", "motion"], "teleport"), (["meshes", "*", "t"], "not base64!")],
}


class DataScript(html.parser.HTMLParser):
    """The text of <script id="rigscope-data"> in a report page."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.inside = False
        self.parts = []
        self.found = False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and dict(attrs).get("id") == "rigscope-data":
            self.inside = self.found = True

    def handle_endtag(self, tag):
        if tag == "script":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.parts.append(data)


def load_document(path):
    text = pathlib.Path(path).read_text(encoding="utf-8")
    if path.endswith(".html"):
        p = DataScript()
        p.feed(text)
        if not p.found:
            raise ValueError("no <script id=\"rigscope-data\"> element")
        text = "".join(p.parts)
    return json.loads(text)


def walk(doc, path):
    """The container and key at path (None when the document lacks it)."""
    node = doc
    for i, k in enumerate(path):
        last = i == len(path) - 1
        if k == "*":
            if not isinstance(node, list) or not node:
                return None
            k = 0
        elif not isinstance(node, dict) or k not in node:
            return None
        if last:
            return node, k
        node = node[k]
    return None


def other_type(v):
    if isinstance(v, bool):
        return "true"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return 12345
    if isinstance(v, list):
        return {"list": v}
    if isinstance(v, dict):
        return [v]
    return 0  # null


def first_nested_object(doc):
    """The first object inside an array, depth first: a closed record every schema describes."""
    stack = [(doc, False)]
    while stack:
        node, in_array = stack.pop(0)
        if isinstance(node, dict):
            if in_array and node:
                return node
            stack = [(v, False) for v in node.values()] + stack
        elif isinstance(node, list):
            stack = [(v, True) for v in node] + stack
    return None


def mutations(name, doc):
    """(description, mutated document) pairs, each of which the schema must refuse."""
    out = []
    d = copy.deepcopy(doc)
    d.pop("command", None)
    out.append(("header's command dropped", d))
    d = copy.deepcopy(doc)
    d["command"] = "info" if doc.get("command") != "info" else "tension"  # no chunk record is info's
    out.append(("command of another verb", d))
    own = [k for k in doc if k not in HEADER]
    if own:
        d = copy.deepcopy(doc)
        d[own[0]] = other_type(d[own[0]])
        out.append(("'%s' of another type" % own[0], d))
    d = copy.deepcopy(doc)
    d["unexpected_member"] = 1
    out.append(("unknown top-level member", d))
    d = copy.deepcopy(doc)
    nested = first_nested_object(d)
    if nested is not None:
        nested["unexpected_member"] = 1
        out.append(("unknown member in a nested record", d))
    for path, value in RANGE_CASES.get(name, []):
        d = copy.deepcopy(doc)
        at = walk(d, path)
        if at is None:
            continue
        at[0][at[1]] = value
        out.append(("%s = %s" % ("/".join(path), json.dumps(value)), d))
    return out


def main():
    schema_dir = pathlib.Path(sys.argv[1]).resolve()
    store = {}
    for f in sorted(schema_dir.glob("*.schema.json")):
        s = json.loads(f.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(s)
        store[f.as_uri()] = s
    validators = {}

    def validator(name):
        if name not in validators:
            uri = (schema_dir / (name + ".schema.json")).as_uri()
            resolver = jsonschema.RefResolver(base_uri=uri, referrer=store[uri], store=store)
            validators[name] = jsonschema.Draft202012Validator(store[uri], resolver=resolver)
        return validators[name]

    failures = passes = 0
    ranges_used = set()
    for line in pathlib.Path(sys.argv[2]).read_text().splitlines():
        if not line.strip():
            continue
        name, path = line.split("\t")
        what = "%s (%s)" % (path, name)
        try:
            doc = load_document(path)
        except (OSError, ValueError) as e:
            print("FAIL: %s: not a JSON document: %s" % (what, e))
            failures += 1
            continue
        errors = sorted(validator(name).iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            failures += 1
            print("FAIL: %s: %d schema errors, the first:" % (what, len(errors)))
            for e in errors[:3]:
                print("  at /%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message[:300]))
        else:
            passes += 1
        # The header opens every command's output; the chunk record, which does not take the
        # header schema, opens with its own format number.
        takes_header = store[(schema_dir / (name + ".schema.json")).as_uri()].get("$ref") == "header.schema.json"
        head = [k for k in doc][:3] if isinstance(doc, dict) else []
        if takes_header and head != HEADER:
            failures += 1
            print("FAIL: %s: first members %s, expected %s" % (what, head, HEADER))
        elif takes_header:
            passes += 1
        for desc, bad in mutations(name, doc):
            if validator(name).is_valid(bad):
                failures += 1
                print("FAIL: %s: the schema accepts the output with %s" % (what, desc))
            else:
                passes += 1
                if "=" in desc:
                    ranges_used.add((name, desc.split(" = ")[0]))
    # Every range case met a document that has its member: none is dead.
    for name, cases in RANGE_CASES.items():
        for path, _ in cases:
            if (name, "/".join(path)) not in ranges_used:
                failures += 1
                print("FAIL: %s: no output exercised the range case %s" % (name, "/".join(path)))
    print("json schemas: %d passed, %d failed" % (passes, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
