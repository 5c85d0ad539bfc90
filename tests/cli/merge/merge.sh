#!/usr/bin/env bash
# Farm chunks without a farm: `--chunk I/N` runs by hand, joined by `merge`, must equal one run
# (cmp: the same bytes, for CSV, JSON, JUnit and glTF, as docs/farm.md promises); a failed, missing, duplicated or foreign chunk
# must make the merge fail with exit 5 naming it.
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
CESIUM="$CORPUS/khronos/cesium_man.gltf"

# chunks N EXT ARGS...: the N chunks of `rigscope ARGS` into $WORK/c_I.EXT (chunk I of N).
chunks() {
    local n=$1 ext=$2 i
    shift 2
    rm -f "$WORK"/c_*
    for ((i = 0; i < n; i++)); do
        "$RIGSCOPE" -q "$@" --chunk "$i/$n" -o "$WORK/c_$i.$ext" || { echo "  chunk $i/$n of $* failed"; return 1; }
    done
}
chunk_list() {  # N EXT: the chunk files in order
    local i
    for ((i = 0; i < $1; i++)); do echo "$WORK/c_$i.$2"; done
}

# merged_equals N EXT DESCRIPTION -- ARGS...: single run vs N chunks merged.
merged_equals() {
    local n=$1 ext=$2 what=$3
    shift 4
    "$RIGSCOPE" -q "$@" -o "$WORK/single.$ext" || { echo "FAIL: $what: single run failed"; failures=$((failures + 1)); return; }
    chunks "$n" "$ext" "$@" || { echo "FAIL: $what: chunk runs failed"; failures=$((failures + 1)); return; }
    # Chunks named in reverse order of their names: merge orders them by the index in their
    # records (with 10 or more chunks, name order is not index order either: c_10 < c_2).
    expect 0 "$what: merge" -- "$RIGSCOPE" merge "$WORK/merged.$ext" $(chunk_list "$n" "$ext" | sort -r)
    check "$what: merged $ext is byte-identical to one run" -- cmp -s "$WORK/single.$ext" "$WORK/merged.$ext"
}

merged_equals 4 csv "tension CSV" -- tension "$BEND"
merged_equals 1 json "one chunk of one (0/1)" -- tension "$BEND" --auto-range --vertices 1
merged_equals 4 json "tension JSON with vertex series" -- tension "$BEND" --vertices 0,272,600
merged_equals 4 csv "tension CSV, cesium_man" -- tension "$CESIUM"
merged_equals 3 json "tension JSON, cesium_man, every mesh summary" -- tension "$CESIUM" --vertices 0,100..103
merged_equals 4 csv "tension --auto-range CSV (maps from the range of all frames)" -- tension "$BEND" --auto-range
merged_equals 4 json "tension --auto-range 90 JSON" -- tension "$BEND" --auto-range 90 --vertices 0,272
merged_equals 3 csv "tension --auto-range 95 CSV, cesium_man" -- tension "$CESIUM" --auto-range 95 --falloff 2
merged_equals 4 csv "deform CSV" -- deform "$CESIUM" --frames 0..40
merged_equals 4 json "deform JSON" -- deform "$BEND" --frames 1..91:3
# 12 chunks: names in sorted order (c_0 c_1 c_10 c_11 c_2 ...) are not in index order.
merged_equals 12 csv "12 chunks, CSV" -- tension "$BEND"
merged_equals 12 json "12 chunks, JSON with vertex series" -- tension "$BEND" --vertices 0,272,600
merged_equals 12 json "12 chunks, tension --auto-range JSON" -- tension "$BEND" --auto-range --vertices 272
merged_equals 5 csv "more chunks than frames (empty chunks)" -- tension "$BEND" --frames 10..12
merged_equals 5 json "more chunks than frames, JSON" -- tension "$BEND" --frames 10..12 --vertices 3
merged_equals 4 csv "rivet --bake CSV (quaternion signs continuous across chunks)" -- rivet "$BEND" --bake --vertices 0,272,300
merged_equals 4 json "rivet --bake JSON" -- rivet "$BEND" --bake --vertices 0,272,300
merged_equals 3 csv "rivet --bake CSV, cesium_man" -- rivet "$CESIUM" --bake --vertices 10,2000
merged_equals 4 csv "drive CSV" -- drive data/joystick_face.glb --rig data/joystick_face.rig.json
merged_equals 4 json "drive JSON" -- drive data/joystick_face.glb --rig data/joystick_face.rig.json

# An OUT whose extension names the other format than the chunks hold is refused (exit 2, naming
# both), with no output written; a name that says nothing (.txt, none) takes the chunks' format.
chunks 2 csv tension "$BEND" --frames 1..4
expect 2 "merge m.json of CSV chunks" -- "$RIGSCOPE" merge "$WORK/m.json" "$WORK/c_0.csv" "$WORK/c_1.csv"
check "merge m.json of CSV chunks: one line naming both" -- one_line_naming "m.json: the extension says json but the chunks hold csv"
check "merge m.json of CSV chunks: no m.json" -- test ! -e "$WORK/m.json"
expect 0 "merge of CSV chunks into a .txt name" -- "$RIGSCOPE" merge "$WORK/m.txt" "$WORK/c_0.csv" "$WORK/c_1.csv"
check "merge .txt holds the CSV" -- test "$(head -c 11 "$WORK/m.txt")" = "frame,time,"
chunks 2 json tension "$BEND" --frames 1..4
expect 2 "merge m.csv of JSON chunks" -- "$RIGSCOPE" merge "$WORK/m.csv" "$WORK/c_0.json" "$WORK/c_1.json"
check "merge m.csv of JSON chunks: one line naming both" -- one_line_naming "m.csv: the extension says csv but the chunks hold json"
check "merge m.csv of JSON chunks: no m.csv" -- test ! -e "$WORK/m.csv"
expect 2 "drive glTF chunk (one animation over all frames)" -- "$RIGSCOPE" drive data/joystick_face.glb --rig data/joystick_face.rig.json --chunk 0/2 -o "$WORK/d.glb"

# check: chunks record their per-vertex extremes beside their JUnit files; merge prints the
# run's report, writes its JUnit file and exits with its verdict. A chunk exits 0 either way.
# 12 chunks named in reverse name order: the merge must order them by index. ROM frames 120..131
# in 2 chunks: the failing frames 125..127 are split 125 | 126..127, and the run names them as one.
for n_args in "4 $BEND --max-stretch 0.8 --max-compress 1.8" "4 $CESIUM --max-stretch 0.95 --worst 30" "4 $BEND --max-compress 9" \
              "12 $BEND --max-stretch 0.8 --max-compress 1.8 --worst 40" "3 $BEND --rom --max-compress 1.3" \
              "2 $BEND --rom --frames 120..131 --max-compress 1.3" \
              "5 $BEND --rom --rom-frames 8 --rom-angle 45 --max-stretch 0.9 --max-compress 1.2"; do
    n=${n_args%% *}
    args=${n_args#* }
    "$RIGSCOPE" -q check $args --junit "$WORK/single.xml" >"$WORK/single.txt"
    want=$?
    rm -f "$WORK"/c_*
    for ((i = 0; i < n; i++)); do
        expect 0 "check chunk $i/$n: exit 0 (the verdict is the merge's)" -- "$RIGSCOPE" -q check $args --chunk "$i/$n" --junit "$WORK/c_$i.xml"
    done
    expect "$want" "check merge of $n exits with the run's verdict ($want)" -- "$RIGSCOPE" merge "$WORK/merged.xml" $(chunk_list "$n" xml | sort -r)
    check "check merge of $n: report equals one run's" -- cmp -s "$WORK/single.txt" "$WORK/out"
    # Equal but for when the run started and how long it took (the merge sums its chunks').
    for f in single merged; do sed -E 's/ time="[0-9.]+" timestamp="[0-9T:-]+"//' "$WORK/$f.xml" >"$WORK/$f.norm.xml"; done
    check "check merge of $n: JUnit file equals one run's but for timing" -- cmp -s "$WORK/single.norm.xml" "$WORK/merged.norm.xml"
    check "check merge of $n: timing normalised away, nothing else" -- test "$(grep -c 'timestamp=' "$WORK/merged.norm.xml")" -eq 0
    # A --rom run's report ends with its failing frames by joint and axis: the merge prints the
    # same lines, also where a run of failing frames spans two chunks.
    if [[ $args == *--rom* ]]; then
        check "check --rom merge of $n: ROM lines equal one run's, and there are some" -- \
            bash -c "grep '^ROM frame' '$WORK/single.txt' >'$WORK/single.rom' && grep '^ROM frame' '$WORK/out' | cmp -s - '$WORK/single.rom'"
    fi
done
# The JUnit report's timing comes from each record's "run" state: one missing, or a start the
# Ant schema would refuse, is the record's fault (exit 3), before anything is written.
for edit_says in 's/,\n?"run":\{[^}]*\}//|missing' 's/"timestamp":"[^"]*"/"timestamp":"yesterday"/|timestamp .yesterday. is not'; do
    edit=${edit_says%|*}
    rm -f "$WORK"/c_* "$WORK/merged.xml"
    for i in 0 1; do "$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 --chunk "$i/2" --junit "$WORK/c_$i.xml" >/dev/null; done
    sed -zEi "$edit" "$WORK/c_1.xml.chunk.json"
    expect 3 "merge of a check record with a bad run state ($edit)" -- "$RIGSCOPE" merge "$WORK/merged.xml" "$WORK"/c_{0,1}.xml
    check "bad run state named with its record: ${edit_says#*|}" -- one_line_naming "c_1.xml.chunk.json: run state: .*${edit_says#*|}"
    check "bad run state: no merged report" -- test ! -e "$WORK/merged.xml"
done
expect 2 "check chunk without --junit" -- "$RIGSCOPE" check "$BEND" --max-stretch 0.8 --chunk 0/2
check "check chunk without --junit: says why" -- one_line_naming "needs --junit FILE"

# A glob that names outputs and their records alike still means one chunk each.
chunks 4 json tension "$BEND" --vertices 5
expect 0 "glob of outputs and records" -- "$RIGSCOPE" merge "$WORK/merged.json" "$WORK"/c_*.json

# Per-frame glTF: chunks write the final files; merge checks every frame has its file.
mkdir -p "$WORK/one" "$WORK/farm"
"$RIGSCOPE" -q tension "$BEND" --frames 1..91:10 -o "$WORK/one/t_####.glb"
for i in 0 1 2; do
    expect 0 "glTF chunk $i" -- "$RIGSCOPE" -q tension "$BEND" --frames 1..91:10 --chunk "$i/3" -o "$WORK/farm/t_####.glb"
done
expect 0 "glTF merge checks completeness" -- "$RIGSCOPE" merge "$WORK/farm/t_####.glb" "$WORK"/farm/t_####.glb.chunk-*.json
same_files=true
for f in "$WORK"/one/*.glb; do cmp -s "$f" "$WORK/farm/$(basename "$f")" || same_files=false; done
check "glTF frame files equal one run's" -- $same_files
check "glTF: as many files as one run" -- test "$(ls "$WORK"/farm/*.glb | wc -l)" -eq "$(ls "$WORK"/one/*.glb | wc -l)"
rm "$WORK/farm/t_0041.glb"
expect 5 "glTF frame file missing" -- "$RIGSCOPE" merge "$WORK/farm/t_####.glb" "$WORK/farm/t_####.glb"
check "missing frame file named with its chunk" -- one_line_naming "t_0041.glb (chunk 1)"

# Failures: each names the chunk, exit 5.
chunks 4 csv tension "$BEND"
rm -f "$WORK"/merged.*
# A chunk that fails on rerun (file size limit: exit 4) leaves its old output but no record.
expect 4 "chunk that fails" -- bash -c 'ulimit -f 1; exec "$0" -q tension "$1" --chunk 2/4 -o "$2"' "$RIGSCOPE" "$BEND" "$WORK/c_2.csv"
check "failed chunk removes its old record" -- test ! -e "$WORK/c_2.csv.chunk.json"
expect 5 "failed chunk" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 4 csv)
check "failed chunk named" -- one_line_naming "c_2.csv: no chunk record"
check "no merged output after a failed merge" -- test ! -e "$WORK/merged.csv"

chunks 4 csv tension "$BEND"
rm "$WORK/c_1.csv" "$WORK/c_1.csv.chunk.json"
expect 5 "chunk never ran" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 4 csv)
check "chunk that never ran named" -- one_line_naming "c_1.csv: missing"

chunks 4 csv tension "$BEND"
expect 5 "chunk left out" -- "$RIGSCOPE" merge "$WORK/merged.csv" "$WORK/c_0.csv" "$WORK/c_1.csv" "$WORK/c_3.csv"
check "left-out chunk named by index" -- one_line_naming "chunks missing of 4: 2"

cp "$WORK/c_1.csv" "$WORK/again.csv"
cp "$WORK/c_1.csv.chunk.json" "$WORK/again.csv.chunk.json"
expect 5 "duplicated chunk" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 4 csv) "$WORK/again.csv"
check "duplicate named" -- one_line_naming "chunk 1/4 given 2 times"

"$RIGSCOPE" -q tension "$BEND" --falloff 2 --chunk 3/4 -o "$WORK/c_3.csv"
expect 5 "chunk of other parameters" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 4 csv)
check "other parameters named" -- one_line_naming "option --falloff '2' vs '1'"

# A chunk's identity holds the values its options parse to (run/chunk_identity.cpp), defaults
# too: a value typed two ways (0.5, 0.50; 2, 2.0), or a default given or not, is one run.
"$RIGSCOPE" -q tension "$BEND" --stretch-area 0.5 --falloff 2 -o "$WORK/single.csv"
rm -f "$WORK"/c_*
"$RIGSCOPE" -q tension "$BEND" --stretch-area 0.5 --falloff 2 --chunk 0/3 -o "$WORK/c_0.csv"
"$RIGSCOPE" -q tension "$BEND" --stretch-area 0.50 --falloff 2.0 --chunk 1/3 -o "$WORK/c_1.csv"
"$RIGSCOPE" -q tension "$BEND" --stretch-area .5 --falloff 2 --weight-limit 1 --chunk 2/3 -o "$WORK/c_2.csv"
expect 0 "chunks typing one value two ways, or giving a default, merge" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 3 csv)
check "chunks typing one value two ways: merged CSV is one run's" -- cmp -s "$WORK/single.csv" "$WORK/merged.csv"
"$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 >"$WORK/single.txt"
want=$?
rm -f "$WORK"/c_*
"$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 --chunk 0/2 --junit "$WORK/c_0.xml" >/dev/null
"$RIGSCOPE" -q check "$BEND" --max-stretch 0.80 --worst 10 --chunk 1/2 --junit "$WORK/c_1.xml" >/dev/null
expect "$want" "check chunks of --max-stretch 0.8 and 0.80 merge" -- "$RIGSCOPE" merge "$WORK/merged.xml" $(chunk_list 2 xml)
check "check chunks of 0.8 and 0.80: the run's report" -- cmp -s "$WORK/single.txt" "$WORK/out"
chunks 4 csv tension "$BEND"

"$RIGSCOPE" -q tension "$BEND" --chunk 3/5 -o "$WORK/c_3.csv"
expect 5 "chunk of another split" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 4 csv)
check "other split named" -- one_line_naming "chunk count 5 vs 4"

cp "$CESIUM" "$WORK/in.gltf"
chunks 3 csv deform "$WORK/in.gltf" --frames 0..10
echo " " >> "$WORK/in.gltf"   # the same scene, other bytes: as after a re-export
"$RIGSCOPE" -q deform "$WORK/in.gltf" --frames 0..10 --chunk 1/3 -o "$WORK/c_1.csv"
expect 5 "input changed between chunks" -- "$RIGSCOPE" merge "$WORK/merged.csv" $(chunk_list 3 csv)
check "changed input named" -- one_line_naming "content of .*in.gltf"

chunks 3 json tension "$BEND"
sed -i 's/"rigscope":"[^"]*"/"rigscope":"0.0.1"/' "$WORK/c_0.json.chunk.json"
expect 5 "chunk of another rigscope version" -- "$RIGSCOPE" merge "$WORK/merged.json" $(chunk_list 3 json)
check "version named" -- one_line_naming "written by rigscope 0.0.1"

chunks 3 json tension "$BEND"
truncate -s 2000 "$WORK/c_1.json"
expect 3 "truncated chunk" -- "$RIGSCOPE" merge "$WORK/merged.json" $(chunk_list 3 json)
check "truncated chunk named" -- one_line_naming "c_1.json: chunk 1/3"

# Usage: nowhere for the record, or a chunk that cannot be joined again.
expect 2 "chunk to stdout" -- "$RIGSCOPE" tension "$BEND" --chunk 0/2
check "chunk to stdout: says why" -- one_line_naming "needs -o FILE"
expect 2 "--bake-max chunk" -- "$RIGSCOPE" tension "$BEND" --bake-max --chunk 0/2 -o "$WORK/w.glb"
expect 2 "glTF --auto-range chunk" -- "$RIGSCOPE" tension "$BEND" --auto-range --chunk 0/2 -o "$WORK/t_####.glb"
chunks 2 csv tension "$BEND"
expect 2 "merge over a chunk" -- "$RIGSCOPE" merge "$WORK/c_0.csv" $(chunk_list 2 csv)
check "chunk untouched" -- test -s "$WORK/c_0.csv.chunk.json"
expect 5 "not a chunk" -- "$RIGSCOPE" merge "$WORK/merged.csv" "$BEND"
ls -A "$WORK" | grep -q rigscope- && { echo "FAIL: temporary files left behind"; failures=$((failures + 1)); }

finish
