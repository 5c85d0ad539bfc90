#!/usr/bin/env bash
# Verdicts that cannot lie (issue 27): a check never passes what it did not evaluate, lambda
# limits are reported as the lambda the user wrote, a rivet fit worse than asked fails, a glTF
# the writer refuses is the input's fault, and --max-memory covers the whole run.
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
STATIC="$CORPUS/pab/arnaud.fbx"  # a skinned rig with no animation
[ -f "$STATIC" ] || skip "no $STATIC (RIGSCOPE_CORPUS)"

# --- a file without animation: nothing to check ------------------------------------------------
expect 2 "check on a rig without animation is refused" -- "$RIGSCOPE" check "$STATIC" --max-compress 1.5 --junit "$WORK/static.xml"
check "check without animation: one line saying nothing to check and what to use" -- \
    one_line_naming "nothing to check: $STATIC has no animation (use --rom or --animation, or --frames bind"
check "check without animation: no JUnit report" -- test ! -e "$WORK/static.xml"
expect 2 "report on a rig without animation is refused" -- "$RIGSCOPE" report "$STATIC" -o "$WORK/static.html"
check "report without animation: says nothing to check" -- one_line_naming "nothing to check: $STATIC has no animation"
check "report without animation: no page" -- test ! -e "$WORK/static.html"
# An explicit bind pose runs, and says what it is.
expect 0 "check --frames bind on a rig without animation runs" -- "$RIGSCOPE" check "$STATIC" --frames bind --max-compress 1.5
check "check --frames bind: warns that only the bind pose is evaluated" -- grep -q "no animation: only the bind pose is evaluated" "$WORK/err"
check "check --frames bind: its verdict" -- grep -qx PASS "$WORK/out"
# --rom gives the rig a clip to check.
expect 1 "check --rom on the rig without animation evaluates its sweeps" -- "$RIGSCOPE" -q check "$STATIC" --rom --rom-frames 4 --max-compress 1.01

# --- no frame of any mesh evaluated: never PASS --------------------------------------------------
# An animated node and no mesh at all.
python3 - "$WORK/nomesh.gltf" <<'PY'
import base64, json, struct, sys
buf = struct.pack("<2f", 0.0, 1.0) + struct.pack("<6f", 0, 0, 0, 1, 0, 0)
doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "n"}],
       "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
       "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                     {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
       "animations": [{"name": "move", "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                       "samplers": [{"input": 0, "output": 1}]}]}
open(sys.argv[1], "w").write(json.dumps(doc))
PY
expect 1 "check with no mesh evaluated fails" -- "$RIGSCOPE" check "$WORK/nomesh.gltf" --max-compress 1.5 --junit "$WORK/nomesh.xml"
check "no mesh: the report says nothing was checked" -- grep -q "nothing checked: no frame of any mesh was evaluated" "$WORK/out"
check "no mesh: FAIL, not PASS" -- grep -qx FAIL "$WORK/out"
check "no mesh: the JUnit report has a failing case" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "1", s.attrib
assert s.find("testcase/failure").get("type") == "rigscope.check.nothing_checked"' "$WORK/nomesh.xml"

# --- lambda limits are reported as lambda ---------------------------------------------------------
expect 1 "principal check with lambda limits fails on the bend" -- "$RIGSCOPE" check "$BEND" --measure principal --min-lambda 0.7 \
    --max-lambda 1.3 --junit "$WORK/lambda.xml" --json "$WORK/lambda.json"
cp "$WORK/out" "$WORK/lambda.txt"
check "lambda: the text names lambda limits" -- grep -q "^lambda_min limit < 0.7: " "$WORK/lambda.txt"
check "lambda: the text lists lambda values" -- grep -q "^  mesh 'Cylinder' .*: lambda_min = 0\.[0-6]" "$WORK/lambda.txt"
check "lambda: no limit converted to T" -- bash -c '! grep -q "limit T\|: T = " "$1"' _ "$WORK/lambda.txt"
check "lambda: JUnit properties and cases name lambda" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
props = {p.get("name"): p.get("value") for p in s.find("properties")}
assert props.get("min_lambda") == "0.7" and props.get("max_lambda") == "1.3", props
assert "max_compress" not in props and "max_stretch" not in props, props
names = [c.get("name") for c in s.findall("testcase")]
assert names == ["lambda_max > 1.3", "lambda_min < 0.7"], names' "$WORK/lambda.xml"
# Independently of check: the principal stretches tension writes per file vertex. Every file
# vertex whose lambda_min falls below 0.7 in some frame is one check counts, and the worst value
# check lists is the CSV's lowest (to float precision: check shows 1 / T, T = 1 / lambda in
# float, so within 2 float steps, relative 2.4e-7).
"$RIGSCOPE" -q tension "$BEND" --measure principal -o "$WORK/principal.csv"
check "lambda: counts and worst value agree with tension's lambda_min column" -- python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
lim = {l["limit"]: l for l in d["limits"]}["min_lambda"]
low = {}
for r in csv.DictReader(open(sys.argv[2])):
    v = int(r["vertex"]); x = float(r["lambda_min"])
    low[v] = min(low.get(v, x), x)
below = {v for v, x in low.items() if x < 0.7}
assert lim["file_vertices"] == len(below), (lim["file_vertices"], len(below))
worst = lim["worst"][0]
assert abs(worst["value"] - min(low.values())) <= 2.4e-7 * min(low.values()), (worst, min(low.values()))
assert all(low[v] < 0.7 for w in lim["worst"] for v in w["vertices"])
assert d["passed"] is False' "$WORK/lambda.json" "$WORK/principal.csv"

# --- rivet --max-fit-error ----------------------------------------------------------------------
CESIUM="$CORPUS/khronos/cesium_man.gltf"
# cesium_man's vertex 644 fits its joint within about 3% of the diagonal, 1288 exactly (one joint).
expect 0 "rivet with a poor fit and no limit: written" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644,1288 -o "$WORK/fit.json"
check "rivet: a fit worse than 1% of the diagonal is warned about, naming the vertex" -- \
    grep -q "warning: .*1 of 2 rivets past the limit; the worst: vertex 644 " "$WORK/err"
expect 1 "rivet --max-fit-error 0.02 fails" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644,1288 --max-fit-error 0.02 -o "$WORK/fit2.json" \
    --junit "$WORK/fit.xml"
check "rivet --max-fit-error: the output is still written" -- test -s "$WORK/fit2.json"
check "rivet --max-fit-error: FAIL on stdout" -- grep -qx FAIL "$WORK/out"
# The failing cases are the rivets whose max_error_relative in the JSON passes the limit.
check "rivet --max-fit-error: JUnit fails exactly the rivets the JSON's errors put past 0.02" -- python3 -c '
import json, sys, xml.etree.ElementTree as ET
fits = json.load(open(sys.argv[1]))["rivets"]
want = sorted(r["vertex"] for r in fits if r["max_error_relative"] > 0.02)
s = ET.parse(sys.argv[2]).getroot().find("testsuite")
failed = sorted(int(c.get("name").split()[1]) for c in s.findall("testcase") if c.find("failure") is not None)
assert want == failed == [644], (want, failed)
assert s.get("tests") == "2" and s.get("package") == "rigscope.rivet", s.attrib' "$WORK/fit2.json" "$WORK/fit.xml"
expect 0 "rivet --max-fit-error 0.05 passes" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644,1288 --max-fit-error 0.05 -o "$WORK/fit3.json"
check "rivet --max-fit-error 0.05: PASS" -- grep -qx PASS "$WORK/out"
expect 2 "rivet --max-fit-error with --bake" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644 --bake --max-fit-error 0.05
check "rivet --max-fit-error with --bake: says why" -- one_line_naming "a baked rivet (--bake) has no fit"
expect 2 "rivet --junit without a limit" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644 --junit "$WORK/x.xml"
check "rivet --junit without a limit: says why" -- one_line_naming "give the limit"

# --- --max-memory covers the whole run --------------------------------------------------------------
# A 236-byte glTF: 2000001 vertices of zeros (an accessor without a buffer view). The load holds
# 24 MB, the prepared meshes far more: with --max-memory 100 it must be refused before they grow.
python3 - "$WORK/zeros.gltf" <<'PY'
import json, sys
doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
       "accessors": [{"componentType": 5126, "count": 2000001, "type": "VEC3", "min": [0, 0, 0], "max": [0, 0, 0]}]}
open(sys.argv[1], "w").write(json.dumps(doc, separators=(",", ":")))
PY
# What loading the file alone holds, as this build measures it (a sanitizer build's runtime adds
# its own shadow memory to every figure): info reads the same file and builds its topology, but
# prepares no tension state.
/usr/bin/time -f "peak %M KB" -o "$WORK/info_peak" "$RIGSCOPE" info "$WORK/zeros.gltf" --max-memory 100 >/dev/null 2>&1
for verb in tension check; do
    case $verb in
        tension) args=(-o "$WORK/zeros.csv") ;;
        check) args=(--max-compress 2) ;;
    esac
    expect 3 "$verb: a run over --max-memory once prepared is refused" -- /usr/bin/time -f "peak %M KB" -o "$WORK/peak" \
        "$RIGSCOPE" "$verb" "$WORK/zeros.gltf" --frames bind --max-memory 100 "${args[@]}"
    check "$verb over the run's budget: the error names --max-memory" -- \
        grep -q "^rigscope: error: $WORK/zeros.gltf: .* over the memory budget (--max-memory 100 MiB)$" "$WORK/err"
    # Refused before the meshes were prepared: the whole process never holds more than the load
    # alone (info's peak: 107 MB here, the refused run 75 MB; before this check the run peaked at
    # 130 MB). Relative to info, so that a sanitizer build's shadow memory counts on both sides.
    check "$verb over the run's budget: the process held no more than loading the file" -- \
        python3 -c 'import sys; peak = lambda f: [int(l.split()[1]) for l in open(f) if l.startswith("peak")][0]; sys.exit(peak(sys.argv[1]) > peak(sys.argv[2]))' "$WORK/peak" "$WORK/info_peak"
done
check "tension over the run's budget: no output" -- test ! -e "$WORK/zeros.csv"

# === issue 41: no verdict without something judged ===============================================
WALK="$CORPUS/pab/walk.fbx"  # a walk cycle and its skeleton, no mesh
QUAD="$CORPUS/assimp/glTF2/simple_skin/quad_skin.glb"  # skinned, no animation

# --- diff of files without animation: refused like check, and --rom shows the change -----------
python3 - "$QUAD" "$WORK/quad_swapped.glb" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
g = Gltf(sys.argv[1])
w = g.attr("WEIGHTS_0")
w[:, [0, 1]] = w[:, [1, 0]].copy()
g.save(sys.argv[2])
PY
expect 2 "diff of two files without animation is refused" -- "$RIGSCOPE" diff "$QUAD" "$WORK/quad_swapped.glb" --max-displacement 0.001 \
    --junit "$WORK/quad.xml"
check "diff without animation: says nothing to check and what to use" -- \
    one_line_naming "nothing to check: $QUAD has no animation (use --rom or --animation, or --frames bind"
check "diff without animation: no JUnit report" -- test ! -e "$WORK/quad.xml"
expect 1 "diff --rom of the swapped weights fails" -- "$RIGSCOPE" -q diff "$QUAD" "$WORK/quad_swapped.glb" --rom --max-displacement 0.001
check "diff --rom: FAIL" -- grep -qx FAIL "$WORK/out"

# --- no mesh: diff FAILs, report and tension refuse ---------------------------------------------
expect 1 "diff of a file without mesh fails" -- "$RIGSCOPE" diff "$WALK" "$WALK" --max-displacement 0.001 --junit "$WORK/walk.xml"
check "diff without mesh: says nothing was compared" -- grep -q "^nothing compared: no vertex of any mesh was evaluated" "$WORK/out"
check "diff without mesh: FAIL, not PASS" -- grep -qx FAIL "$WORK/out"
check "diff without mesh: the JUnit report has a failing case" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "1" and s.get("tests") != "0", s.attrib
assert s.find("testcase/failure").get("type") == "rigscope.diff.nothing_compared"' "$WORK/walk.xml"
# -q: walk.fbx's keys run past its take, a warning of its own; the refusal is the one error line.
expect 2 "report of a file without mesh is refused" -- "$RIGSCOPE" -q report "$WALK" -o "$WORK/walk.html"
check "report without mesh: says so" -- one_line_naming "nothing to report: $WALK has no mesh"
check "report without mesh: no page" -- test ! -e "$WORK/walk.html"
expect 2 "tension of a file without mesh is refused" -- "$RIGSCOPE" -q tension "$WALK" -o "$WORK/walk.csv"
check "tension without mesh: says so" -- one_line_naming "nothing to write: $WALK has no mesh"
check "tension without mesh: no header-only CSV" -- test ! -e "$WORK/walk.csv"
expect 2 "deform of a file without mesh is refused" -- "$RIGSCOPE" -q deform "$WALK" -o "$WORK/walk_deform.csv"
check "deform without mesh: says so" -- one_line_naming "nothing to write: $WALK has no mesh"
check "deform without mesh: no header-only CSV" -- test ! -e "$WORK/walk_deform.csv"

# --- a rivet fit from one pose is undetermined: refused ---------------------------------------------
expect 2 "rivet fit on a rig without animation is refused" -- "$RIGSCOPE" rivet "$STATIC" --vertices 10 --max-fit-error 0.001 -o "$WORK/r.json"
check "rivet on one pose: says why (rank 3 of 6) and what to use" -- \
    one_line_naming "rivet fit of vertex 10 is undetermined: $STATIC has no animation: only the bind pose is evaluated (rank 3 of 6"
check "rivet on one pose: no output" -- test ! -e "$WORK/r.json"
expect 2 "rivet fit on one frame of an animation is refused" -- "$RIGSCOPE" rivet "$CESIUM" --vertices 644 --frames 10 -o "$WORK/r1.json"
check "rivet on one frame: names the joint that did not turn" -- one_line_naming "does not turn over the 1 frames evaluated"

# --- --frames bind alone on an animated file warns -------------------------------------------------
expect 0 "check --frames bind on an animated file runs" -- "$RIGSCOPE" check "$BEND" --frames bind --max-compress 1.5
check "check --frames bind on an animated file: warns that the clip is not judged" -- \
    grep -q "warning: $BEND: --frames bind: only the bind pose is evaluated, not the clip" "$WORK/err"

# --- an empty value for a path (or list) option is a usage error, before any work ---------------
for args in "check $BEND --max-compress 1.5 --junit" "check $BEND --max-compress 1.5 --json" "check $BEND --max-compress 1.5 --html" \
    "tension $BEND -o" "check $BEND --max-compress 1.5 --reference" "check $BEND --max-compress 1.5 --rig" \
    "check $STATIC --max-compress 1.5 --animation" "rivet $CESIUM --vertices" "diff $BEND $BEND -o"; do
    read -ra words <<<"$args"
    expect 2 "${words[0]} ${words[*]: -1} '': usage error" -- "$RIGSCOPE" "${words[@]}" ""
    check "${words[0]} ${words[*]: -1} '': one line naming the option" -- one_line_naming "${words[*]: -1}: empty value"
done

# --- one file named by two outputs is refused before any work -------------------------------------
expect 2 "check --junit and --json to one file" -- "$RIGSCOPE" check "$BEND" --max-compress 1.5 --junit "$WORK/same.xml" --json "$WORK/same.xml"
check "two outputs, one file: says so" -- one_line_naming "--junit $WORK/same.xml and --json $WORK/same.xml name one file"
check "two outputs, one file: nothing written" -- test ! -e "$WORK/same.xml"
expect 2 "diff -o and --junit to one file, spelled differently" -- "$RIGSCOPE" diff "$BEND" "$BEND" -o "$WORK/d.csv" --junit "$WORK/./d.csv"
check "diff: two outputs, one file: says so" -- one_line_naming "name one file"
check "diff: two outputs, one file: nothing written" -- test ! -e "$WORK/d.csv"

# --- limits the wrong way round -----------------------------------------------------------------
expect 2 "check --max-stretch 1.6 --max-compress 0.6" -- "$RIGSCOPE" check "$BEND" --max-stretch 1.6 --max-compress 0.6
check "swapped limits: says they are the wrong way round" -- \
    one_line_naming "--max-stretch 1.6 and --max-compress 0.6 are the wrong way round"
expect 2 "check --max-compress 0.9 alone" -- "$RIGSCOPE" check "$BEND" --max-compress 0.9
check "a compress limit below 1: every vertex fails at rest" -- one_line_naming "--max-compress 0.9 is below 1, the rest's T"
expect 2 "check --min-lambda 1.2 --max-lambda 0.8" -- "$RIGSCOPE" check "$BEND" --measure principal --min-lambda 1.2 --max-lambda 0.8
check "swapped lambda limits: said" -- one_line_naming "--min-lambda 1.2 and --max-lambda 0.8 are the wrong way round"

# --- --max-memory bounds rivet and --rom ------------------------------------------------------------
# 1001 rivets over arnaud's range of motion keep 1001 x 3816 samples of 224 bytes (856 MB: the run
# peaked at 885 MB). Under --max-memory 200 it is refused before the samples are taken: the process
# stays under the budget.
expect 3 "rivet --rom over --max-memory is refused" -- /usr/bin/time -f "peak %M KB" -o "$WORK/rivet_peak" \
    "$RIGSCOPE" rivet "$STATIC" --rom --vertices 0..1000 --max-memory 200 -o "$WORK/rom_rivets.json"
check "rivet over the budget: the error names the samples and --max-memory" -- \
    grep -q "^rigscope: error: $STATIC: the rivet fit's samples would hold about .* (--max-memory 200 MiB)" "$WORK/err"
check "rivet over the budget: the process stayed within it" -- \
    python3 -c 'import sys; kb = [int(l.split()[1]) for l in open(sys.argv[1]) if l.startswith("peak")][0]; sys.exit(kb > 200 * 1024)' "$WORK/rivet_peak"
check "rivet over the budget: no output" -- test ! -e "$WORK/rom_rivets.json"
# A million frames a second over cesium_man's clip is a frame list of 50 MB: past a 40 MiB budget.
expect 3 "a frame list past --max-memory is refused" -- "$RIGSCOPE" deform "$CESIUM" --fps 1000000 --max-memory 40 -o /dev/null
check "frame list over the budget: says so" -- one_line_naming "frames would hold about"

# --- output past the free space of its file system: refused before it starts -------------------
# deform of cesium_man at a million frames a second: 3273 vertices x ~2 million frames, at least
# 14 bytes a CSV row and the mesh name: far past the free space of most disks. The least it takes
# is compared with what df reports free (statvfs); a disk with more room skips the case.
need=$(python3 -c '
import json, subprocess, sys
info = json.loads(subprocess.run([sys.argv[1], "info", sys.argv[2], "--json"], capture_output=True, text=True).stdout)
m = info["meshes"][0]; c = info["clips"][0]
frames = int((c["end"] - c["start"]) * 1000000) + 1
print(int(frames * m["vertices"] * (14 + len(m["name"]))))' "$RIGSCOPE" "$CESIUM")
free=$(df -B1 --output=avail "$WORK" | tail -1)
if [ "$need" -gt "$free" ]; then
    # Under a file size limit of 100 MB: a build that did start writing stops there (EFBIG, exit 4
    # with another message) instead of filling the disk.
    expect 4 "deform whose output cannot fit is refused" -- bash -c 'ulimit -f 102400; exec "$@"' _ \
        "$RIGSCOPE" deform "$CESIUM" --fps 1000000 --max-memory 100000 -o "$WORK/big.csv"
    check "no room: names both sizes" -- one_line_naming "$WORK/big.csv: the output needs at least .* but its file system has .* free"
    check "no room: nothing written" -- bash -c '! ls -A "$1" | grep -q "big.csv"' _ "$WORK"
else
    skip_later "the disk has $free bytes free, more than deform at 1e6 fps needs ($need)"
fi

finish
