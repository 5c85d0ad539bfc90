"""The README and the reference docs it links (docs/commands.md, rig_ci.md, lint.md,
exit_codes.md, formats.md: the manual the README was until issue 61) against the program (issue
57 item 7): the option tables of docs/commands.md against each command's --help, every option
--help lists named somewhere in the README or those docs, the README's counts against the tests
they count, the exit codes tables (README and docs/exit_codes.md) against
include/rigscope/core/error.h, the formats read (README and docs/formats.md) against the --help
description, and docs/lint.md's table of checks against the checks lint runs.

    readme_help.py RIGSCOPE

Prints one line per disagreement and exits 1 if there is any."""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = sys.argv[1]
README = Path("README.md").read_text()
COMMANDS = Path("docs/commands.md").read_text()  # every verb's options and outputs
RIG_CI = Path("docs/rig_ci.md").read_text()  # check, report, batches, diff, rom
LINT = Path("docs/lint.md").read_text()
EXIT_CODES = Path("docs/exit_codes.md").read_text()
FORMATS = Path("docs/formats.md").read_text()
problems = []


def say(text):
    problems.append(text)
    print("docs:", text)


# 0. The README links every reference doc these checks read.
for doc in ["docs/commands.md", "docs/rig_ci.md", "docs/lint.md", "docs/exit_codes.md", "docs/formats.md"]:
    if "](" + doc not in README:
        say(f"the README does not link {doc}")


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True)


short_of = {}  # a long option's one-letter alias, which the README may use instead (-o)


def help_options(command):
    """The long options `rigscope COMMAND --help` lists (CLI11: '  -o,--output TEXT  ...')."""
    out = run(command, "--help").stdout
    found = set()
    for line in out.splitlines():
        m = re.match(r"\s+(?:(-\w),)?(--[a-z][a-z0-9-]*)", line)
        if m:
            found.add(m.group(2))
            if m.group(1):
                short_of[m.group(2)] = m.group(1)
    return found


commands = [m.group(1) for m in re.finditer(r"^  ([a-z]+)\s{2,}\S", run("--help").stdout, re.M)]
if len(commands) < 8:
    say(f"rigscope --help lists {len(commands)} commands: {commands}")
options = {c: help_options(c) for c in commands if c != "help"}


def table_after(text, marker):
    """(option, meaning) of each row of the table that follows `marker` in `text`."""
    start = text.index(marker)
    rows = []
    started = False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            started = True
            m = re.match(r"\| `(--[a-z][a-z0-9-]*)[^|]*\|(.*)", line)
            if m:
                rows.append((m.group(1), m.group(2)))
        elif started:
            break
    return rows


# 1. The table of options every per-frame command shares: in each per-frame command's --help,
# except where its row says which take it: the commands it names before a ';' take it, those it
# names after do not (and must not list it).
shared = table_after(COMMANDS, "## Options shared by every per-frame command")
if len(shared) < 10:
    say(f"the shared options table has {len(shared)} rows")
per_frame = ["deform", "tension", "check", "report", "diff", "rivet", "drive"]
for o, meaning in shared:
    before, _, after = meaning.partition(";") if re.search(r"refuse|do not take|does not take", meaning) else ("", "", "")
    take = [c for c in re.findall(r"`([a-z]+)`", before) if c in options]
    refuse = [c for c in re.findall(r"`([a-z]+)`", after) if c in options]
    for c in take or [c for c in per_frame if c not in refuse]:
        if o not in options[c]:
            say(f"'{o}' is in the table of options shared by the per-frame commands, but `rigscope {c} --help` does not list it")
    for c in refuse:
        if o in options[c]:
            say(f"docs/commands.md's row of '{o}' says `{c}` does not take it, but `rigscope {c} --help` lists it")

# 2. tension's table (docs/commands.md): in tension's --help.
for o, _ in table_after(COMMANDS, "## tension"):
    if o not in options["tension"]:
        say(f"'{o}' is in tension's option table, but `rigscope tension --help` does not list it")

# 3. Every option a command's --help lists is named somewhere in the README or the reference docs
# (the manual the README was).
MANUAL = "\n".join([README, COMMANDS, RIG_CI, LINT])
named = set(re.findall(r"(--[a-z][a-z0-9-]*)", MANUAL))
for c, opts in sorted(options.items()):
    for o in sorted(opts - {"--help", "--version"}):
        if o not in named and not (o in short_of and re.search(r"(^|[\s`(])" + short_of[o] + r"[\s`]", MANUAL)):
            say(f"`rigscope {c} --help` lists '{o}', which neither the README nor docs/commands.md, rig_ci.md, lint.md names")

# 4. The bad-input catalogue's count: README, docs/robustness.md and the rows of the test.
rows = len(re.findall(r"^row ", Path("tests/cli/inputs/bad_inputs.sh").read_text(), re.M))
m = re.search(r"checks a catalogue of (\d+) broken files", README)
if not m or int(m.group(1)) != rows:
    say(f"the README's bad-input catalogue count is {m and m.group(1)}, tests/cli/inputs/bad_inputs.sh has {rows} rows")
m = re.search(r"no output, no temporary\. (\d+) rows", Path("docs/robustness.md").read_text())
if not m or int(m.group(1)) != rows:
    say(f"docs/robustness.md's catalogue count is {m and m.group(1)}, tests/cli/inputs/bad_inputs.sh has {rows} rows")

# 5. The exit codes: the README's table and docs/exit_codes.md's against the Exit enum.
def codes_after(text, marker):
    """The codes of the first table after `marker`: its rows up to the first line that is not one."""
    lines = text[text.index(marker):].splitlines()
    first = next(i for i, l in enumerate(lines) if l.startswith("|"))
    rows = []
    for l in lines[first:]:
        if not l.startswith("|"):
            break
        rows.append(l)
    return {int(v) for v in re.findall(r"^\| (\d+) \|", "\n".join(rows), re.M)}


enum = {int(v) for v in re.findall(r"kExit\w+ = (\d+)", Path("include/rigscope/core/error.h").read_text())}
for where, text, marker in [("the README's", README, "## Exit codes"), ("docs/exit_codes.md's", EXIT_CODES, "# Exit codes")]:
    table = codes_after(text, marker)
    if table != enum:
        say(f"{where} exit codes table has {sorted(table)}, include/rigscope/core/error.h {sorted(enum)}")

# 6. The formats: each family of "Files read" (docs/formats.md, and the README's summary) in --help's
# description.
description = run("--help").stdout.splitlines()[0]
files_read = README[README.index("## Files read"):README.index("## Quick start")]
for fmt in ["glTF", "FBX", "Collada", "USD", "OBJ", "PLY", "point caches"]:
    if fmt.lower() not in files_read.lower():
        say(f"'{fmt}' is not in the README's Files read")
    if fmt.lower() not in FORMATS.lower():
        say(f"'{fmt}' is not in docs/formats.md")
    if fmt.lower() not in description.lower():
        say(f"rigscope --help's description '{description}' does not name {fmt}, which the README reads")

# 7. docs/lint.md's table of checks against the checks `lint` runs (with --mirror, which adds its own).
lint_table = set(re.findall(r"^\| `([a-z_]+)` \|", LINT[LINT.index("# Rig lint"):], re.M))
with tempfile.TemporaryDirectory() as d:
    out = run("-q", "lint", "data/bend_cylinder.glb", "--mirror", "x", "--format", "json", "-o", d + "/l.json")
    checks = set(json.load(open(d + "/l.json"))["checks"]) if out.returncode in (0, 1) else set()
if not checks or lint_table != checks:
    say(f"docs/lint.md's table of checks names {sorted(lint_table - checks)} that lint does not run, and lint runs {sorted(checks - lint_table)} "
        "that it does not name")

sys.exit(1 if problems else 0)
