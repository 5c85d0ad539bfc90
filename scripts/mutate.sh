#!/usr/bin/env bash
# Mutation check: are the tests able to fail? Applies each mutation of scripts/mutations.txt (a
# small deliberate bug in one critical formula or invariant) alone, rebuilds incrementally, runs
# the suite and reports every mutation the suite lets through. Exit 0: every mutation caught;
# 1: some survived, did not compile, or no longer apply; 2: the unmutated suite fails.
#
#   scripts/mutate.sh            all mutations (about a minute or two each on two cores)
#   scripts/mutate.sh 3 7        only mutations 3 and 7 (line order in mutations.txt, from 1)
#   scripts/mutate.sh --list     the numbered list
#
# The mutations go into a copy of the working tree (build-mutate/tree, refreshed from it at each
# start), never into the checkout: an interrupted run cannot leave a bug behind, and work can
# go on while it runs. Each mutated file is restored after its run, also on Ctrl-C (trap).
# Not part of CI (too slow); its last result is in docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
list="$root/scripts/mutations.txt"
work="$root/build-mutate"
tree="$work/tree"
# The build folder sits inside the copy as build/ sits inside the checkout, so that with
# scripts/ccache.bash every unchanged file is a cache hit of the checkout's own build.
bin="$tree/build"
jobs=${MUTATE_JOBS:-2}
export RIGSCOPE_CORPUS="${RIGSCOPE_CORPUS:-$root/../shared/corpus}"
export RIGSCOPE_BENCH_DIR="${RIGSCOPE_BENCH_DIR:-$root/../shared/bench}"  # the report test renders the bench tube

# mutations: "FILE<TAB>ORIGINAL<TAB>REPLACEMENT<TAB>DESCRIPTION" lines without the comments.
mapfile -t mutations < <(grep -v '^#' "$list" | grep -v '^[[:space:]]*$')
describe() { local file original replacement what; IFS=$'\t' read -r file original replacement what <<<"$1"; echo "$file: $what"; }

if [ "${1:-}" = "--list" ]; then
    for i in "${!mutations[@]}"; do printf '%2d  %s\n' $((i + 1)) "$(describe "${mutations[$i]}")"; done
    exit 0
fi
selected=("$@")
if [ ${#selected[@]} -eq 0 ]; then
    for i in "${!mutations[@]}"; do selected+=($((i + 1))); done
fi

# What is tested: the checkout as it is now, committed or not.
revision="$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' with uncommitted changes')"

# The copy: files git knows or would add, with the same content as the checkout. A file is
# copied only when its content differs, so make rebuilds exactly what changed.
mkdir -p "$tree" "$bin"
git ls-files -co --exclude-standard | while read -r f; do
    [ -f "$f" ] || continue
    mkdir -p "$tree/$(dirname "$f")"
    cmp -s "$f" "$tree/$f" || cp "$f" "$tree/$f"
done
(cd "$tree" && find . -type f -not -path '*/node_modules/*' -not -path './build/*' | sed 's|^\./||') | while read -r f; do
    [ -e "$root/$f" ] || rm -f "$tree/$f"
done
# The node tools' modules (the glTF validator, gltf-transform, the report's viewer and browser
# checks) are installed once, in the checkout (scripts/setup.sh); without them the tests that
# use them would skip, and a skip is not a pass.
for tool in scripts/gltf_validator scripts/gltf_tools report; do
    [ -d "$root/$tool/node_modules" ] && [ ! -e "$tree/$tool/node_modules" ] && ln -s "$root/$tool/node_modules" "$tree/$tool/node_modules"
done

# ccache keyed to the copy (scripts/ccache.bash); no benchmark, which the suite does not run. The
# Python module is built: cli_readme_examples runs the README's Python lines.
launcher=()
cd "$tree" && . scripts/ccache.bash && cd "$root"
cmake -S "$tree" -B "$bin" -DCMAKE_BUILD_TYPE=Release -DRIGSCOPE_BENCH=OFF -DRIGSCOPE_PYTHON=ON "${launcher[@]}" >"$work/cmake.log" 2>&1 ||
    { echo "mutate: cmake failed (see $work/cmake.log)"; exit 2; }

# The suite: the Catch2 cases in one process (seconds), then the CLI scripts through ctest,
# stopping at the first failure (a caught mutation needs no more).
run_suite() {  # prints what failed first; returns non-zero when a test failed
    if ! (cd "$tree" && timeout 900 "$bin/tests/rigscope_tests" >"$work/unit.log" 2>&1); then
        echo "unit tests: $(grep -m1 -E '^[^ ].*\.cpp:[0-9]+' "$work/unit.log" | sed 's|.*/||')"
        return 1
    fi
    if ! ctest --test-dir "$bin" -R '^cli_' -j"$jobs" --stop-on-failure --timeout 600 --output-on-failure >"$work/cli.log" 2>&1; then
        echo "$(grep -m1 -oE 'cli_[a-z_]+ \.+\*\*\*[A-Za-z ]+' "$work/cli.log" | sed 's/ \.*\*\*\*/: /; s/ *$//')"
        return 1
    fi
    return 0
}

build() { cmake --build "$bin" -j"$jobs" >"$work/build.log" 2>&1; }

echo "mutate: building the unmutated copy and running the suite on it"
if ! build; then echo "mutate: the unmutated tree does not build (see $work/build.log)"; exit 2; fi
if ! why=$(run_suite); then echo "mutate: the suite fails without any mutation ($why); fix that first"; exit 2; fi

applied=""   # the file holding a mutation, restored by the trap if the run is interrupted
restore() {
    if [ -n "$applied" ]; then
        cp "$work/original" "$tree/$applied"
        applied=""
    fi
}
trap 'restore' EXIT
trap 'restore; echo; echo "mutate: interrupted, $tree restored"; exit 130' INT TERM

# mutate FILE ORIGINAL REPLACEMENT: replaces the one occurrence; fails if it is not exactly one.
mutate() {
    python3 - "$tree/$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"found {text.count(old)} times")
open(path, "w").write(text.replace(old, new))
EOF
}

survived=() broken=() caught=0
result="$work/last-result.txt"
echo "scripts/mutate.sh on $revision, $(date -u '+%Y-%m-%d')" >"$result"
for n in "${selected[@]}"; do
    line=${mutations[$((n - 1))]:-}
    [ -n "$line" ] || { echo "mutate: no mutation $n"; exit 2; }
    IFS=$'\t' read -r file original replacement what <<<"$line"
    label="#$n $file: $what"
    cp "$tree/$file" "$work/original"
    applied=$file
    if ! err=$(mutate "$file" "$original" "$replacement" 2>&1); then
        restore
        broken+=("$label (does not apply: original $(echo "$err" | tail -1))")
        echo "BROKEN    $label: the original text is $(echo "$err" | tail -1)" | tee -a "$result"
        continue
    fi
    if ! build; then
        restore
        broken+=("$label (does not compile)")
        echo "BROKEN    $label: does not compile" | tee -a "$result"
        continue
    fi
    if why=$(run_suite); then
        survived+=("$label")
        echo "SURVIVED  $label" | tee -a "$result"
    else
        caught=$((caught + 1))
        echo "caught    $label  <- $why" | tee -a "$result"
    fi
    restore
done
# The copy's build back to the unmutated code, so a later look at build-mutate/ is not misled.
build || true

echo "mutate: ${#selected[@]} mutations: $caught caught, ${#survived[@]} survived, ${#broken[@]} broken" | tee -a "$result"
for s in "${survived[@]}"; do echo "  survived: $s"; done
for b in "${broken[@]}"; do echo "  broken: $b"; done
[ ${#survived[@]} -eq 0 ] && [ ${#broken[@]} -eq 0 ]
