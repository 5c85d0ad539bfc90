#!/usr/bin/env bash
# The docs test: runs every example of the README and of the reference docs (docs/commands.md,
# rig_ci.md, lint.md, and any other docs/*.md holding a readme-test marker) and compares its
# output with the snippet the document shows (tests/cli/docs/readme_examples.py says how snippets
# are marked and compared). The four named documents are always run, markers or not, so that a
# ```sh block without a marker there still fails.
set -u
docs=(README.md docs/commands.md docs/rig_ci.md docs/lint.md)
for f in docs/*.md; do
    case " ${docs[*]} " in *" $f "*) continue ;; esac
    grep -q '<!-- readme-test:' "$f" && docs+=("$f")
done
exec python3 "$(dirname "$0")/readme_examples.py" "${1:?usage: $0 path/to/rigscope}" "${docs[@]}"
