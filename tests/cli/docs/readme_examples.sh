#!/usr/bin/env bash
# The docs test: runs every README example and compares its output with the snippet the README
# shows (tests/cli/docs/readme_examples.py says how snippets are marked and compared).
set -u
exec python3 "$(dirname "$0")/readme_examples.py" "${1:?usage: $0 path/to/rigscope}" README.md
