#!/usr/bin/env bash
# The README and its reference docs say what the program does (issue 57 item 7, issue 61):
# tests/cli/docs/readme_help.py checks the option tables of docs/commands.md against each
# command's --help, that every option --help lists is named in the README or docs/commands.md,
# rig_ci.md, lint.md, the README's counts against the tests they count, the exit codes (README and
# docs/exit_codes.md) against error.h, the formats (README and docs/formats.md) against --help's
# description and docs/lint.md's table against the checks lint runs.
. "$(dirname "$0")/../common.bash"
check "the README and docs agree with --help, the tests' counts, the exit codes and lint's checks" -- python3 tests/cli/docs/readme_help.py "$RIGSCOPE"
finish
