#!/usr/bin/env bash
# rigscope intersect in batches and farm chunks, as the other verbs:
# - chunks: the halves of a clip's frames, merged, are the single run's output byte for byte
#   (CSV and JSON; the single run's pairs are the brute force's, tests/cli/intersect/intersect.sh);
#   JSON's zero_area_triangles is the most of any frame (a made sheet whose two triangles have
#   zero area at its last frame only, by construction), so the half holding that frame decides it;
# - a batch: a folder, each file's -o by placeholder, the single run's bytes; a file that cannot
#   be read fails alone.
#   bash tests/cli/intersect/intersect_farm.sh path/to/rigscope      (from the project's root)
source "$(dirname "$0")/../common.bash"
here=$(cd "$(dirname "$0")" && pwd)
rigs="python3 $here/intersect_rigs.py"
bend=$CORPUS/bend_cylinder/bend_cylinder.glb
[ -f "$bend" ] || skip "no corpus at $CORPUS"
python3 -c 'import numpy' 2>/dev/null || skip "numpy (the rig writer) is not installed: scripts/setup.sh"

# -- Chunks of the bend (it folds through itself in its later frames only): CSV and JSON.
for fmt in csv json; do
    expect 0 "single run ($fmt)" -- "$RIGSCOPE" -q intersect "$bend" --frames 50..91 -o "$WORK/whole.$fmt"
    for i in 0 1 2; do
        expect 0 "chunk $i/3 ($fmt)" -- "$RIGSCOPE" -q intersect "$bend" --frames 50..91 --chunk $i/3 -o "$WORK/part$i.$fmt"
    done
    expect 0 "merge ($fmt)" -- "$RIGSCOPE" -q merge "$WORK/merged.$fmt" "$WORK/part0.$fmt" "$WORK/part1.$fmt" "$WORK/part2.$fmt"
    check "merged chunks are the single run ($fmt)" -- cmp -s "$WORK/merged.$fmt" "$WORK/whole.$fmt"
done
check "the single run has pairs, and the first chunk has none of them (its frames are before the fold)" -- \
    bash -c "[ \$(wc -l <'$WORK/whole.csv') -gt 100 ] && [ \$(wc -l <'$WORK/part0.csv') -eq 1 ]"
check "the last chunk holds only its frames" -- bash -c "[ \$(wc -l <'$WORK/part2.csv') -lt \$(wc -l <'$WORK/whole.csv') ]"
expect 2 "merge of chunks of two runs (--frames differ)" -- bash -c \
    "'$RIGSCOPE' -q intersect '$bend' --frames 0..91 --chunk 1/3 -o '$WORK/other1.json' && '$RIGSCOPE' -q merge '$WORK/mixed.json' '$WORK/part0.json' '$WORK/other1.json' '$WORK/part2.json'"

# -- zero_area_triangles over chunks: 2 at frame 24 only, 0 before.
$rigs flatten "$WORK/flat.glb"
expect 0 "flatten single run" -- "$RIGSCOPE" -q intersect "$WORK/flat.glb" --frames 0..24 -o "$WORK/flat.json"
for i in 0 1; do
    expect 0 "flatten chunk $i/2" -- "$RIGSCOPE" -q intersect "$WORK/flat.glb" --frames 0..24 --chunk $i/2 -o "$WORK/flat$i.json"
done
check "flatten: the single run counts the 2 collapsed triangles, the first half none" -- python3 - "$WORK/flat.json" "$WORK/flat0.json" <<'PY'
import json, sys
whole, first = (json.load(open(p)) for p in sys.argv[1:])
assert whole["zero_area_triangles"] == 2 and len(whole["frames"]) == 25, (whole["zero_area_triangles"], len(whole["frames"]))
assert first["zero_area_triangles"] == 0, first["zero_area_triangles"]
PY
expect 0 "flatten merge" -- "$RIGSCOPE" -q merge "$WORK/flat_merged.json" "$WORK/flat0.json" "$WORK/flat1.json"
check "flatten merged is the single run" -- cmp -s "$WORK/flat_merged.json" "$WORK/flat.json"

# -- A batch: a folder of three, each file's -o by placeholder; the unreadable one fails alone.
mkdir -p "$WORK/batch"
cp "$bend" "$WORK/batch/bend.glb"
cp "$WORK/flat.glb" "$WORK/batch/flat.glb"
printf 'glTF but not really' >"$WORK/batch/broken.glb"
expect 0 "single run of bend.glb" -- "$RIGSCOPE" -q intersect "$WORK/batch/bend.glb" -o "$WORK/bend_single.csv"
expect 0 "single run of flat.glb" -- "$RIGSCOPE" -q intersect "$WORK/batch/flat.glb" -o "$WORK/flat_single.csv"
expect 3 "batch over a folder" -- "$RIGSCOPE" intersect "$WORK/batch" --jobs 2 -o "$WORK/batch_out/{stem}.csv"
check "batch: each file's output is its single run's" -- \
    bash -c "cmp -s '$WORK/batch_out/bend.csv' '$WORK/bend_single.csv' && cmp -s '$WORK/batch_out/flat.csv' '$WORK/flat_single.csv'"
check "batch: no output for the broken file, its error said" -- bash -c "test ! -e '$WORK/batch_out/broken.csv' && grep -q 'broken.glb' '$WORK/err'"
expect 0 "batch JSON by --format, --summary" -- "$RIGSCOPE" -q intersect "$WORK/batch/bend.glb" "$WORK/batch/flat.glb" --format json \
    -o "$WORK/batch_json/{stem}.json" --summary "$WORK/summary.csv"
check "batch JSON: the single run's" -- bash -c "'$RIGSCOPE' -q intersect '$WORK/batch/bend.glb' -o '$WORK/bend_single.json' && cmp -s '$WORK/batch_json/bend.json' '$WORK/bend_single.json'"
check "batch summary: two ok rows with their frames" -- python3 - "$WORK/summary.csv" <<'PY'
import csv, sys
rows = {r["file"].rsplit("/", 1)[-1]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["bend.glb"]["status"] == "ok" and rows["bend.glb"]["frames"] == "91", rows["bend.glb"]
assert rows["flat.glb"]["status"] == "ok" and rows["flat.glb"]["frames"] == "25", rows["flat.glb"]
PY
expect 2 "batch with --chunk" -- "$RIGSCOPE" intersect "$WORK/batch" --chunk 0/2 -o "$WORK/batch_out/{stem}.csv"

finish
