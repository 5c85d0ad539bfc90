#!/usr/bin/env bash
# Every JSON document rigscope writes validates against its schema in docs/schema/ (README there),
# on real corpus files (glTF, FBX, Collada): tension in every measure, check --json (with --rom and
# --lint), diff, deform, rivet (fit and bake), drive, info, rom --list json, lint, the chunk
# records and the merges of chunks, and the data a report page holds. One python process
# (json_schema_check.py) validates them all at the end, and shows that each schema can fail: every
# output mutated (the header's "command" dropped or changed, a member of another type, unknown
# members, values out of range) must be refused.
source "$(dirname "$0")/../common.bash"
SCHEMAS=docs/schema
GLB=$CORPUS/bend_cylinder/bend_cylinder.glb
FBX=$CORPUS/bend_cylinder/bend_cylinder.fbx
CESIUM=$CORPUS/khronos/cesium_man.gltf
HUES=$CORPUS/assimp/FBX/huesitos.fbx
FACE=$CORPUS/joystick_face/joystick_face.glb
RIG=data/joystick_face.rig.json
DAE=tests/collada/bend_cylinder.dae  # Blender's Collada export: Z-up
SPIDER=$CORPUS/assimp/FBX/spider.fbx  # 23 meshes, no skin, no animation
INTERP=$CORPUS/khronos/interpolation_test.gltf  # STEP, LINEAR, CUBICSPLINE; its texture is missing
O=$WORK/out.d
mkdir -p "$O"
: >"$WORK/manifest"

for f in "$GLB" "$FBX" "$CESIUM" "$HUES" "$FACE" "$SPIDER" "$INTERP"; do [ -f "$f" ] || skip "corpus file $f is missing (RIGSCOPE_CORPUS)"; done
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || {
    echo "FAIL: python3-jsonschema is missing (scripts/setup.sh installs it)"
    exit 1
}

# run EXIT SCHEMA FILE -- ARGS...: runs rigscope ARGS, expects EXIT, and queues FILE for SCHEMA.
run() {
    local want=$1 schema=$2 file=$3
    shift 4
    expect "$want" "$schema: rigscope $*" -- "$RIGSCOPE" -q "$@"
    printf '%s\t%s\n' "$schema" "$file" >>"$WORK/manifest"
}
# stdout SCHEMA FILE -- ARGS...: the same for a document written on stdout.
stdout() {
    local schema=$1 file=$2
    shift 3
    expect 0 "$schema: rigscope $* (stdout)" -- "$RIGSCOPE" -q "$@"
    cp "$WORK/out" "$file"
    printf '%s\t%s\n' "$schema" "$file" >>"$WORK/manifest"
}

# tension: the default edge measure, the others with their per-frame objects, summaries and
# series, --auto-range, a reference frame, an --animation, FBX frames, a bind pose.
run 0 tension "$O/t_edge.json" -- tension "$GLB" --vertices 0,272,600 -o "$O/t_edge.json"
run 0 tension "$O/t_area.json" -- tension "$GLB" --measure area --smooth 2 --vertices 0,272 --frames 1..91:10 -o "$O/t_area.json"
run 0 tension "$O/t_principal.json" -- tension "$GLB" --measure principal --smooth-weights cotan --smooth 1 --vertices 272 --frames 1..91:15 -o "$O/t_principal.json"
run 0 tension "$O/t_auto.json" -- tension "$GLB" --auto-range 95 --reference-frame 1 --vertices 5 --format json -o "$O/t_auto.json"
run 0 tension "$O/t_fbx.json" -- tension "$FBX" --frames 0..90:9 --vertices 0 -o "$O/t_fbx.json"
run 0 tension "$O/t_cesium.json" -- tension "$CESIUM" --frames bind,1..10 --vertices 656 -o "$O/t_cesium.json"
run 0 tension "$O/t_hues.json" -- tension "$HUES" --animation "$HUES" --frames 0..20:5 -o "$O/t_hues.json"
run 0 tension "$O/t_ref.json" -- tension "$GLB" --reference "$GLB" --frames 61 -o "$O/t_ref.json"
run 0 tension "$O/t_spider.json" -- tension "$SPIDER" --frames bind --vertices 0 -o "$O/t_spider.json"
run 0 tension "$O/t_dae.json" -- tension "$DAE" --frames 1..91:30 -o "$O/t_dae.json"

# check --json: failing limits, the principal measure's lambda limits, a ROM run (joint, axis,
# angle), --lint (the lint's document inside), a pass on FBX, and a file with nothing to evaluate.
run 1 check "$O/c_fail.json" -- check "$GLB" --max-stretch 0.8 --max-compress 1.8 --json "$O/c_fail.json"
run 1 check "$O/c_lambda.json" -- check "$GLB" --measure principal --min-lambda 0.7 --max-lambda 1.3 --json "$O/c_lambda.json"
run 1 check "$O/c_rom.json" -- check "$GLB" --rom --max-compress 1.3 --json "$O/c_rom.json"
run 1 check "$O/c_lint.json" -- check "$CESIUM" --lint --max-stretch 0.5 --json "$O/c_lint.json"
run 0 check "$O/c_fbx.json" -- check "$FBX" --max-stretch 0.5 --max-compress 9 --json "$O/c_fbx.json"
run 0 check "$O/c_bind.json" -- check "$CESIUM" --frames bind --max-compress 9 --json "$O/c_bind.json"
run 1 check "$O/c_intersect.json" -- check "$GLB" --max-intersections 0 --json "$O/c_intersect.json"
run 0 check "$O/c_clear.json" -- check "$GLB" --frames 1..30 --max-intersections 0 --json "$O/c_clear.json"
# intersect: the bend folding through itself, and a clear run.
run 0 intersect "$O/intersect.json" -- intersect "$GLB" -o "$O/intersect.json"
run 0 intersect "$O/intersect_fbx.json" -- intersect "$FBX" --frames 1..10 --format json -o "$O/intersect_fbx.json"

# diff: glTF against FBX by position (both inputs in the header), and a file against itself.
run 0 diff "$O/d_glb_fbx.json" -- diff "$GLB" "$FBX" --match position --align start --frames 1..91:10 -o "$O/d_glb_fbx.json"
run 0 diff "$O/d_same.json" -- diff "$CESIUM" "$CESIUM" --frames 1..5 --worst 3 -o "$O/d_same.json"
# Torn seams (issue 41 item 3): bend_cylinder with the two weights of every 37th vertex swapped
# (as diff_seams.sh), so some part from the seam twins OLD welds; the diff and a chunk's record.
python3 tests/cli/swap_weights.py "$GLB" "$WORK/swapped.glb" 37 || exit 1
run 0 diff "$O/d_seams.json" -- diff "$GLB" "$WORK/swapped.glb" -o "$O/d_seams.json"
check "diff of the swapped weights: seams torn" -- /usr/bin/python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["summary"]["seams_torn"]' "$O/d_seams.json"
run 0 diff "$O/d_seams_part0.json" -- diff "$GLB" "$WORK/swapped.glb" --chunk 0/2 -o "$O/d_seams_part0.json"
printf 'chunk\t%s\n' "$O/d_seams_part0.json.chunk.json" >>"$WORK/manifest"

# deform, rivet (a fit, a bake), drive.
run 0 deform "$O/deform.json" -- deform "$GLB" --frames 1,61 -o "$O/deform.json"
run 0 deform "$O/deform_fbx.json" -- deform "$HUES" --frames 0..3 --format json -o "$O/deform_fbx.json"
run 0 deform "$O/deform_dae.json" -- deform "$DAE" --frames 1 --axes y-up -o "$O/deform_dae.json"
run 0 rivet "$O/rivet.json" -- rivet "$GLB" --vertices 272,300 -o "$O/rivet.json"
run 0 rivet "$O/rivet_cesium.json" -- rivet "$CESIUM" --vertices 656 -o "$O/rivet_cesium.json"
run 0 rivet "$O/rivet_bake.json" -- rivet "$FBX" --vertices 0,100 --bake --frames 0..20 -o "$O/rivet_bake.json"
# volume: a closed mesh (its "*" rows and regions) on glTF and FBX.
run 0 volume "$O/volume.json" -- volume "$GLB" --frames 1..91:15 -o "$O/volume.json"
run 0 volume "$O/volume_fbx.json" -- volume "$FBX" --frames 0..90:30 -o "$O/volume_fbx.json"
# regions: joint regions on glTF, and two chunks merged.
run 0 regions "$O/regions.json" -- regions "$GLB" --frames 1..91:15 --map stretch -o "$O/regions.json"
run 0 regions "$O/regions_c1.json" -- regions "$GLB" --frames 1..91:15 --chunk 1/2 -o "$O/regions_c1.json"
run 0 drive "$O/drive.json" -- drive "$FACE" --rig "$RIG" -o "$O/drive.json"

# info: each format, -o x.json and --json on stdout; rom's listing; lint.
run 0 info "$O/info_glb.json" -- info "$GLB" -o "$O/info_glb.json"
run 0 info "$O/info_fbx.json" -- info "$FBX" -o "$O/info_fbx.json"
run 0 info "$O/info_dae.json" -- info "$DAE" -o "$O/info_dae.json"
run 0 info "$O/info_face.json" -- info "$FACE" -o "$O/info_face.json"
run 0 info "$O/info_interp.json" -- info "$INTERP" -o "$O/info_interp.json"
run 0 info "$O/info_spider.json" -- info "$SPIDER" -o "$O/info_spider.json"
stdout info "$O/info_hues.json" -- info "$HUES" --json
stdout rom "$O/rom_glb.json" -- rom "$GLB" --list json
stdout rom "$O/rom_hues.json" -- rom "$HUES" --list json --rom-angle 45 --rom-frames 8 --joints "$(
    "$RIGSCOPE" -q info "$HUES" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["skins"][0]["joint_names"][0])')"
run 1 lint "$O/lint_cesium.json" -- lint "$CESIUM" -o "$O/lint_cesium.json"
run 0 lint "$O/lint_glb.json" -- lint "$GLB" --mirror x --mirror-names Bone=Bone.001 --format json -o "$O/lint_glb.json"
run 1 lint "$O/lint_fbx.json" -- lint "$HUES" --format json -o "$O/lint_fbx.json"

# Chunks: each record, and the merge of each command's JSON chunks (merge writes the command's
# own document, so it validates against the same schema).
chunked() {  # chunked SCHEMA EXT N -- ARGS...: N chunks, their records, their merge.
    local schema=$1 ext=$2 n=$3 i parts=()
    shift 4
    for ((i = 0; i < n; i++)); do
        run 0 "$schema" "$O/${schema}_part$i.$ext" -- "$@" --chunk "$i/$n" -o "$O/${schema}_part$i.$ext"
        printf 'chunk\t%s\n' "$O/${schema}_part$i.$ext.chunk.json" >>"$WORK/manifest"
        parts+=("$O/${schema}_part$i.$ext")
    done
    run 0 "$schema" "$O/${schema}_merged.$ext" -- merge "$O/${schema}_merged.$ext" "${parts[@]}"
}
chunked tension json 2 -- tension "$GLB" --auto-range --vertices 272 --measure principal
chunked deform json 2 -- deform "$FBX" --frames 0..3
chunked drive json 2 -- drive "$FACE" --rig "$RIG" --frames 1..20
chunked rivet json 2 -- rivet "$GLB" --vertices 272 --bake --frames 1..10
chunked diff json 2 -- diff "$GLB" "$FBX" --match position --align start --frames 1..91:30 --max-displacement 1e-3
# check's chunks write JUnit; their records carry the verdict's state (and a ROM plan).
for i in 0 1; do
    expect 0 "check chunk $i/2" -- "$RIGSCOPE" -q check "$GLB" --rom --rom-frames 8 --max-compress 1.3 --chunk "$i/2" --junit "$O/check_part$i.xml"
    printf 'chunk\t%s\n' "$O/check_part$i.xml.chunk.json" >>"$WORK/manifest"
done

# The report page's data: skinned, a Z-up file (its turn upright), a two-sided measure, a check.
run 0 report "$O/report.html" -- report "$GLB" -o "$O/report.html"
run 0 report "$O/report_dae.html" -- report "$DAE" --frames 1..91:10 -o "$O/report_dae.html"
run 0 report "$O/report_face.html" -- report "$FACE" --rig "$RIG" --measure principal -o "$O/report_face.html"
run 1 report "$O/report_check.html" -- check "$FBX" --max-compress 1.3 --html "$O/report_check.html"

# One process validates every document and each schema's refusals.
if /usr/bin/python3 tests/cli/json_schema_check.py "$SCHEMAS" "$WORK/manifest" >"$WORK/schema.out" 2>&1; then
    passes=$((passes + 1))
else
    failures=$((failures + 1))
fi
cat "$WORK/schema.out"

# Every schema in docs/schema/ is used by an output above (the header through the others).
for s in "$SCHEMAS"/*.schema.json; do
    name=$(basename "$s" .schema.json)
    [ "$name" = header ] && continue
    check "$name.schema.json validates some output" -- grep -q "^$name	" "$WORK/manifest"
done

finish
