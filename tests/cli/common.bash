# Shared by the CLI test scripts: run from the repo root with the rigscope binary as $1.
set -u
RIGSCOPE=${1:?usage: $0 path/to/rigscope}
CORPUS=${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
passes=0

# expect CODE DESCRIPTION -- command...: runs it, checks the exit code, keeps stderr in $WORK/err.
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$WORK/out" 2>"$WORK/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $what: exit $got, expected $want"; sed 's/^/  stderr: /' "$WORK/err" | head -5
        failures=$((failures + 1))
    else
        passes=$((passes + 1))
    fi
}

# check DESCRIPTION -- test-expression...
check() {
    local what=$1
    shift 2
    if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

# One line on stderr, naming the given text.
one_line_naming() {
    [ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q -- "$1" "$WORK/err"
}

finish() {
    echo "$passes passed, $failures failed"
    [ "$failures" -eq 0 ]
}
