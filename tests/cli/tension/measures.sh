#!/usr/bin/env bash
# --measure area|principal and --smooth on every corpus file (glTF and FBX) in CSV, JSON and
# glTF; the default measure unchanged; check's lambda limits; chunked runs merged; and an
# independent numpy computation of both measures on bend_cylinder at a bent frame.
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
[ -f "$BEND" ] || BEND="$CORPUS/bend_cylinder/bend_cylinder.glb"
# Every corpus file with a mesh and a clip (the broken ones of assimp/glTF2 are bad_inputs.sh's);
# pab/walk.fbx holds only a clip, so it animates pab/arnaud.fbx (which has none of its own).
files=(bend_cylinder/bend_cylinder.glb bend_cylinder/bend_cylinder.fbx joystick_face/joystick_face.glb
       joystick_face/joystick_face.fbx khronos/cesium_man.gltf khronos/interpolation_test.gltf
       khronos/rigged_simple.gltf assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf
       assimp/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf assimp/glTF2/SimpleMorph/glTF/SimpleMorph.gltf
       assimp/glTF2/simple_skin/quad_skin.glb assimp/glTF2/simple_skin/simple_skin.gltf assimp/FBX/huesitos.fbx assimp/FBX/spider.fbx
       assimp/FBX/animation_with_skeleton.fbx "pab/arnaud.fbx --animation $CORPUS/pab/walk.fbx")

# CSV: the measure's header, a row per file vertex and frame, every number finite.
csv_ok() {  # FILE MEASURE
    python3 - "$1" "$2" <<'PY'
import csv, math, sys
path, measure = sys.argv[1], sys.argv[2]
extra = {"edge": [], "area": ["t_area"], "principal": ["lambda_max", "lambda_min", "dir_x", "dir_y", "dir_z"]}[measure]
rows = list(csv.reader(open(path)))
if rows[0] != ["frame", "time", "mesh", "vertex", "t", "compress", "stretch"] + extra or len(rows) < 2: sys.exit(1)
for r in rows[1:]:
    v = [float(x) for x in r[4:]]
    if not all(math.isfinite(x) for x in v): sys.exit(1)
    if not (0 <= v[1] <= 1 and 0 <= v[2] <= 1): sys.exit(1)
    if measure == "principal":
        lmax, lmin, d = v[3], v[4], v[5:8]
        n = math.sqrt(sum(x * x for x in d))
        if lmax < lmin or lmin < 0 or not (abs(n - 1) < 1e-5 or n == 0): sys.exit(1)
PY
}
json_ok() {  # FILE MEASURE
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["measure"]["kind"] != sys.argv[2] or not d["frames"]: sys.exit(1)
if sys.argv[2] != "edge":
    if len(d["measure_summary"]) != len(d["meshes"]): sys.exit(1)
    for f in d["frames"]:
        for m in f["meshes"]:
            if m["measure"]["min"] > m["measure"]["max"]: sys.exit(1)
PY
}

glbs=()
for entry in "${files[@]}"; do
    f=${entry%% *}
    in="$CORPUS/$entry"
    name=$(echo "$f" | tr '/.' '__')
    # A file without a clip has only its bind pose to measure.
    # Five frames from the clip's first; a file without a clip has only its bind pose.
    clip_file=$in
    case "$entry" in *--animation*) clip_file=${entry##* } ;; esac
    read -r frames one < <("$RIGSCOPE" info $clip_file 2>/dev/null | python3 -c '
import math, re, sys
text = sys.stdin.read()
fps = float(re.search(r"frame rate: ([0-9.]+) fps", text).group(1))
clip = re.search(r"clip .*: ([0-9.]+) s to ([0-9.]+) s", text)
if not clip: print("bind bind"); sys.exit()
a, b = math.ceil(float(clip.group(1)) * fps - 1e-6), math.floor(float(clip.group(2)) * fps + 1e-6)
print(f"{a}..{min(a + 4, b)} {min(a + 2, b)}")')
    for opts in "--measure area" "--measure principal" "--measure area --smooth 2" "--measure principal --smooth 3 --smooth-weights cotan" \
                "--smooth 2 --smooth-weights cotan"; do
        m=edge
        case "$opts" in *area*) m=area ;; *principal*) m=principal ;; esac
        tag="$name $(echo "$opts" | tr -d ' -')"
        expect 0 "$f $opts: CSV" -- "$RIGSCOPE" -q tension $in $opts --frames $frames -o "$WORK/m.csv"
        check "$f $opts: CSV columns and values" -- csv_ok "$WORK/m.csv" "$m"
        expect 0 "$f $opts: JSON" -- "$RIGSCOPE" -q tension $in $opts --frames $frames --vertices 0,1 -o "$WORK/m.json"
        check "$f $opts: JSON measure and summaries" -- json_ok "$WORK/m.json" "$m"
        out="$WORK/$(echo "$tag" | tr -c 'A-Za-z0-9_\n' '_').glb"
        expect 0 "$f $opts: glTF" -- "$RIGSCOPE" -q tension $in $opts --frames $one -o "$out"
        [ -s "$out" ] && glbs+=("$out")
    done
done
# The measure's attributes are in the glTF files: a principal file carries all three.
check "principal glTF carries _LAMBDA_MAX, _LAMBDA_MIN, _COMPRESS_DIR" -- \
    grep -q '_COMPRESS_DIR' "$WORK/bend_cylinder_bend_cylinder_glb_measureprincipal.glb"
if command -v node >/dev/null; then
    check "validator: every measure's glTF is clean (${#glbs[@]} files)" -- bash scripts/validate_gltf.sh "${glbs[@]}"
else
    echo "FAIL: node is not installed (scripts/setup.sh installs it): the glTF validator cannot run"
    failures=$((failures + 1))
fi
expect 0 "bake-max with principal" -- "$RIGSCOPE" -q tension "$BEND" --measure principal --bake-max -o "$WORK/bake.glb"
check "bake-max principal validates" -- bash scripts/validate_gltf.sh "$WORK/bake.glb"

# The default is the edge measure, byte for byte.
"$RIGSCOPE" -q tension "$BEND" -o "$WORK/default.csv"
"$RIGSCOPE" -q tension "$BEND" --measure edge --smooth 0 -o "$WORK/edge.csv"
check "--measure edge --smooth 0 is the default output" -- cmp -s "$WORK/default.csv" "$WORK/edge.csv"
"$RIGSCOPE" -q tension "$BEND" --measure edge --smooth 4 -o "$WORK/smooth.csv"
check "--smooth changes the edge T" -- bash -c "! cmp -s '$WORK/default.csv' '$WORK/smooth.csv'"
"$RIGSCOPE" -q tension "$BEND" --measure principal --threads 1 -o "$WORK/p1.csv"
"$RIGSCOPE" -q tension "$BEND" --measure principal --threads 3 --smooth 2 -o "$WORK/p3s.csv"
"$RIGSCOPE" -q tension "$BEND" --measure principal --threads 3 -o "$WORK/p3.csv"
check "principal: same bytes for 1 and 3 threads" -- cmp -s "$WORK/p1.csv" "$WORK/p3.csv"

# Bad options: usage errors, one line.
expect 2 "unknown measure" -- "$RIGSCOPE" tension "$BEND" --measure volume
expect 2 "negative smooth" -- "$RIGSCOPE" tension "$BEND" --smooth -1
expect 2 "unknown weights" -- "$RIGSCOPE" tension "$BEND" --smooth 2 --smooth-weights mean
expect 2 "lambda limit without principal" -- "$RIGSCOPE" check "$BEND" --max-lambda 1.2
check "lambda limit without principal: says why" -- one_line_naming "need --measure principal"

# check: lambda limits. bend_cylinder's bend compresses below 0.9 somewhere and stretches little.
expect 1 "check --min-lambda 0.9 fails on the bend" -- "$RIGSCOPE" -q check "$BEND" --measure principal --min-lambda 0.9
expect 0 "check --min-lambda 0.01 passes" -- "$RIGSCOPE" -q check "$BEND" --measure principal --min-lambda 0.01
expect 0 "check --max-lambda 100 passes" -- "$RIGSCOPE" -q check "$BEND" --measure principal --max-lambda 100
expect 1 "check --max-lambda 1.0001 fails (something stretches)" -- "$RIGSCOPE" -q check "$BEND" --measure principal --max-lambda 1.0001
expect 0 "check --measure area --max-compress 100 passes" -- "$RIGSCOPE" -q check "$BEND" --measure area --max-compress 100

# Chunks merged equal one run, for the new columns and summaries (and with --auto-range, whose
# maps merge recomputes from the measure's columns).
merged() {  # N EXT WHAT -- ARGS
    local n=$1 ext=$2 what=$3 i
    shift 4
    "$RIGSCOPE" -q "$@" -o "$WORK/single.$ext"
    rm -f "$WORK"/c_*
    for ((i = 0; i < n; i++)); do "$RIGSCOPE" -q "$@" --chunk "$i/$n" -o "$WORK/c_$i.$ext"; done
    expect 0 "$what: merge" -- "$RIGSCOPE" merge "$WORK/merged.$ext" $(for ((i = 0; i < n; i++)); do echo "$WORK/c_$i.$ext"; done)
    if [ "$ext" = json ]; then
        check "$what: merged equals one run" -- python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$WORK/single.json" "$WORK/merged.json"
    else
        check "$what: merged equals one run" -- cmp -s "$WORK/single.$ext" "$WORK/merged.$ext"
    fi
}
merged 3 csv "principal CSV" -- tension "$BEND" --measure principal
merged 3 csv "area CSV, auto-range" -- tension "$BEND" --measure area --auto-range
merged 3 csv "principal CSV, auto-range 95, smooth" -- tension "$BEND" --measure principal --auto-range 95 --smooth 2
merged 4 json "principal JSON, auto-range, series" -- tension "$BEND" --measure principal --auto-range --vertices 0,272,600
merged 3 json "area JSON, series" -- tension "$BEND" --measure area --vertices 5,300

# check chunks with the principal measure and lambda limits: merge gives one run's report.
args="$BEND --measure principal --min-lambda 0.8 --max-lambda 1.2"
"$RIGSCOPE" -q check $args --junit "$WORK/single.xml" >"$WORK/single.txt"
want=$?
rm -f "$WORK"/c_*
for i in 0 1 2; do "$RIGSCOPE" -q check $args --chunk "$i/3" --junit "$WORK/c_$i.xml" >/dev/null; done
expect "$want" "check principal: merge exits with the run's verdict ($want)" -- "$RIGSCOPE" merge "$WORK/merged.xml" "$WORK"/c_0.xml "$WORK"/c_1.xml "$WORK"/c_2.xml
check "check principal: merged report equals one run's" -- cmp -s "$WORK/single.txt" "$WORK/out"

# Independent numpy computation at a bent frame (frame 46: the middle of the bend). Debian's
# python3 (scripts/setup.sh installs python3-numpy for it), as scripts/bench.sh uses.
"$RIGSCOPE" -q deform "$BEND" --frames bind -o "$WORK/rest.csv"
"$RIGSCOPE" -q deform "$BEND" --frames 46 -o "$WORK/def.csv"
"$RIGSCOPE" -q tension "$BEND" --frames 46 --measure area -o "$WORK/area.csv"
"$RIGSCOPE" -q tension "$BEND" --frames 46 --measure principal -o "$WORK/principal.csv"
check "numpy oracle: area and principal on bend_cylinder frame 46" -- \
    /usr/bin/python3 tests/tools/measures_oracle.py "$BEND" "$WORK/rest.csv" "$WORK/def.csv" "$WORK/area.csv" "$WORK/principal.csv"

finish
