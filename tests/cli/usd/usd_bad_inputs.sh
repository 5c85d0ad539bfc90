# Hostile USD files (tests/cli/usd/make_bad_usd.py makes them from a good crate layer usd-core wrote):
# each is refused with exit 3 and one line naming the file and the problem, before a count or an
# offset it holds is trusted. The text layer's own rows (line:column, nesting, budget) are in
# tests/io/test_usd.cpp.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"
"$USDPY" scripts/usd/make_scenes.py "$WORK/scenes" --usdc >/dev/null || { echo "FAIL: make_scenes.py"; exit 1; }
GOOD=$WORK/scenes/linear.usdc

expect 0 "the good crate layer reads" -- "$RIGSCOPE" info "$GOOD"

bad() {  # bad KIND EXT FRAGMENT
    local kind=$1 ext=$2 fragment=$3 f="$WORK/$1.$2"
    "$USDPY" tests/cli/usd/make_bad_usd.py "$kind" "$GOOD" "$f" || { echo "FAIL: $kind: could not make the file"; failures=$((failures + 1)); return; }
    expect 3 "$kind" -- "$RIGSCOPE" deform "$f" -o "$WORK/$kind.csv"
    check "$kind: one line naming the file and '$fragment'" -- one_line_naming "$fragment"
    check "$kind: names the file" -- grep -q "$kind.$ext" "$WORK/err"
    check "$kind: no partial output" -- test ! -e "$WORK/$kind.csv"
}
bad newer_version usdc "crate version 0.15.0 is newer than rigscope reads"
bad truncated usdc "runs past the end of the file"
bad section_count usdc "more than the file holds"
bad section_outside usdc "lies outside the file"
bad lz4_bomb usdc "LZ4 bomb"
bad token_count usdc "token count"
bad strings_count usdc "more than the file's"
bad lz4_corrupt usdc "usdc:"
bad zip_deflated usdz "is compressed"
bad zip_size usdz "runs past the end of the file"

# A point cache whose topology changes over time: refused naming the time code, in both encodings.
for f in changing_points.usda changing_points.usdc changing_faces.usda changing_faces.usdc changing_counts.usda changing_counts.usdc; do
    case $f in
        changing_points*) at="time code 5 hold 8 points, not the mesh's 12" ;;
        changing_faces*) at="faceVertexIndices at time code 3.5" ;;
        *) at="faceVertexCounts at time code 6" ;;
    esac
    expect 3 "$f: refused" -- "$RIGSCOPE" deform "$WORK/scenes/$f" -o "$WORK/$f.csv"
    check "$f: one line naming the file and '$at'" -- one_line_naming "$at"
    check "$f: names the file" -- grep -q "$f" "$WORK/err"
    check "$f: no partial output" -- test ! -e "$WORK/$f.csv"
done

finish
