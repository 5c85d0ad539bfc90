#!/usr/bin/env bash
# `rigscope report` and `check --html`: the page's contents and size budgets, its errors, and the
# page itself in headless Chromium (report/browser_check.mjs; scripts/setup.sh installs both).
source "$(dirname "$0")/../common.bash"
BENCH=${RIGSCOPE_BENCH_DIR:-$(pwd)/../shared/bench}
CESIUM=$CORPUS/khronos/cesium_man.gltf
BEND=$CORPUS/bend_cylinder/bend_cylinder.glb

# Field of the page's embedded data, by a Python expression over `d`.
page_data() {
    python3 - "$1" "$2" <<'PY'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="rigscope-data">(.*?)</script>', text, re.S).group(1))
print(eval(sys.argv[2]))
PY
}
# mesh:vertex:frame:T where T is highest over all frames, from rigscope tension's JSON (the oracle
# the browser test compares the page against).
peak_compress() {
    "$RIGSCOPE" tension "$1" --format json -o "$WORK/peak.json" 2>/dev/null || return 1
    python3 - "$WORK/peak.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t, m, v, f = max((mm["max_t"], i, mm["max_index"], fr["frame"]) for fr in d["frames"] for i, mm in enumerate(fr["meshes"]))
print(f"{m}:{v}:{f}:{t!r}")
PY
}
# The same for --measure principal (extra options passed on): mesh:vertex:frame:T_c where lambda_min
# is lowest over all frames, T_c = 1 / lambda_min the compress side's T the page stores.
peak_lambda() {
    local file=$1; shift
    "$RIGSCOPE" tension "$file" --measure principal "$@" --format json -o "$WORK/peakl.json" 2>/dev/null || return 1
    python3 - "$WORK/peakl.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l, m, v, f = min((mm["measure"]["min"], i, mm["measure"]["min_index"], fr["frame"]) for fr in d["frames"] for i, mm in enumerate(fr["meshes"]))
print(f"{m}:{v}:{f}:{1 / l!r}")
PY
}
size_of() { stat -c %s "$1"; }
browser() { node report/browser_check.mjs "$@"; }

check "node and the report's npm packages are installed (scripts/setup.sh)" -- test -d report/node_modules/puppeteer-core
check "Chromium is installed (scripts/packages-report.txt)" -- test -x /usr/bin/chromium

# cesium_man, every frame: within its 3 MB budget, every frame held, the run stated.
expect 0 "report of cesium_man" -- "$RIGSCOPE" report "$CESIUM" -o "$WORK/cesium.html"
check "cesium_man page <= 3 MB" -- test "$(size_of "$WORK/cesium.html")" -le 3000000
check "cesium_man page holds every frame" -- test "$(page_data "$WORK/cesium.html" 'len(d["shown"]) == len(d["frames"]) == 49 and d["subsample"] == ""')" = True
check "cesium_man page states version, clip, parameters" -- \
    test "$(page_data "$WORK/cesium.html" 'd["rigscope"] != "" and d["command"] == "report" and d["clip"] == "animation_0" and d["params"]["compress_area"] == 0.6')" = True
peak=$(peak_compress "$CESIUM")
check "rigscope tension gives cesium_man's peak" -- test -n "$peak"
check "cesium_man in Chromium: loads offline, #frame, red at the peak, rows jump" -- browser "$WORK/cesium.html" --compressed "$peak"

# The drawn mesh against rigscope deform at one frame: cesium_man is skinned in the page; the
# joystick face (morph targets driven by a rig) is stored as quantized positions.
"$RIGSCOPE" deform "$CESIUM" --frames 9 -o "$WORK/cesium9.csv"
check "cesium_man in Chromium: the page's skinning matches rigscope deform" -- browser "$WORK/cesium.html" --positions "$WORK/cesium9.csv"
expect 0 "report of the joystick face with its rig" -- "$RIGSCOPE" report data/joystick_face.glb --rig data/joystick_face.rig.json -o "$WORK/face.html"
check "the face's mesh is stored as positions (morph targets)" -- test "$(page_data "$WORK/face.html" 'd["meshes"][0]["motion"]')" = baked
"$RIGSCOPE" deform data/joystick_face.glb --rig data/joystick_face.rig.json --frames 40 -o "$WORK/face40.csv"
check "joystick face in Chromium: positions match rigscope deform" -- browser "$WORK/face.html" --positions "$WORK/face40.csv"

# bend_cylinder, with options passed through to the tension map, and another measure than edge
# (--measure principal, smoothed): the page holds both sides' T and shows lambda.
expect 0 "report of bend_cylinder, --measure principal --smooth 2" -- \
    "$RIGSCOPE" report "$BEND" --measure principal --smooth 2 --compress-area 0.8 --worst 5 -o "$WORK/bend.html"
check "bend_cylinder page records the options and the measure" -- \
    test "$(page_data "$WORK/bend.html" 'd["params"]["compress_area"] == 0.8 and len(d["worst"]) == 5 and d["measure"] == {"kind": "principal", "smooth": 2, "smooth_weights": "uniform"} and all("t_stretch" in m for m in d["meshes"])')" = True
peak=$(peak_lambda "$BEND" --smooth 2)
check "rigscope tension --measure principal gives bend_cylinder's lowest lambda_min" -- test -n "$peak"
# The table's extremes against rigscope tension's: its worst compress row is the lowest
# lambda_min (T_c = 1 / lambda_min; float rounding of the printed values: 1e-6).
check "bend_cylinder page: worst compress row is 1 / the lowest lambda_min" -- \
    test "$(page_data "$WORK/bend.html" "abs(max(w['t'] for w in d['worst'] if w['kind'] == 'compress') / ${peak##*:} - 1) < 1e-6")" = True
check "bend_cylinder (principal) in Chromium: lambda in the table, red at the lowest lambda_min" -- \
    browser "$WORK/bend.html" --compressed "$peak" --measure principal
expect 0 "report --measure area" -- "$RIGSCOPE" report "$BEND" --measure area --worst 3 -o "$WORK/bend_area.html"
# Area's T against tension's: the highest T_area over the frames.
"$RIGSCOPE" tension "$BEND" --measure area --format json -o "$WORK/area.json"
check "area page: one T per vertex, the worst compress row is tension's highest T_area" -- \
    test "$(page_data "$WORK/bend_area.html" "d['measure']['kind'] == 'area' and all('t_stretch' not in m for m in d['meshes']) and abs(max(w['t'] for w in d['worst'] if w['kind'] == 'compress') / max(m['measure']['max'] for f in __import__('json').load(open('$WORK/area.json'))['frames'] for m in f['meshes']) - 1) < 1e-6")" = True

# check --html: the verdict and limits, the offenders as the table.
expect 1 "check --html of cesium_man past a limit" -- "$RIGSCOPE" check "$CESIUM" --max-compress 1.4 --max-stretch 0.6 --html "$WORK/check.html"
check "check page holds the verdict, limits and offenders" -- \
    test "$(page_data "$WORK/check.html" 'd["check"]["failed"] and d["check"]["max_compress"] == 1.4 and d["check"]["compress_count"] > 0 and all(w["t"] > 1.4 or w["t"] < 0.6 for w in d["worst"])')" = True
check "check page in Chromium" -- browser "$WORK/check.html"
expect 0 "check --html that passes" -- "$RIGSCOPE" check "$CESIUM" --max-compress 3 --html "$WORK/pass.html"
check "passing check page says PASS" -- test "$(page_data "$WORK/pass.html" 'd["check"]["failed"] is False and len(d["worst"]) == 10')" = True
# check --html with a limit on lambda: the page's offenders are the vertices past it on the
# measure's own side (T_c = 1 / lambda_min > 1 / 0.8), not the edge T's.
expect 1 "check --html --measure principal --min-lambda 0.8" -- \
    "$RIGSCOPE" check "$BEND" --measure principal --min-lambda 0.8 --html "$WORK/checkl.html"
check "lambda check page: limit, measure, offenders past it" -- \
    test "$(page_data "$WORK/checkl.html" 'd["measure"]["kind"] == "principal" and d["check"]["failed"] and abs(d["check"]["max_compress"] - 1.25) < 1e-12 and d["check"]["compress_count"] > 0 and all(w["kind"] == "compress" and w["t"] > 1.25 for w in d["worst"])')" = True

# A smaller budget: an even subsample of the frames, said on the page, within the budget.
expect 0 "report with --max-size 0.75" -- "$RIGSCOPE" report "$CESIUM" --max-size 0.75 -o "$WORK/small.html"
check "subsampled page <= 0.75 MB" -- test "$(size_of "$WORK/small.html")" -le 750000
check "subsampled page says so" -- test "$(page_data "$WORK/small.html" '0 < len(d["shown"]) < len(d["frames"]) and "frames shown" in d["subsample"]')" = True
check "subsampled page in Chromium" -- browser "$WORK/small.html"

# The 262k-vertex bench tube, its 24 frames: within 40 MB.
expect 0 "report of the bench tube" -- "$RIGSCOPE" report "$BENCH/tube_262k.glb" -o "$WORK/tube.html"
check "tube page <= 40 MB" -- test "$(size_of "$WORK/tube.html")" -le 40000000
check "tube page holds its 24 frames" -- test "$(page_data "$WORK/tube.html" 'len(d["frames"]) == 24 and len(d["shown"]) == 24')" = True
check "tube page in Chromium" -- browser "$WORK/tube.html"

# Errors: one line naming the file, the documented code, no page left behind.
RIGSCOPE_REPORT_BUNDLE=$WORK/none.html expect 3 "missing viewer" -- "$RIGSCOPE" report "$CESIUM" -o "$WORK/e1.html"
check "missing viewer: one line naming it" -- one_line_naming "none.html"
check "missing viewer: no page" -- test ! -e "$WORK/e1.html"
echo "<html>no marker</html>" >"$WORK/fake.html"
RIGSCOPE_REPORT_BUNDLE=$WORK/fake.html expect 3 "a viewer without the data marker" -- "$RIGSCOPE" report "$CESIUM" -o "$WORK/e2.html"
check "no page from a wrong viewer" -- test ! -e "$WORK/e2.html"
expect 2 "report without -o" -- "$RIGSCOPE" report "$CESIUM"
expect 2 "report to stdout" -- "$RIGSCOPE" report "$CESIUM" -o -
cp "$CESIUM" "$WORK/in.gltf"
expect 2 "report over its input" -- "$RIGSCOPE" report "$WORK/in.gltf" -o "$WORK/in.gltf"
expect 2 "report of a chunk" -- "$RIGSCOPE" report "$CESIUM" --chunk 0/2 -o "$WORK/e3.html"
check "no page from a chunk" -- test ! -e "$WORK/e3.html"
expect 2 "a budget too small for the tube" -- "$RIGSCOPE" report "$BENCH/tube_262k.glb" --max-size 1 -o "$WORK/e4.html"
check "no page over budget" -- test ! -e "$WORK/e4.html"
expect 4 "report into a missing folder" -- "$RIGSCOPE" report "$CESIUM" -o "$WORK/no/such/dir/r.html"
finish
