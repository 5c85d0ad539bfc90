# Shared by the CLI test scripts: run from the repo root with the rigscope binary as $1.
set -u
RIGSCOPE=${1:?usage: $0 path/to/rigscope}
CORPUS=${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
passes=0

# python3 is called hundreds of times by the scripts. Through pyenv's shim each call costs about a
# second (it is a shell script that works out a version first); the interpreter itself starts in
# 50 ms. So the scripts call one interpreter directly: Debian's, whose packages scripts/setup.sh
# installs, or else the one python3 resolves to.
mkdir -p "$WORK/bin"
if [ -x /usr/bin/python3 ]; then
    ln -s /usr/bin/python3 "$WORK/bin/python3"
else
    ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$WORK/bin/python3"
fi
PATH="$WORK/bin:$PATH"

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

# A skip is not a pass: ctest reports exit 77 as "Skipped" (SKIP_RETURN_CODE in
# tests/CMakeLists.txt) and .ci/run fails on it. scripts/setup.sh installs what the tests need.
# skip REASON: nothing of the script can run without it; stops here.
skip() {
    echo "SKIP: $*"
    exit 77
}
# skip_later REASON: one part cannot run; the rest still does, then finish reports the skip.
skipped=()
skip_later() {
    echo "SKIP: $*"
    skipped+=("$*")
}

finish() {
    echo "$passes passed, $failures failed, ${#skipped[@]} skipped"
    [ "$failures" -eq 0 ] || exit 1
    [ "${#skipped[@]}" -eq 0 ] || exit 77
    exit 0
}
