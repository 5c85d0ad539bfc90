#!/usr/bin/env bash
# Runs the same rigscope commands with two binaries and compares byte for byte what each one
# produced: stdout, stderr, the exit code and every file the command wrote in its work folder.
# Use it when a change must not alter behaviour (a refactor: issue 61 compares "outputs with cmp
# against today's binary"), with the binary of the code before the change as OLD.
#
#   scripts/compare_outputs.sh OLD_BINARY NEW_BINARY COMMANDS_FILE
#
# COMMANDS_FILE holds one command a line: the arguments after the binary, split as the shell
# splits them (quote a path with spaces); blank lines and lines starting with # are skipped.
# Give inputs as absolute paths: each command runs in an empty folder, at the same path for both
# binaries (so an output path that a report restates is the same), and `-o x.csv` writes there.
# Prints one line per command that differs and a summary; exits 1 when any differs. Run it with
# OLD_BINARY twice first to see what differs between two runs of one binary (timings): such a
# command differs for a reason that is not the change.
set -uo pipefail
old=${1:?usage: $0 OLD_BINARY NEW_BINARY COMMANDS_FILE}
new=${2:?usage: $0 OLD_BINARY NEW_BINARY COMMANDS_FILE}
list=${3:?usage: $0 OLD_BINARY NEW_BINARY COMMANDS_FILE}
old=$(realpath "$old")
new=$(realpath "$new")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run BINARY ARGS... into $work/run, then its results into the folder given as $keep.
run() {
    local bin=$1 keep=$2
    shift 2
    rm -rf "$work/run" "$keep"
    mkdir -p "$work/run"
    (cd "$work/run" && "$bin" "$@" >"$work/stdout" 2>"$work/stderr"; echo $? >"$work/exit")
    mv "$work/run" "$keep"
    mv "$work/stdout" "$work/stderr" "$work/exit" "$keep/"
}

total=0
differ=0
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'*) continue ;; esac
    eval "args=($line)"
    total=$((total + 1))
    run "$old" "$work/old" "${args[@]}"
    run "$new" "$work/new" "${args[@]}"
    if ! diff -rq "$work/old" "$work/new" >"$work/diff" 2>&1; then
        differ=$((differ + 1))
        echo "DIFFERS: $line"
        sed 's/^/  /' "$work/diff" | head -5
    fi
done <"$list"
echo "compare_outputs: $total commands, $differ differ"
[ "$differ" -eq 0 ]
