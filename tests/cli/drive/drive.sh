#!/usr/bin/env bash
# `rigscope drive` and --rig end to end: outputs, exit codes, no output file left by a failed run,
# and a baked glTF that plays back without the rig. Run from the repository root:
#   bash tests/cli/drive/drive.sh path/to/rigscope
set -uo pipefail
bin="${1:?usage: drive.sh RIGSCOPE}"
root="$(pwd)"
corpus="${RIGSCOPE_CORPUS:-$root/../shared/corpus}"
glb="$root/data/joystick_face.glb"
rig="$root/data/joystick_face.rig.json"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail=0
pass=0

skipped=0
ok() { pass=$((pass + 1)); }
# A part that cannot run here: reported, and the script exits 77 (a ctest skip, which fails CI).
skip_part() { echo "SKIP: $*"; skipped=$((skipped + 1)); }
bad() { echo "FAIL: $*"; fail=1; }

# expect CODE DESCRIPTION -- COMMAND...: runs it with stdout in $out/stdout, stderr in $out/stderr.
expect() {
    local want="$1" what="$2"
    shift 3
    "$@" >"$out/stdout" 2>"$out/stderr"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$what: exit $got, expected $want; stderr: $(head -c 400 "$out/stderr")"
        return 1
    fi
    ok
}

# stderr_has TEXT DESCRIPTION
stderr_has() {
    if grep -qF -- "$1" "$out/stderr"; then ok; else bad "$2: stderr lacks '$1': $(head -c 400 "$out/stderr")"; fi
}

# same_numbers A.csv B.csv TOLERANCE: equal text columns, numeric columns within TOLERANCE.
same_numbers() {
    awk -F, -v tol="$3" 'NR == FNR { line[FNR] = $0; n = FNR; next }
        { split(line[FNR], a, ","); if (NF != length(a)) { bad = 1; exit }
          for (i = 1; i <= NF; i++) {
              if ($i == a[i]) continue
              if ($i + 0 != $i || a[i] + 0 != a[i]) { bad = 1; exit }
              d = $i - a[i]; if (d < 0) d = -d; if (d > tol) { bad = 1; exit } } }
        END { if (bad || FNR != n) exit 1 }' "$1" "$2"
}

# --- CSV: every frame of the clip, four driven targets each ---
if expect 0 "drive csv" -- "$bin" drive "$glb" --rig "$rig"; then
    [ "$(head -1 "$out/stdout")" = "frame,time,control,mesh,target,weight" ] && ok || bad "drive csv: header is '$(head -1 "$out/stdout")'"
    [ "$(wc -l <"$out/stdout")" -eq $((97 * 4 + 1)) ] && ok || bad "drive csv: $(wc -l <"$out/stdout") lines, expected $((97 * 4 + 1))"
    # Frame 7: control at the top centre, 3/4 up (the oracle's 0.75, 0.75); frame 49: bottom-left corner.
    grep -q '^7,[^,]*,mouth,Face,smile_L,0.75$' "$out/stdout" && ok || bad "drive csv: frame 7 smile_L is not 0.75"
    grep -q '^7,[^,]*,mouth,Face,frown_R,0$' "$out/stdout" && ok || bad "drive csv: frame 7 frown_R is not 0"
    grep -q '^49,[^,]*,mouth,Face,frown_L,1$' "$out/stdout" && ok || bad "drive csv: frame 49 frown_L is not 1"
    grep -q '^49,[^,]*,mouth,Face,frown_R,0$' "$out/stdout" && ok || bad "drive csv: frame 49 frown_R is not 0"
fi

# --- JSON series ---
if expect 0 "drive json" -- "$bin" drive "$glb" --rig "$rig" --frames 1..13:6 -o "$out/w.json"; then
    if command -v python3 >/dev/null; then
        python3 - "$out/w.json" <<'EOF' && ok || bad "drive json: unexpected content"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["frames"] == [1, 7, 13], j["frames"]
assert [c["control"] for c in j["controls"]] == ["mouth"]
assert abs(j["controls"][0]["x"][2] + 0.5) < 1e-6 and j["controls"][0]["y"][2] == 1
s = {x["target"]: x["weights"] for x in j["series"]}
assert s["smile_L"] == [0, 0.75, 1] and abs(s["smile_R"][2] - 0.5) < 1e-6, s
EOF
    else
        grep -q '"series":\[' "$out/w.json" && ok || bad "drive json: no series"
    fi
fi

# --- glTF: baked weights; deform without the rig equals deform with it ---
if expect 0 "drive gltf" -- "$bin" drive "$glb" --rig "$rig" -o "$out/driven.glb"; then
    frames=1..97:4
    expect 0 "deform baked" -- "$bin" deform "$out/driven.glb" --frames $frames -o "$out/baked.csv"
    expect 0 "deform --rig" -- "$bin" deform "$glb" --rig "$rig" --frames $frames -o "$out/rigged.csv"
    expect 0 "deform plain" -- "$bin" deform "$glb" --frames $frames -o "$out/plain.csv"
    same_numbers "$out/baked.csv" "$out/rigged.csv" 1e-6 && ok || bad "deform of the baked glb differs from deform --rig"
    same_numbers "$out/plain.csv" "$out/rigged.csv" 1e-6 && bad "deform --rig gives the same positions as without the rig" || ok
    if command -v node >/dev/null; then
        bash "$root/scripts/validate_gltf.sh" "$out/driven.glb" >"$out/validator" 2>&1 && ok ||
            bad "validator: $(cat "$out/validator")"
    else
        skip_part "node is not installed, the baked glb is not validated (scripts/packages-node.txt)"
    fi
fi
expect 2 "gltf of the bind pose alone" -- "$bin" drive "$glb" --rig "$rig" --frames bind -o "$out/bind.glb"
[ ! -e "$out/bind.glb" ] && ok || bad "a failed drive left $out/bind.glb"

# --- --rig on the other per-frame commands ---
# Frame 49 has the control in a corner (frown_L at 1): the driven shape must change T.
if expect 0 "tension --rig" -- "$bin" tension "$glb" --rig "$rig" --frames 49 -o "$out/t.csv" &&
   expect 0 "tension without the rig" -- "$bin" tension "$glb" --frames 49 -o "$out/t_plain.csv"; then
    same_numbers "$out/t.csv" "$out/t_plain.csv" 1e-6 && bad "tension --rig: T at frame 49 is the same as without the rig" || ok
fi

# check --rig: the driven shapes are what check measures. Without the rig the face never
# deforms (no vertex past 0.99 / 1.01); with it, the worst vertices are those of tension --rig's
# JSON summary (a second path over the same frames).
expect 0 "check without the rig passes" -- "$bin" check "$glb" --max-stretch 0.99 --max-compress 1.01
if expect 1 "check --rig fails past the limits" -- "$bin" check "$glb" --rig "$rig" --max-stretch 0.99 --max-compress 1.01 --worst 1 &&
   cp "$out/stdout" "$out/check.txt" &&
   expect 0 "tension --rig summary" -- "$bin" tension "$glb" --rig "$rig" --format json -o "$out/summary.json"; then
    python3 - "$out/summary.json" "$out/check.txt" <<'EOF' && ok || bad "check --rig: worst vertices differ from tension --rig's summary"
import json, re, sys
s = json.load(open(sys.argv[1]))["summary"][0]
lines = open(sys.argv[2]).read().splitlines()
# "file vertices A, B (one welded vertex)": the summary's index is the first file id.
worst = [re.match(r"  mesh 'Face' file vertices? (\d+)[^f]* frame (\d+): T = (\S+)", l) for l in lines if l.startswith("  mesh")]
assert len(worst) == 2, lines
assert (int(worst[0][1]), int(worst[0][2]), float(worst[0][3])) == (s["min_index"], s["min_frame"], s["min_t"]), (worst[0].groups(), s)
assert (int(worst[1][1]), int(worst[1][2]), float(worst[1][3])) == (s["max_index"], s["max_frame"], s["max_t"]), (worst[1].groups(), s)
EOF
fi
# rivet --rig: the rig is read and resolved against the scene like the other commands' (no
# corpus file has a skinned mesh with morph targets and a joystick control, so what a driven
# rivet bakes is not checked here: docs/testing.md).
printf '{"controls": [' >"$out/broken_rivet.json"
expect 2 "rivet --rig with a broken rig" -- "$bin" rivet "$glb" --vertices 1 --bake --rig "$out/broken_rivet.json" -o "$out/never.json" &&
    stderr_has "not valid JSON" "rivet --rig broken rig"
sed 's/CTRL_mouth/CTRL_jaw/' "$rig" >"$out/jaw_rivet.json"
expect 5 "rivet --rig naming a node the scene lacks" -- "$bin" rivet "$glb" --vertices 1 --bake --rig "$out/jaw_rivet.json" -o "$out/never.json" &&
    stderr_has "no node 'CTRL_jaw'" "rivet --rig unknown node"
[ ! -e "$out/never.json" ] && ok || bad "a refused rivet --rig left $out/never.json"

# --- usage errors (2): no rig, bad rig; checked before the scene loads ---
expect 2 "drive without --rig" -- "$bin" drive "$glb" && stderr_has "--rig" "drive without --rig"
printf '{"controls": [{"node": "CTRL_mouth", "axes": {"x": "+x", "y": "z"}, "travel": 0.5, "mesh": "Face", "targets": {"up_left": "smile_L"}}]}' >"$out/bad_axis.json"
expect 2 "bad axis" -- "$bin" drive "$glb" --rig "$out/bad_axis.json" -o "$out/never.csv" &&
    stderr_has 'bad_axis.json: controls[0].axes.y: expected a string like "+x" or "-z"' "bad axis"
[ ! -e "$out/never.csv" ] && ok || bad "a failed drive left $out/never.csv"
printf '{"controls": [{"node": "CTRL_mouth", "axes": {"x": "+x", "y": "-z"}, "travle": 0.5, "mesh": "Face", "targets": {"up_left": "smile_L"}}]}' >"$out/typo.json"
expect 2 "unknown key" -- "$bin" deform "$out/no_such_file.glb" --rig "$out/typo.json" && stderr_has "controls[0].travle: unknown key" "unknown key"
printf '{"controls": [{"node": "CTRL_mouth", "axes": {"x": "+x", "y": "-z"}, "travel": 0.5, "targets": {"up_left": "smile_L"}}]}' >"$out/missing.json"
expect 2 "missing mesh" -- "$bin" drive "$glb" --rig "$out/missing.json" && stderr_has "controls[0].mesh: missing" "missing mesh"
printf '{"controls": [' >"$out/broken.json"
expect 2 "not JSON" -- "$bin" drive "$glb" --rig "$out/broken.json" && stderr_has "not valid JSON" "not JSON"
expect 2 "rig file missing" -- "$bin" drive "$glb" --rig "$out/absent.json"
cp "$rig" "$out/rig.json"
expect 2 "output over the rig" -- "$bin" drive "$glb" --rig "$out/rig.json" -o "$out/rig.json"
cmp -s "$rig" "$out/rig.json" && ok || bad "drive -o RIG overwrote the rig file"

# --- names the scene lacks (5) ---
sed 's/CTRL_mouth/CTRL_jaw/' "$rig" >"$out/jaw.json"
expect 5 "unknown node" -- "$bin" drive "$glb" --rig "$out/jaw.json" && stderr_has "no node 'CTRL_jaw' (nodes: Face, CTRL_mouth)" "unknown node"
sed 's/"frown_R"/"frown_RR"/' "$rig" >"$out/target.json"
expect 5 "unknown target" -- "$bin" tension "$glb" --rig "$out/target.json" && stderr_has "frown_RR" "unknown target" &&
    stderr_has "(targets: smile_L, smile_R, frown_L, frown_R)" "unknown target"

# --- the FBX: the same control through Assimp (times rebased: frame f of the glb is f - 1) ---
fbx="$corpus/joystick_face/joystick_face.fbx"
if [ -f "$fbx" ]; then
    if expect 0 "drive fbx" -- "$bin" drive "$fbx" --rig "$rig" --frames 48; then
        grep -q '^48,[^,]*,mouth,Face,frown_L,1$' "$out/stdout" && ok || bad "drive fbx: frame 48 (oracle 49) frown_L is not 1"
    fi
    expect 0 "drive fbx gltf" -- "$bin" drive "$fbx" --rig "$rig" -o "$out/fbx.glb"
else
    skip_part "$fbx not found (set RIGSCOPE_CORPUS)"
fi

# --- the schema agrees with the shipped rig, and rejects the bad rigs above ---
# Debian's python3-jsonschema (scripts/setup.sh) is for Debian's python3, whatever python3 PATH finds.
py=/usr/bin/python3
if $py -c 'import jsonschema' 2>/dev/null; then
    $py - "$root/docs/rig.schema.json" "$rig" <<'EOF' && ok || bad "data/joystick_face.rig.json does not match docs/rig.schema.json"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
EOF
    for broken in bad_axis typo missing; do
        $py - "$root/docs/rig.schema.json" "$out/$broken.json" <<'EOF' && ok || bad "docs/rig.schema.json accepts $broken.json, which rigscope refuses"
import json, sys, jsonschema
try:
    jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
except jsonschema.ValidationError:
    sys.exit(0)
sys.exit(1)
EOF
    done
else
    skip_part "python3-jsonschema is not installed: the rig schema is not checked"
fi

[ $fail -eq 0 ] || exit 1
echo "PASS: $pass checks"
[ $skipped -eq 0 ] || exit 77
exit 0
