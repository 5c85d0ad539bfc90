#!/usr/bin/env python3
"""Checks that a move of README text into docs/ lost no line: every non-blank line of an old
README (a file, or `git show REV:README.md`) must still be a line of README.md or docs/*.md.

    scripts/readme_facts.py OLD_README [REPO_ROOT]

Lines are compared after the rewrites a move makes: leading '#' of headings and surrounding
whitespace dropped, Markdown link targets made repository-relative (docs/x.md and x.md, from
inside docs/, are the same file), and the anchors of section links ignored. A line not found
is printed with its number and the closest line now (README.md or docs/*.md); exit 1 if any. Lines that were deliberately reworded have to be
checked by hand against the printed list."""
import difflib
import re
import sys
from pathlib import Path


def norm(line, where):
    s = line.strip()
    s = re.sub(r"^#+\s*", "", s)

    def target(m):
        t = m.group(1).split("#")[0]
        if where == "docs" and not re.match(r"[a-z]+:", t):
            t = str(Path("docs", t)).replace("docs/../", "")
        return "](" + t + ")"

    s = re.sub(r"\]\(([^)]*)\)", target, s)
    return s


def main():
    old = Path(sys.argv[1]).read_text().split("\n")
    root = Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    where = {norm(l, "root"): "README.md" for l in (root / "README.md").read_text().split("\n")}
    for f in sorted((root / "docs").glob("*.md")):
        for l in f.read_text().split("\n"):
            where.setdefault(norm(l, "docs"), "docs/" + f.name)
    missing = [(i + 1, l) for i, l in enumerate(old) if l.strip() and norm(l, "root") not in where]
    for n, l in missing:
        # The closest line now, to judge the rewording by eye.
        near = difflib.get_close_matches(norm(l, "root"), list(where), n=1, cutoff=0.3)
        print("%5d: %s" % (n, l))
        print("   now %s: %s" % (where[near[0]], near[0]) if near else "   now: nothing close")
    print("%d non-blank lines, %d not found" % (sum(1 for l in old if l.strip()), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
