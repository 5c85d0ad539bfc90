#!/usr/bin/env bash
# The README says what the program does (issue 57 item 7): tests/cli/docs/readme_help.py checks its
# option tables against each command's --help, that every option --help lists is named in it,
# its counts against the tests they count, its exit codes against error.h, its formats against
# --help's description and its lint table against the checks lint runs.
. "$(dirname "$0")/../common.bash"
check "the README agrees with --help, the tests' counts, the exit codes and lint's checks" -- python3 tests/cli/docs/readme_help.py "$RIGSCOPE"
finish
