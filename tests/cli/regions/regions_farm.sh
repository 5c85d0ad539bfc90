#!/bin/bash
# regions on a farm (issue 60: "batch and farm chunks as every verb"): --chunk I/N parts merged
# are the single run's output (CSV and JSON, byte for byte); a region file changed between the
# parts is caught by merge (the file is an input, fingerprinted in each chunk's record); the
# outputs that hold one animation (usda, glb) are refused in chunks. Then bake and regions over a
# library: each file's outputs are its own single run's.
source "$(dirname "$0")/../common.bash"
CYL="$CORPUS/bend_cylinder/bend_cylinder.glb"
[ -f "$CYL" ] || skip "no corpus at $CORPUS"

for fmt in csv json; do
    expect 0 "regions, one run ($fmt)" -- "$RIGSCOPE" -q regions "$CYL" --frames 1..40 --map stretch -o "$WORK/whole.$fmt"
    for i in 0 1 2; do
        expect 0 "chunk $i/3 ($fmt)" -- "$RIGSCOPE" -q regions "$CYL" --frames 1..40 --map stretch --chunk $i/3 -o "$WORK/part$i.$fmt"
    done
    expect 0 "merge ($fmt)" -- "$RIGSCOPE" -q merge "$WORK/merged.$fmt" "$WORK/part2.$fmt" "$WORK/part0.$fmt" "$WORK/part1.$fmt"
    check "merged chunks are the single run ($fmt)" -- cmp -s "$WORK/merged.$fmt" "$WORK/whole.$fmt"
done
check "a chunk holds its part of the frames" -- test "$(wc -l <"$WORK/part1.csv")" -lt "$(wc -l <"$WORK/whole.csv")"

# A region file changed between the chunks: merge refuses (exit 5), naming it.
echo '{"top": [0, 1, 2, 3, 4, 5], "bottom": [600, 601, 602]}' >"$WORK/r.json"
expect 0 "chunk 0/2 by a region file" -- "$RIGSCOPE" -q regions "$CYL" --frames 1..20 --by "@$WORK/r.json" --chunk 0/2 -o "$WORK/by0.csv"
echo '{"top": [0, 1, 2, 3, 4, 5, 6], "bottom": [600, 601, 602]}' >"$WORK/r.json"
expect 0 "chunk 1/2 after the file changed" -- "$RIGSCOPE" -q regions "$CYL" --frames 1..20 --by "@$WORK/r.json" --chunk 1/2 -o "$WORK/by1.csv"
expect 5 "merge of chunks made from two region files" -- "$RIGSCOPE" -q merge "$WORK/by.csv" "$WORK/by0.csv" "$WORK/by1.csv"
check "  ... names the file" -- grep -q "r.json" "$WORK/err"
check "  ... and writes nothing" -- test ! -e "$WORK/by.csv"
expect 2 "a glTF of the curves in chunks" -- "$RIGSCOPE" -q regions "$CYL" --chunk 0/2 -o "$WORK/c.glb"
check "  ... says why" -- one_line_naming "one animation over all frames"

# A library: bake and regions over a folder, each file's output its own run's.
mkdir -p "$WORK/lib/a" "$WORK/lib/b"
cp "$CYL" "$WORK/lib/a/cyl.glb"
cp "$CYL" "$WORK/lib/b/other.glb"
expect 0 "bake a library" -- "$RIGSCOPE" -q bake "$WORK/lib" --frames 31,61 --map stretch --size 32 --padding 1 \
    -o "$WORK/maps/{relpath}/{mesh}.{frame}.png" --summary "$WORK/bake.csv"
expect 0 "bake one file" -- "$RIGSCOPE" -q bake "$CYL" --frames 31,61 --map stretch --size 32 --padding 1 -o "$WORK/one/{mesh}.{frame}.png"
for rel in a/cyl.glb b/other.glb; do
    for f in 0031 0061; do
        check "$rel frame $f is the single run's image" -- cmp -s "$WORK/maps/$rel/Cylinder.$f.png" "$WORK/one/Cylinder.$f.png"
    done
done
check "the summary has a row per file, 2 frames each" -- test "$(grep -c ',ok,0,2,1,' "$WORK/bake.csv")" -eq 2
expect 2 "a misspelt placeholder in a library's -o" -- "$RIGSCOPE" -q bake "$WORK/lib" --size 8 -o "$WORK/bad/{relpath}/{mseh}.{frame}.png"
check "  ... names it" -- one_line_naming "{mseh}"
check "  ... and makes no folder" -- test ! -e "$WORK/bad"
echo '{"rim": [0, 1, 2]}' >"$WORK/lib/a/cyl.json"
echo '{"band": [10, 11, 12, 13]}' >"$WORK/lib/b/other.json"
expect 0 "regions of a library, each file by its own region file" -- "$RIGSCOPE" -q regions "$WORK/lib" --frames 1..5 \
    --by '@{dir}/{stem}.json' -o "$WORK/curves/{relpath}.csv"
expect 0 "regions of one file" -- "$RIGSCOPE" -q regions "$WORK/lib/b/other.glb" --frames 1..5 --by "@$WORK/lib/b/other.json" -o "$WORK/one.csv"
check "b's curves are its own single run's" -- cmp -s "$WORK/curves/b/other.glb.csv" "$WORK/one.csv"
check "a's curves name its own region" -- grep -q ",rim," "$WORK/curves/a/cyl.glb.csv"
expect 2 "regions of a library without -o" -- "$RIGSCOPE" -q regions "$WORK/lib" --frames 1
finish
