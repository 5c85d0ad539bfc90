#!/usr/bin/env bash
# Rig CI (issue 16): `diff OLD NEW` against oracles computed here from the glTF files themselves
# (tests/cli/rigci_glb.py edits and reads them without rigscope), `--rom` and `rom` against the
# angles asked for, both on every corpus file, and both in farm chunks merged.
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
CESIUM="$CORPUS/khronos/cesium_man.gltf"
GLB="python3 $(dirname "$0")/../rigci_glb.py"

# --- diff of a file against itself: exactly 0, exit 0 ------------------------------------------
expect 0 "diff of a file against itself passes zero limits" -- "$RIGSCOPE" diff "$BEND" "$BEND" --max-displacement 0 --max-t-change 0 \
    -o "$WORK/self.json" --junit "$WORK/self.xml"
check "self diff: every displacement and change in T is exactly 0" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["changed_vertices"] == 0 and s["max_displacement"]["displacement"] == 0 and s["max_t_change"]["t_change"] == 0, s
assert all(f["max_displacement"] == 0 and f["max_t_change"] == 0 for f in d["frames"])
assert len(d["frames"]) == 91' "$WORK/self.json"
check "self diff: JUnit has one passing case per limit" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
# A case per limit, and one for the seams bend_cylinder welds (issue 41 item 3: a torn seam is its own finding).
names = [c.get("name") for c in s.findall("testcase")]
assert names == ["displacement > 0", "|change in T| > 0", "seam torn"], names
assert s.get("tests") == "3" and s.get("failures") == "0" and len(s.findall("testcase/failure")) == 0' "$WORK/self.xml"

# --- weights changed on one joint: only the vertices that joint shares with others move --------
$GLB weights "$CESIUM" "$WORK/reweighted.gltf" '#5' 0.5
$GLB weight "$CESIUM" '#5' >"$WORK/w5.json"
expect 0 "diff against reweighted joint 5" -- "$RIGSCOPE" diff "$CESIUM" "$WORK/reweighted.gltf" -o "$WORK/reweighted.csv"
# Scaling a weight changes the normalised weights only where the joint shares the vertex
# (0 < w < 1): exactly those vertices may move, and the rest must be bit-for-bit unchanged.
check "reweighted: displacement non-zero only on joint 5's shared vertices, and on some of them" -- python3 -c '
import csv, json, sys
w = json.load(open(sys.argv[1]))
moved = set()
for r in csv.DictReader(open(sys.argv[2])):
    if float(r["displacement"]) != 0: moved.add(int(r["vertex"]))
shared = {v for v, x in enumerate(w) if 0 < x < 1}
assert moved and moved <= shared, (len(moved), len(shared), sorted(moved - shared)[:5])' "$WORK/w5.json" "$WORK/reweighted.csv"

# --- a moved joint: the analytic displacement ---------------------------------------------------
# Bone.001's translation keys moved by d in Bone's space: with linear blend skinning a vertex
# moves by w(Bone.001) * R d, and Bone's clip rotates and scales by 1, so |p' - p| = w |d|.
$GLB move "$BEND" "$WORK/moved.glb" Bone.001 0.1 0.2 -0.05
$GLB weight "$BEND" Bone.001 >"$WORK/w_b1.json"
expect 0 "diff against a moved joint" -- "$RIGSCOPE" diff "$BEND" "$WORK/moved.glb" -o "$WORK/moved.csv"
# Tolerance 2e-6 m: positions near 2 m in float32 deformed twice (ulp 2.4e-7, a few ulps each).
check "moved joint: every vertex, every frame, displacement = w |d| within 2e-6 m" -- python3 -c '
import csv, json, math, sys
w = json.load(open(sys.argv[1]))
d = math.sqrt(0.1**2 + 0.2**2 + 0.05**2)
rows = 0
for r in csv.DictReader(open(sys.argv[2])):
    want = w[int(r["vertex"])] * d
    assert abs(float(r["displacement"]) - want) < 2e-6, (r, want)
    rows += 1
assert rows == 91 * 625, rows  # a row per file vertex, 625 (issue 41 item 3: --match index reports file vertices)' "$WORK/w_b1.json" "$WORK/moved.csv"
expect 1 "moved joint: --max-displacement below the largest move fails" -- "$RIGSCOPE" diff "$BEND" "$WORK/moved.glb" --max-displacement 0.1 --junit "$WORK/moved.xml"
check "moved joint: the report names the region under Bone.001" -- grep -q "under 'Bone.001'" "$WORK/out"
check "moved joint: JUnit failure" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "1" and s.find("testcase").get("classname") == "rigscope.diff.moved~2Eglb.ArmatureAction"' "$WORK/moved.xml"

# --- glTF coloured by displacement --------------------------------------------------------------
expect 0 "diff glTF" -- "$RIGSCOPE" diff "$BEND" "$WORK/moved.glb" -o "$WORK/moved_diff.glb"
check "diff glTF passes the validator" -- bash scripts/validate_gltf.sh "$WORK/moved_diff.glb"
check "diff glTF holds _DISPLACEMENT" -- grep -qa '"_DISPLACEMENT"' "$WORK/moved_diff.glb"

# --- inputs that do not fit together ------------------------------------------------------------
expect 5 "diff of meshes with other vertex counts" -- "$RIGSCOPE" -q diff "$BEND" "$CESIUM" --frames 1..10
check "vertex count error names both counts" -- one_line_naming "has 3273 vertices.*has 625"
expect 5 "--match position with vertices that have no partner" -- "$RIGSCOPE" -q diff "$BEND" "$CESIUM" --frames 1..10 --match position
check "--match position error counts them" -- one_line_naming "vertices without a partner"
expect 0 "--match position on the same file" -- "$RIGSCOPE" diff "$BEND" "$BEND" --match position --max-displacement 0

# --- ROM: the written clip holds the angles asked for -------------------------------------------
for f in "$BEND" "$CESIUM"; do
    expect 0 "rom $f" -- "$RIGSCOPE" rom "$f" --rom-angle 37 --rom-frames 8 -o "$WORK/rom.glb" --list json
    cp "$WORK/out" "$WORK/rom.json"
    check "rom $f: every key's angle about its axis equals the request" -- $GLB rom_angles "$WORK/rom.glb" "$WORK/rom.json"
    check "rom $f: glTF passes the validator" -- bash scripts/validate_gltf.sh "$WORK/rom.glb"
done
expect 0 "rom bend_cylinder listing" -- "$RIGSCOPE" rom "$BEND"
check "rom listing: Bone before its child Bone.001, X Y Z each" -- python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
assert "frames 0..24 joint '"'"'Bone'"'"' axis X" in lines[0] and "joint '"'"'Bone.001'"'"' axis Z" in lines[5], lines' "$WORK/out"
# The clip written and --rom are the same motion: --animation of the written clip gives the
# same T as --rom.
"$RIGSCOPE" rom "$BEND" -o "$WORK/rom24.glb" >/dev/null
expect 0 "tension --rom" -- "$RIGSCOPE" tension "$BEND" --rom -o "$WORK/rom_t.csv"
expect 0 "tension --animation rom.glb" -- "$RIGSCOPE" tension "$BEND" --animation "$WORK/rom24.glb" -o "$WORK/anim_t.csv"
check "--rom equals --animation of the written clip" -- cmp -s "$WORK/rom_t.csv" "$WORK/anim_t.csv"
expect 2 "--rom-frames not a multiple of 4" -- "$RIGSCOPE" tension "$BEND" --rom --rom-frames 6
expect 2 "--joints naming no joint" -- "$RIGSCOPE" tension "$BEND" --rom --joints Nope
check "--joints error lists the joints" -- one_line_naming "no joint 'Nope' (joints: Bone.001, Bone)"
expect 2 "--rom with --clip" -- "$RIGSCOPE" tension "$BEND" --rom --clip 0

# --- check --rom fails where the bend passes the limit, naming joint and axis -----------------
# The oracle: the frames where tension --rom gives any vertex T > 1.3.
expect 1 "check --rom bend_cylinder" -- "$RIGSCOPE" check "$BEND" --rom --max-compress 1.3 --junit "$WORK/check_rom.xml"
cp "$WORK/out" "$WORK/check_rom.txt"
check "check --rom: failing frames are the frames past the limit, each named by joint and axis" -- python3 -c '
import csv, re, sys
over = set()
for r in csv.DictReader(open(sys.argv[1])):
    if float(r["t"]) > 1.3: over.add(int(r["frame"]))
named = set()
for line in open(sys.argv[2]):
    m = re.match(r"ROM frames? (\d+)(?:\.\.(\d+))?: joint '"'"'(.*)'"'"' axis ([XYZ])", line)
    if not m: continue
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    sweep = a // 24
    assert m.group(3) == ["Bone", "Bone.001"][sweep // 3] and m.group(4) == "XYZ"[sweep % 3], line
    named |= set(range(a, b + 1))
assert over and named == over, (sorted(over), sorted(named))
assert min(over) >= 72  # the root sweeps move the cylinder rigidly' "$WORK/rom_t.csv" "$WORK/check_rom.txt"
# Every frame the JUnit failure names (its message: the worst; its text: each listed vertex) and
# every offender line on stdout: the joint, axis and signed angle that the written clip
# (rom24.glb, read by rigci_glb.py without rigscope) turns away from rest at that frame.
# Tolerance 1e-3 degrees: rigscope prints 6 significant digits; float32 keys give ~1e-5.
"$RIGSCOPE" rom "$BEND" --list json >"$WORK/rom24.json"
check "check --rom: JUnit and stdout name the joint, axis and angle the clip has at each failing frame" -- python3 -c '
import json, re, subprocess, sys
import xml.etree.ElementTree as ET
glb, fps = sys.argv[1], json.load(open(sys.argv[2]))["fps"]
clip = {}
def truth(frame):
    if frame not in clip:
        j, a, deg = subprocess.check_output(["python3", sys.argv[5], "rom_at", glb, str(fps), str(frame)], text=True).split()
        clip[frame] = (j, a, float(deg))
    return clip[frame]
def same(frame, joint, axis, deg, where):
    j, a, d = truth(frame)
    assert (joint, axis) == (j, a) and abs(float(deg) - d) < 1e-3, (where, frame, joint, axis, deg, j, a, d)
named = 0
fail = ET.parse(sys.argv[3]).getroot().find("testsuite/testcase/failure")
m = re.search(r"the worst at frame (\d+): joint .(.*). axis ([XYZ]) at ([-+][0-9.]+) deg$", fail.get("message"))
assert m, fail.get("message")
same(int(m.group(1)), m.group(2), m.group(3), m.group(4), "message")
vertex = r"frame (\d+) \(joint .(.*). axis ([XYZ]) at ([-+][0-9.]+) deg\): T = "
for where, text in (("junit", fail.text), ("stdout", open(sys.argv[4]).read())):
    lines = [l for l in text.splitlines() if ": T = " in l]
    assert lines, where
    for l in lines:
        m = re.search(vertex, l)
        assert m, (where, l)
        same(int(m.group(1)), m.group(2), m.group(3), m.group(4), where)
        named += 1
assert named >= 2' "$WORK/rom24.glb" "$WORK/rom24.json" "$WORK/check_rom.xml" "$WORK/check_rom.txt" "$(dirname "$0")/../rigci_glb.py"

# --- every corpus file ------------------------------------------------------------------------
while IFS= read -r f; do
    if ! "$RIGSCOPE" -q info "$f" >"$WORK/info" 2>/dev/null; then continue; fi  # bad inputs: bad_inputs.sh
    # Issue 41 item 2: no verdict without something judged. A file without a mesh has no vertex
    # to compare: FAIL (nothing_compared), never PASS. A file without animation is refused like
    # check; its bind pose alone is compared only when asked (--frames bind), its motion by --rom.
    self_rc=0
    grep -q "^  mesh '" "$WORK/info" || self_rc=1
    if grep -qx "  no animation" "$WORK/info"; then
        expect 2 "diff $f (no animation) against itself is refused" -- "$RIGSCOPE" -q diff "$f" "$f" --max-displacement 0 --max-t-change 0
        check "diff $f: says there is no animation and what to use" -- one_line_naming "nothing to check: $f has no animation (use --rom"
        expect $self_rc "diff --frames bind $f against itself" -- "$RIGSCOPE" -q diff "$f" "$f" --frames bind --max-displacement 0 --max-t-change 0
    else
        expect $self_rc "diff $f against itself" -- "$RIGSCOPE" -q diff "$f" "$f" --max-displacement 0 --max-t-change 0
    fi
    if [ $self_rc -eq 1 ]; then
        check "diff $f (no mesh): FAIL, nothing compared" -- grep -q "^nothing compared: no vertex of any mesh was evaluated" "$WORK/out"
    fi
    if grep -q "skin '" "$WORK/info" && grep -qE "inherit scale as (Rrs|RrSs)" "$WORK/info"; then
        # FBX's Rrs and RrSs: glTF holds them where no node shears, else the node is named.
        rc=0
        "$RIGSCOPE" -q rom "$f" --rom-frames 4 -o "$WORK/corpus_rom.glb" 2>"$WORK/err" || rc=$?
        check "rom $f: written, or refused naming the node glTF cannot hold" -- \
            bash -c '[ "$1" -eq 0 ] || { [ "$1" -eq 5 ] && grep -q "glTF cannot hold node" "$2"; }' _ "$rc" "$WORK/err"
        expect 0 "diff --rom $f against itself" -- "$RIGSCOPE" -q diff "$f" "$f" --rom --rom-frames 4 --max-displacement 0
    elif grep -q "skin '" "$WORK/info"; then
        expect 0 "rom $f" -- "$RIGSCOPE" -q rom "$f" --rom-frames 4 -o "$WORK/corpus_rom.glb"
        expect 0 "diff --rom $f against itself" -- "$RIGSCOPE" -q diff "$f" "$f" --rom --rom-frames 4 --max-displacement 0
    else
        expect 5 "rom $f (no skin)" -- "$RIGSCOPE" -q rom "$f"
        check "rom $f: says there is no skin" -- one_line_naming "no skin"
    fi
done < <(find "$CORPUS" -type f \( -name '*.glb' -o -name '*.gltf' -o -name '*.fbx' \) | sort)

# --- chunks merged equal one run --------------------------------------------------------------
single_and_chunks() {  # EXT ARGS...: one run into single.EXT, 3 chunks merged into merged.EXT
    local ext=$1 i
    shift
    rm -f "$WORK"/c_*
    "$RIGSCOPE" -q "$@" -o "$WORK/single.$ext" >/dev/null
    for i in 0 1 2; do "$RIGSCOPE" -q "$@" --chunk "$i/3" -o "$WORK/c_$i.$ext" >/dev/null || echo "  chunk $i failed"; done
}
single_and_chunks csv diff "$BEND" "$WORK/moved.glb"
expect 0 "merge diff CSV chunks" -- "$RIGSCOPE" merge "$WORK/merged.csv" "$WORK"/c_2.csv "$WORK"/c_0.csv "$WORK"/c_1.csv
check "merged diff CSV is one run's bytes" -- cmp -s "$WORK/single.csv" "$WORK/merged.csv"
single_and_chunks json diff "$BEND" "$WORK/moved.glb" --max-displacement 0.1
"$RIGSCOPE" -q diff "$BEND" "$WORK/moved.glb" --max-displacement 0.1 --junit "$WORK/single.xml" >"$WORK/single_report.txt"
expect 1 "merge diff JSON chunks: the run's verdict" -- "$RIGSCOPE" merge "$WORK/merged.json" "$WORK"/c_*.json --junit "$WORK/merged.xml"
check "merged diff JSON is one run's bytes" -- cmp -s "$WORK/single.json" "$WORK/merged.json"
# Equal but for when the run started and how long it took (the merge sums its chunks'), as for check.
for f in single merged; do sed -E 's/ time="[0-9.]+" timestamp="[0-9T:-]+"//' "$WORK/$f.xml" >"$WORK/$f.norm.xml"; done
check "merged diff JUnit is one run's but for timing" -- cmp -s "$WORK/single.norm.xml" "$WORK/merged.norm.xml"
check "merged diff JUnit: timing normalised away, nothing else" -- test "$(grep -c 'timestamp=' "$WORK/merged.norm.xml")" -eq 0
check "merged diff report is one run's" -- cmp -s "$WORK/single_report.txt" "$WORK/out"
single_and_chunks csv tension "$BEND" --rom
expect 0 "merge tension --rom chunks" -- "$RIGSCOPE" merge "$WORK/merged.csv" "$WORK"/c_*.csv
check "merged tension --rom CSV is one run's bytes" -- cmp -s "$WORK/single.csv" "$WORK/merged.csv"
single_and_chunks json diff "$BEND" "$WORK/moved.glb" --rom --rom-frames 8
expect 0 "merge diff --rom chunks" -- "$RIGSCOPE" merge "$WORK/merged.json" "$WORK"/c_*.json
check "merged diff --rom JSON is one run's bytes" -- cmp -s "$WORK/single.json" "$WORK/merged.json"
mkdir -p "$WORK/pf"
for i in 0 1; do "$RIGSCOPE" -q tension "$BEND" --rom --rom-frames 4 --joints Bone.001 --chunk "$i/2" -o "$WORK/pf/f_####.glb"; done
expect 0 "merge of per-frame glTF --rom chunks finds every frame" -- "$RIGSCOPE" merge "$WORK/pf/f_####.glb" "$WORK/pf/f_####.glb"
check "13 ROM frame files" -- test "$(ls "$WORK"/pf/f_*.glb | wc -l)" -eq 13
expect 2 "diff --chunk with --junit is refused" -- "$RIGSCOPE" diff "$BEND" "$BEND" --chunk 0/2 -o "$WORK/x.csv" --junit "$WORK/x.xml"
expect 2 "diff --chunk to glTF is refused" -- "$RIGSCOPE" diff "$BEND" "$BEND" --chunk 0/2 -o "$WORK/x.glb"

finish
