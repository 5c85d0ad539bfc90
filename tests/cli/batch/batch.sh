#!/usr/bin/env bash
# Several inputs per command (issue 41 item 1): check and lint over files, folders, @lists and
# @-, per-file outputs by placeholder and their collisions, one JUnit report (both schemas) and
# one summary for the batch, checked against single-file runs of the same files; --jobs 1 and 2
# give the same outputs; the exit code is the worst file's; --task slices; one file named alone
# behaves as before.
source "$(dirname "$0")/../common.bash"
SCHEMAS=(tests/schemas/junit-10.xsd tests/schemas/ant-junit.xsd)
command -v xmllint >/dev/null || { echo "FAIL: xmllint is missing (scripts/packages-xml.txt)"; exit 1; }
valid() {
    local s
    for s in "${SCHEMAS[@]}"; do xmllint --noout --schema "$s" "$1" 2>"$WORK/xmllint" || { head -5 "$WORK/xmllint"; return 1; }; done
}

# The library: glTF and FBX of one rig (one stem), a Collada file, a truncated copy, in a subfolder.
LIB=$WORK/lib
mkdir -p "$LIB/sub" "$LIB/notes"
cp data/bend_cylinder.glb "$LIB/"
cp "$CORPUS/bend_cylinder/bend_cylinder.fbx" "$LIB/"
cp "$CORPUS/khronos/cesium_man.gltf" "$LIB/sub/"
head -c 3000 data/bend_cylinder.glb >"$LIB/sub/broken.glb"
echo "not a rig" >"$LIB/notes/readme.txt"
LIMITS=(--max-stretch 0.99 --max-compress 1.01)

# A folder: every rig file, recursively, in sorted order; the .txt is not taken.
expect 3 "check of a folder (worst: the truncated file, 3)" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --junit "$WORK/b.xml" --summary "$WORK/s.csv"
check "counts on stderr" -- grep -qx "batch: 4 files: 3 fail, 1 error" "$WORK/err"
check "the truncated file's one-line message on stderr" -- grep -q "broken.glb: truncated GLB" "$WORK/err"
check "stdout names each file" -- test "$(grep -c '^==> ' "$WORK/out")" -eq 4
check "summary: a row per file, sorted" -- test "$(cut -d, -f1 "$WORK/s.csv" | tail -n +2 | tr '\n' ' ')" = \
    "bend_cylinder.fbx bend_cylinder.glb sub/broken.glb sub/cesium_man.gltf "
check "summary: the truncated file is an error with its message" -- grep -q '^sub/broken.glb,.*,error,3,.*truncated GLB' "$WORK/s.csv"
check "JUnit validates against both schemas" -- valid "$WORK/b.xml"
check "JUnit: a suite per file, named by the relative path" -- test "$(grep -o '<testsuite name="[^"]*"' "$WORK/b.xml" | tr '\n' ' ')" = \
    '<testsuite name="bend_cylinder.fbx" <testsuite name="bend_cylinder.glb" <testsuite name="sub/broken.glb" <testsuite name="sub/cesium_man.gltf" '
check "JUnit: suites numbered from 0" -- test "$(grep -o ' id="[0-9]*"' "$WORK/b.xml" | tr -d '\n')" = ' id="0" id="1" id="2" id="3"'
check "JUnit: the truncated file is an error case with its message" -- \
    grep -q '<error type="rigscope.check.error" message="[^"]*broken.glb: truncated GLB' "$WORK/b.xml"
check "JUnit: its suite counts one error" -- grep -q 'name="sub/broken.glb" package="rigscope.check" id="2" tests="1" failures="0" errors="1"' "$WORK/b.xml"

# The summary against single-file runs of the same files: status by exit code, the counts past
# each limit from check --json, the lowest T and where from the first offender check lists.
python3 - "$WORK/s.csv" >"$WORK/files" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["path"], r["status"], r["exit_code"], r["past_max_stretch"], r["past_max_compress"], r["min_t"], r["min_t_vertex"], r["min_t_frame"], r["frames"])
PY
while read -r path status code past_s past_c min_t min_v min_f frames; do
    "$RIGSCOPE" -q check "$path" "${LIMITS[@]}" --json "$WORK/one.json" >"$WORK/one.txt" 2>/dev/null
    single=$?
    check "$path: exit code as alone ($single)" -- test "$code" = "$single"
    [ "$status" = error ] && continue
    check "$path: status" -- test "$status" = "$([ "$single" = 0 ] && echo pass || echo fail)"
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(*[l["file_vertices"] for l in d["limits"]])' "$WORK/one.json")
    check "$path: counts past each limit as check --json" -- test "$got" = "$past_s $past_c"
    first=$(sed -n '2p' "$WORK/one.txt")  # the worst stretch offender: the lowest T
    check "$path: min T, vertex and frame as check lists the worst" -- \
        bash -c "grep -q 'vert[a-z]* $min_v[ ,].*frame $min_f: T = $min_t\$' <<<'$first'"
    nframes=$("$RIGSCOPE" -q tension "$path" -o - --format csv | tail -n +2 | cut -d, -f1 | sort -u | wc -l)
    check "$path: frames as tension evaluates" -- test "$frames" = "$nframes"
done <"$WORK/files"

# --jobs 1 and 2: the same bytes, but for time and memory (the last columns) and JUnit's timing.
for j in 1 2; do
    "$RIGSCOPE" -q check "$LIB" "${LIMITS[@]}" --jobs $j --junit "$WORK/j$j.xml" --summary "$WORK/j$j.csv" --json "$WORK/json$j/{relpath}.json" >"$WORK/j$j.txt" 2>/dev/null
done
check "--jobs 1 and 2: same stdout" -- cmp -s "$WORK/j1.txt" "$WORK/j2.txt"
check "--jobs 1 and 2: same summary without time and memory" -- \
    cmp -s <(python3 -c 'import csv,sys; [print(list(r.values())[:-2]) for r in csv.DictReader(open(sys.argv[1]))]' "$WORK/j1.csv") \
    <(python3 -c 'import csv,sys; [print(list(r.values())[:-2]) for r in csv.DictReader(open(sys.argv[1]))]' "$WORK/j2.csv")
check "--jobs 1 and 2: same JUnit without timing" -- \
    cmp -s <(sed -E 's/ (time|timestamp)="[^"]*"//g' "$WORK/j1.xml") <(sed -E 's/ (time|timestamp)="[^"]*"//g' "$WORK/j2.xml")
check "--jobs 1 and 2: same per-file JSON" -- diff -r "$WORK/json1" "$WORK/json2"
check "{relpath} outputs keep one stem apart, folders made" -- test -f "$WORK/json1/bend_cylinder.glb.json" -a -f "$WORK/json1/bend_cylinder.fbx.json" -a -f "$WORK/json1/sub/cesium_man.gltf.json"
check "a per-file output is check --json's bytes" -- bash -c "'$RIGSCOPE' -q check '$LIB/bend_cylinder.glb' ${LIMITS[*]} --json '$WORK/one.json' >/dev/null; cmp -s '$WORK/one.json' '$WORK/json1/bend_cylinder.glb.json'"
check "the JSON summary has a row per file" -- \
    bash -c "'$RIGSCOPE' -q check '$LIB' ${LIMITS[*]} --summary '$WORK/s.json' >/dev/null; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [f[\"file\"] for f in d[\"files\"]]==[\"bend_cylinder.fbx\",\"bend_cylinder.glb\",\"sub/broken.glb\",\"sub/cesium_man.gltf\"]; assert d[\"exit_code\"]==3' '$WORK/s.json'"

# Collisions and outputs without placeholder: refused before any work (exit 2), naming both inputs.
expect 2 "two inputs writing one file" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --json "$WORK/c/{stem}.json"
check "the refusal names both inputs" -- grep -q "bend_cylinder.fbx and .*bend_cylinder.glb would both write" "$WORK/err"
check "nothing written" -- test ! -e "$WORK/c/bend_cylinder.json"
expect 2 "a per-file output without placeholder" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --json "$WORK/one_for_all.json"
check "the refusal hints at a placeholder" -- grep -q "give a placeholder" "$WORK/err"
expect 2 "an unknown placeholder" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --json "$WORK/{base}.json"
expect 2 "a summary that is neither CSV nor JSON" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --summary "$WORK/s.txt"

# @list, @- and explicit files: the same rows for the same files.
printf '%s\n' "$LIB/bend_cylinder.glb" "# a comment" "" "$LIB/sub/cesium_man.gltf" >"$WORK/list.txt"
expect 1 "@list" -- "$RIGSCOPE" check "@$WORK/list.txt" "${LIMITS[@]}" --summary "$WORK/l.csv"
check "@list: its two files" -- test "$(tail -n +2 "$WORK/l.csv" | wc -l)" -eq 2
expect 1 "@-" -- bash -c "'$RIGSCOPE' check @- ${LIMITS[*]} --summary '$WORK/l2.csv' <'$WORK/list.txt'"
expect 1 "two files named" -- "$RIGSCOPE" check "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf" "${LIMITS[@]}" --summary "$WORK/l3.csv"
cut_rows() { python3 -c 'import csv,sys; [print(list(r.values())[:-2]) for r in csv.DictReader(open(sys.argv[1]))]' "$1"; }
rows_l=$(cut_rows "$WORK/l.csv")
check "@list: rows written" -- test "$(grep -c . <<<"$rows_l")" -eq 2
check "@list and @- give the same rows" -- test "$rows_l" = "$(cut_rows "$WORK/l2.csv")"
check "@list and named files give the same rows" -- test "$rows_l" = "$(cut_rows "$WORK/l3.csv")"

# Exit code order: pass 0 < fail 1 < not checked 2 < unreadable 3.
expect 0 "all pass" -- "$RIGSCOPE" check "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf" --max-stretch 0.1 --max-compress 9
check "all pass: counts" -- grep -qx "batch: 2 files: 2 pass" "$WORK/err"
mkdir -p "$WORK/static"
cp "$CORPUS/assimp/FBX/spider.fbx" "$WORK/static/"
expect 2 "a file without animation: not checked (2) above a fail" -- "$RIGSCOPE" check "$WORK/static/spider.fbx" "$LIB/bend_cylinder.glb" "${LIMITS[@]}" --summary "$WORK/n.csv"
check "not checked: its row and message" -- grep -q '^static/spider.fbx,.*,not checked,2,.*nothing to check' "$WORK/n.csv"
check "not checked: counted" -- grep -qx "batch: 2 files: 1 fail, 1 not checked" "$WORK/err"
expect 3 "an unreadable file ranks above not checked" -- "$RIGSCOPE" check "$WORK/static/spider.fbx" "$LIB/sub/broken.glb" "${LIMITS[@]}"

# --task I/N: the slices cover every file once, in order.
for i in 0 1 2; do "$RIGSCOPE" -q check "$LIB" "${LIMITS[@]}" --task $i/3 --summary "$WORK/t$i.csv" >/dev/null 2>&1; done
check "--task: the slices' rows are the whole batch's" -- \
    test "$(cat "$WORK"/t{0,1,2}.csv | grep -v '^file,' | cut -d, -f1-21)" = "$(tail -n +2 "$WORK/s.csv" | cut -d, -f1-21)"
# The tasks' JSON summaries merge into the batch's (rigscope merge), a missing task refused.
for i in 0 1 2; do "$RIGSCOPE" -q check "$LIB" "${LIMITS[@]}" --task $i/3 --summary "$WORK/t$i.json" >/dev/null 2>&1; done
expect 3 "merge of the tasks' summaries: the batch's exit code" -- "$RIGSCOPE" merge "$WORK/merged.csv" "$WORK"/t{2,0,1}.json
check "merge: the batch's counts" -- grep -qx "batch: 4 files: 3 fail, 1 error" "$WORK/err"
check "merge: the whole batch's rows but for time and memory" -- test "$(cut_rows "$WORK/merged.csv")" = "$(cut_rows "$WORK/s.csv")"
expect 5 "merge with a task missing" -- "$RIGSCOPE" merge "$WORK/merged2.csv" "$WORK"/t{0,1}.json
check "merge names the missing task" -- grep -q "task 2/3 is missing" "$WORK/err"
expect 2 "--task out of range" -- "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --task 3/3

# lint over the folder: a row per file with its counts, as lint alone counts them.
expect 3 "lint of a folder" -- "$RIGSCOPE" lint "$LIB" --summary "$WORK/lint.csv" --junit "$WORK/lint.xml"
check "lint JUnit validates" -- valid "$WORK/lint.xml"
"$RIGSCOPE" -q lint "$LIB/sub/cesium_man.gltf" -o "$WORK/one_lint.json" >/dev/null 2>&1
check "lint counts as lint alone" -- test "$(grep '^sub/cesium_man.gltf,' "$WORK/lint.csv" | cut -d, -f21,22)" = \
    "$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; print(sum(x["severity"]=="error" for x in f), sum(x["severity"]=="warning" for x in f), sep=",")' "$WORK/one_lint.json")"

# One file alone: exactly as before (no batch lines), with --junit the single report.
expect 1 "one file alone" -- "$RIGSCOPE" check "$LIB/bend_cylinder.glb" "${LIMITS[@]}" --junit "$WORK/alone.xml"
check "one file alone: no batch header or counts" -- bash -c "! grep -q '^==> ' '$WORK/out' && ! grep -q '^batch:' '$WORK/err'"
check "one file alone: its suite named by stem" -- grep -q '<testsuite name="bend_cylinder" package="rigscope.check" id="0"' "$WORK/alone.xml"

# The one-command CI job of docs/rig_ci.md (the manual's Rig CI), as written, on a copy of the library with the broken file.
awk '/<!-- readme-test: skip: .*batch.sh/ {on = 1; next} on && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside' docs/rig_ci.md >"$WORK/ci.sh"
check "docs/rig_ci.md has the batch job" -- grep -q "rigscope check rigs/" "$WORK/ci.sh"
mkdir -p "$WORK/ci/bin" "$WORK/ci/reports"
ln -s "$(cd "$(dirname "$RIGSCOPE")" && pwd)/$(basename "$RIGSCOPE")" "$WORK/ci/bin/rigscope"
cp -r "$LIB" "$WORK/ci/rigs"
rm -r "$WORK/ci/rigs/notes"
cp "$WORK/ci.sh" "$WORK/ci/ci.sh"
expect 3 "the docs/rig_ci.md job (the truncated file is the worst)" -- bash -c "cd '$WORK/ci' && PATH='$WORK/ci/bin':\$PATH bash ci.sh"
check "docs/rig_ci.md job: JUnit validates" -- valid "$WORK/ci/reports/rigs.xml"
check "docs/rig_ci.md job: a summary row per file" -- test "$(tail -n +2 "$WORK/ci/reports/rigs.csv" | wc -l)" -eq 4
check "docs/rig_ci.md job: a page per judged file" -- test -f "$WORK/ci/reports/sub/cesium_man.gltf.html" -a -f "$WORK/ci/reports/bend_cylinder.fbx.html"

# --- tension FILE...: a map per file by placeholder, the summary's row from each file's own map ---
# The library once more with a file without mesh (a walk and its skeleton): not checked, like a
# single `tension` of it (exit 2); the truncated file an error (exit 3), the batch's exit code.
cp "$CORPUS/pab/walk.fbx" "$LIB/sub/"
for j in 1 2; do
    expect 3 "tension of a folder, --jobs $j (worst: the truncated file)" -- \
        "$RIGSCOPE" tension "$LIB" -o "$WORK/tj$j/{relpath}.csv" --jobs $j --summary "$WORK/tj$j.csv"
done
check "tension: counts on stderr" -- grep -qx "batch: 5 files: 3 ok, 1 not checked, 1 error" "$WORK/err"
check "tension --jobs 1 and 2: the same maps, byte for byte" -- diff -r "$WORK/tj1" "$WORK/tj2"
check "tension --jobs 1 and 2: the same summary but for time and memory" -- test "$(cut_rows "$WORK/tj1.csv")" = "$(cut_rows "$WORK/tj2.csv")"
check "tension: a map per file that ran, none for the others" -- test "$(cd "$WORK/tj1" && find . -type f | sort | tr '\n' ' ')" = \
    "./bend_cylinder.fbx.csv ./bend_cylinder.glb.csv ./sub/cesium_man.gltf.csv "
check "tension: each map is tension FILE -o's bytes" -- bash -c "'$RIGSCOPE' -q tension '$LIB/sub/cesium_man.gltf' -o '$WORK/one_t.csv' && cmp -s '$WORK/one_t.csv' '$WORK/tj1/sub/cesium_man.gltf.csv'"
check "tension: the file without mesh is not checked with its message" -- grep -q '^sub/walk.fbx,.*,not checked,2,.*has no mesh' "$WORK/tj1.csv"
check "tension: the truncated file is an error with its message" -- grep -q '^sub/broken.glb,.*,error,3,.*truncated GLB' "$WORK/tj1.csv"
# The row against the map it describes: frames and vertices counted in the CSV, min and max T its
# t column's (the summary prints T as the CSV does, shortest round trip of the float), and the
# vertex and frame named hold that T.
python3 - "$WORK/tj1.csv" "$WORK/tj1" >"$WORK/trows" <<'PY2'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok":
        continue
    rows = list(csv.DictReader(open(f"{sys.argv[2]}/{r['file']}.csv")))
    frames = len({x["frame"] for x in rows})
    per_frame = len(rows) // frames
    t = [float(x["t"]) for x in rows]
    at = {(x["mesh"], x["vertex"], x["frame"]): float(x["t"]) for x in rows}
    ok = (int(r["frames"]) == frames and int(r["vertices"]) == per_frame and float(r["min_t"]) == min(t) and float(r["max_t"]) == max(t)
          and at[(r["min_t_mesh"], r["min_t_vertex"], r["min_t_frame"])] == min(t) and at[(r["max_t_mesh"], r["max_t_vertex"], r["max_t_frame"])] == max(t))
    print(r["file"], "agrees" if ok else f"differs: {dict(r)} frames {frames} vertices {per_frame} min {min(t)} max {max(t)}")
PY2
check "tension: three rows checked against their maps" -- test "$(grep -c agrees "$WORK/trows")" -eq 3
grep -v agrees "$WORK/trows" | head -3
# Outputs: refused before any work, nothing written.
expect 2 "tension: two inputs writing one file" -- "$RIGSCOPE" tension "$LIB" -o "$WORK/tc/{stem}.csv"
check "tension: the refusal names both inputs" -- grep -q "bend_cylinder.fbx and .*bend_cylinder.glb would both write" "$WORK/err"
check "tension: nothing written on refusal" -- test ! -e "$WORK/tc/bend_cylinder.csv"
expect 2 "tension over several files without -o" -- "$RIGSCOPE" tension "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf"
check "tension without -o: the hint" -- grep -q "give -o with a placeholder" "$WORK/err"
expect 2 "tension: one -o for several files" -- "$RIGSCOPE" tension "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf" -o "$WORK/all.csv"
expect 2 "tension: a .gltf name by placeholder (glTF binary is .glb)" -- "$RIGSCOPE" tension "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf" -o "$WORK/tg/{stem}.gltf"
check "tension: nothing written for the .gltf refusal" -- test ! -e "$WORK/tg/bend_cylinder.gltf"
# glTF frames by placeholder and '#': a file per frame per input, as one file's run names them.
expect 0 "tension glTF frames by placeholder" -- "$RIGSCOPE" tension "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf" -o "$WORK/tglb/{stem}_####.glb" --frames 1..2
check "tension glTF: two frames per file" -- test -f "$WORK/tglb/bend_cylinder_0001.glb" -a -f "$WORK/tglb/bend_cylinder_0002.glb" -a -f "$WORK/tglb/cesium_man_0002.glb"
check "tension glTF: stdout holds no binary" -- test "$(grep -c '^==> ' "$WORK/out")" -eq 0

# --- report FILE...: a page per file by placeholder and index.html beside them ------------------
for j in 1 2; do
    expect 3 "report of a folder, --jobs $j" -- "$RIGSCOPE" report "$LIB" -o "$WORK/rp$j/{relpath}.html" --jobs $j --summary "$WORK/rp$j.json"
done
check "report --jobs 1 and 2: the same pages and index, byte for byte" -- diff -r "$WORK/rp1" "$WORK/rp2"
check "report: a page per file that ran, the index beside them" -- test "$(cd "$WORK/rp1" && find . -type f | sort | tr '\n' ' ')" = \
    "./bend_cylinder.fbx.html ./bend_cylinder.glb.html ./index.html ./sub/cesium_man.gltf.html "
check "report: each page is report FILE -o's but for the run's time" -- bash -c "'$RIGSCOPE' -q report '$LIB/bend_cylinder.glb' -o '$WORK/one_r.html' &&
    test \"\$(wc -c <'$WORK/one_r.html')\" = \"\$(wc -c <'$WORK/rp1/bend_cylinder.glb.html')\""
# The index against the summary: a row per file in order, a link to each page that exists (and
# none for the others), the status, the worst T (the extreme farthest from 1 in log terms) and
# where, the message of the files that did not run.
check "report: the index lists each file with its status, worst T and message" -- python3 - "$WORK/rp1/index.html" "$WORK/rp1.json" <<'PY2'
import html.parser, json, math, os, sys
class Rows(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.cell = None
    def handle_starttag(s, tag, attrs):
        if tag == "tr": s.rows.append({"cells": [], "href": None})
        if tag == "td": s.cell = ""
        if tag == "a": s.rows[-1]["href"] = dict(attrs)["href"]
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
    def handle_endtag(s, tag):
        if tag == "td": s.rows[-1]["cells"].append(s.cell); s.cell = None
p = Rows(); p.feed(open(sys.argv[1]).read())
rows = [r for r in p.rows if r["cells"]]
files = json.load(open(sys.argv[2]))["files"]
assert [r["cells"][0] for r in rows] == [f["file"] for f in files], rows
for r, f in zip(rows, files):
    c = r["cells"]
    assert c[1] == f["status"], (c, f)
    if f["status"] == "ok":
        assert os.path.isfile(os.path.join(os.path.dirname(sys.argv[1]), r["href"])), r
        worst = max((f["min_t"], f["max_t"]), key=lambda e: (abs(math.log(e["value"])), e is f["max_t"]))
        assert float(c[2]) == worst["value"] and c[3] == worst["mesh"] and int(c[4]) == worst["vertex"] and c[5] == str(worst["frame"]), (c, worst)
    else:
        assert r["href"] is None and c[8] == f["message"], (c, f)
PY2
check "report: the index names the truncated file's error" -- grep -q '<td class="s">error</td>.*truncated GLB' "$WORK/rp1/index.html"
# --task writes no index of its part; `merge index.html` of the tasks' summaries is the one
# batch's index, byte for byte but for the counts line's time-free text (the same here).
for i in 0 1 2; do "$RIGSCOPE" -q report "$LIB" -o "$WORK/rt/{relpath}.html" --task $i/3 --summary "$WORK/rt$i.json" >/dev/null 2>&1; done
check "report --task: no task writes an index" -- test ! -e "$WORK/rt/index.html"
expect 3 "merge index.html of the report tasks" -- "$RIGSCOPE" merge "$WORK/rt/index.html" "$WORK"/rt{0,1,2}.json
check "merge index.html: the single batch's index" -- cmp -s "$WORK/rt/index.html" "$WORK/rp1/index.html"
for i in 0 1 2; do "$RIGSCOPE" -q check "$LIB" "${LIMITS[@]}" --task $i/3 --summary "$WORK/ct$i.json" >/dev/null 2>&1; done
expect 2 "merge index.html of tasks that wrote no pages" -- "$RIGSCOPE" merge "$WORK/ct_index.html" "$WORK"/ct{0,1,2}.json
check "merge index.html without pages: says so, writes nothing" -- bash -c "grep -q 'wrote no pages to index' '$WORK/err' && test ! -e '$WORK/ct_index.html'"
expect 2 "report: two inputs writing one page" -- "$RIGSCOPE" report "$LIB" -o "$WORK/rc/{stem}.html"
check "report: nothing written on refusal" -- test ! -e "$WORK/rc/index.html" -a ! -e "$WORK/rc/bend_cylinder.html"
mkdir -p "$WORK/idx"
cp data/bend_cylinder.glb "$WORK/idx/index.glb"
cp "$CORPUS/khronos/cesium_man.gltf" "$WORK/idx/"
expect 2 "report: a page named as the index" -- "$RIGSCOPE" report "$WORK/idx" -o "$WORK/ri/{stem}.html"
check "report: the refusal names the index" -- grep -q "index.html" "$WORK/err"
expect 3 "report: a missing viewer is refused before any work" -- env RIGSCOPE_REPORT_BUNDLE="$WORK/no_viewer.html" "$RIGSCOPE" report "$LIB" -o "$WORK/rv/{relpath}.html"
check "report: the viewer named once, no page" -- bash -c "test \"\$(grep -c no_viewer '$WORK/err')\" = 1 && test ! -e '$WORK/rv'"

# --- info FILE... and deform FILE...: outputs by placeholder, rows ---------------------------------
expect 3 "info of a folder on stdout" -- "$RIGSCOPE" info "$LIB" --summary "$WORK/i.csv"
check "info: each file under its name" -- test "$(grep -c '^==> ' "$WORK/out")" -eq 5
check "info: the file without mesh is ok (info judges nothing), the truncated one an error" -- \
    test "$(cut -d, -f1,4 "$WORK/i.csv" | tail -n +2 | tr '\n' ' ')" = "bend_cylinder.fbx,ok bend_cylinder.glb,ok sub/broken.glb,error sub/cesium_man.gltf,ok sub/walk.fbx,ok "
check "info: vertices as tension's rows count them" -- test "$(grep ',ok,' "$WORK/i.csv" | grep -v '^sub/walk.fbx,' | cut -d, -f1,7,8)" = "$(grep ',ok,' "$WORK/tj1.csv" | cut -d, -f1,7,8)"
for j in 1 2; do "$RIGSCOPE" -q info "$LIB" -o "$WORK/ij$j/{relpath}.json" --jobs $j >/dev/null 2>&1; done
check "info --jobs 1 and 2: the same files" -- diff -r "$WORK/ij1" "$WORK/ij2"
check "info: each file is info FILE -o's bytes" -- bash -c "'$RIGSCOPE' -q info '$LIB/sub/cesium_man.gltf' -o '$WORK/one_i.json' && cmp -s '$WORK/one_i.json' '$WORK/ij1/sub/cesium_man.gltf.json'"
expect 2 "info: -o .txt with --json" -- "$RIGSCOPE" info "$LIB" --json -o "$WORK/ix/{relpath}.txt"
check "info: nothing written on refusal" -- test ! -e "$WORK/ix/bend_cylinder.glb.txt"
for j in 1 2; do
    expect 3 "deform of a folder, --jobs $j" -- "$RIGSCOPE" deform "$LIB" -o "$WORK/dj$j/{relpath}.csv" --jobs $j --summary "$WORK/dj$j.csv"
done
check "deform --jobs 1 and 2: the same files" -- diff -r "$WORK/dj1" "$WORK/dj2"
check "deform: the same summary but for time and memory" -- test "$(cut_rows "$WORK/dj1.csv")" = "$(cut_rows "$WORK/dj2.csv")"
check "deform: each file is deform FILE -o's bytes" -- bash -c "'$RIGSCOPE' -q deform '$LIB/bend_cylinder.fbx' -o '$WORK/one_d.csv' && cmp -s '$WORK/one_d.csv' '$WORK/dj1/bend_cylinder.fbx.csv'"
check "deform: frames and vertices as its CSV holds them" -- python3 - "$WORK/dj1.csv" "$WORK/dj1" <<'PY2'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok" or r["meshes"] == "0":
        continue
    rows = list(csv.DictReader(open(f"{sys.argv[2]}/{r['file']}.csv")))
    frames = len({x["frame"] for x in rows})
    assert int(r["frames"]) == frames and int(r["vertices"]) * frames == len(rows), (r, frames, len(rows))
PY2
expect 2 "deform over several files without -o" -- "$RIGSCOPE" deform "$LIB/bend_cylinder.glb" "$LIB/sub/cesium_man.gltf"
expect 2 "deform: an extension that is neither CSV nor JSON" -- "$RIGSCOPE" deform "$LIB" -o "$WORK/dx/{relpath}.txt"
check "deform: nothing written on refusal" -- test ! -e "$WORK/dx/bend_cylinder.glb.txt"

# --- diff over pairs: --against DIR and @pairs.txt, one JUnit with a suite per pair -------------
# OLD: two rigs, a truncated file, a file whose partner is missing; NEW: one rig unchanged, the
# other with the weights of every 37th vertex swapped (a change diff must catch).
mkdir -p "$WORK/old/sub" "$WORK/new/sub"
cp data/bend_cylinder.glb "$WORK/old/"
python3 tests/cli/swap_weights.py data/bend_cylinder.glb "$WORK/new/bend_cylinder.glb" 37 || exit 1
cp "$CORPUS/khronos/cesium_man.gltf" "$WORK/old/sub/"
cp "$CORPUS/khronos/cesium_man.gltf" "$WORK/new/sub/"
head -c 3000 data/bend_cylinder.glb >"$WORK/old/broken.glb"
cp data/bend_cylinder.glb "$WORK/new/broken.glb"
cp data/bend_cylinder.glb "$WORK/old/only_old.glb"
DLIM=(--max-displacement 0.001)
for j in 1 2; do
    expect 3 "diff --against, --jobs $j (worst: the truncated and the unpaired files)" -- \
        "$RIGSCOPE" diff --against "$WORK/new" "$WORK/old" "${DLIM[@]}" --jobs $j --junit "$WORK/dj$j.xml" --summary "$WORK/ds$j.json" -o "$WORK/dd$j/{relpath}.csv"
done
check "diff --against: counts on stderr" -- grep -qx "batch: 4 files: 1 pass, 1 fail, 2 error" "$WORK/err"
check "diff --against: the unpaired file is an error naming its missing partner" -- grep -q "only_old.glb: no partner under .*new/only_old.glb does not exist" "$WORK/err"
check "diff: JUnit validates against both schemas" -- valid "$WORK/dj1.xml"
check "diff: JUnit, a suite per pair named by OLD's relative path" -- test "$(grep -o '<testsuite name="[^"]*"' "$WORK/dj1.xml" | tr '\n' ' ')" = \
    '<testsuite name="bend_cylinder.glb" <testsuite name="broken.glb" <testsuite name="only_old.glb" <testsuite name="sub/cesium_man.gltf" '
check "diff: the missing partner is an error case of its suite" -- grep -q '<error type="rigscope.diff.error" message="[^"]*no partner under' "$WORK/dj1.xml"
check "diff --jobs 1 and 2: the same per-vertex outputs" -- diff -r "$WORK/dd1" "$WORK/dd2"
check "diff --jobs 1 and 2: the same JUnit without timing" -- \
    cmp -s <(sed -E 's/ (time|timestamp)="[^"]*"//g' "$WORK/dj1.xml") <(sed -E 's/ (time|timestamp)="[^"]*"//g' "$WORK/dj2.xml")
check "diff: a per-vertex output only for the pairs that ran" -- test "$(cd "$WORK/dd1" && find . -type f | sort | tr '\n' ' ')" = "./bend_cylinder.glb.csv ./sub/cesium_man.gltf.csv "
# Each pair as `rigscope diff OLD NEW` alone: its exit code, its per-vertex output's bytes, its
# verdict line, and the row's NEW.
python3 -c 'import json,sys; [print(f["path"], f["new"], f["status"], f["exit_code"]) for f in json.load(open(sys.argv[1]))["files"]]' "$WORK/ds1.json" >"$WORK/pairs_run"
while read -r old new status code; do
    "$RIGSCOPE" -q diff "$old" "$new" "${DLIM[@]}" -o "$WORK/one_diff.csv" >"$WORK/one_diff.txt" 2>/dev/null
    single=$?
    check "diff $old: exit code as alone ($single)" -- test "$code" = "$single"
    [ "$status" = error ] && continue
    rel=${old#"$WORK/old/"}
    check "diff $rel: per-vertex output as alone" -- cmp -s "$WORK/one_diff.csv" "$WORK/dd1/$rel.csv"
    check "diff $rel: the verdict as alone" -- test "$(tail -1 "$WORK/one_diff.txt")" = "$([ "$code" = 0 ] && echo PASS || echo FAIL)"
done <"$WORK/pairs_run"
check "diff: the swapped rig fails, the unchanged passes" -- test "$(cut -d' ' -f3 "$WORK/pairs_run" | tr '\n' ' ')" = "fail error error pass "
# The CSV summary names each pair's NEW as the JSON does (issue 41: the CSV had no such column).
"$RIGSCOPE" -q diff --against "$WORK/new" "$WORK/old" "${DLIM[@]}" --summary "$WORK/ds1.csv" >/dev/null 2>&1
check "diff: the CSV summary's new column is the JSON's new" -- test \
    "$(python3 -c 'import csv,sys; [print(r["path"], r["new"]) for r in csv.DictReader(open(sys.argv[1]))]' "$WORK/ds1.csv")" = \
    "$(cut -d' ' -f1,2 "$WORK/pairs_run")"
# @pairs.txt: the same pairs by list, a tab between paths with spaces; a missing NEW an error row.
mkdir -p "$WORK/with space"
cp data/bend_cylinder.glb "$WORK/with space/old one.glb"
printf '%s %s\n# a comment\n%s\t%s\n%s %s\n' "$WORK/old/bend_cylinder.glb" "$WORK/new/bend_cylinder.glb" \
    "$WORK/with space/old one.glb" "$WORK/new/sub/../bend_cylinder.glb" "$WORK/old/sub/cesium_man.gltf" "$WORK/new/nothere.gltf" >"$WORK/pairs.txt"
expect 3 "diff @pairs.txt" -- "$RIGSCOPE" diff "@$WORK/pairs.txt" "${DLIM[@]}" --summary "$WORK/pl.csv" --junit "$WORK/pl.xml"
check "@pairs: a row per pair, the missing NEW an error" -- test "$(cut -d, -f4 "$WORK/pl.csv" | tail -n +2 | tr '\n' ' ')" = "fail fail error "
check "@pairs: the missing NEW named" -- grep -q 'nothere.gltf: no such file' "$WORK/pl.csv"
check "@pairs: JUnit validates" -- valid "$WORK/pl.xml"
printf '%s\n' "$WORK/old/bend_cylinder.glb" >"$WORK/bad_pairs.txt"
expect 2 "@pairs: a line without NEW" -- "$RIGSCOPE" diff "@$WORK/bad_pairs.txt" "${DLIM[@]}"
check "@pairs: the refusal quotes the line" -- grep -q "is not a pair" "$WORK/err"
expect 2 "diff of two folders without --against" -- "$RIGSCOPE" diff "$WORK/old" "$WORK/new"
expect 2 "diff --against: one -o for several pairs" -- "$RIGSCOPE" diff --against "$WORK/new" "$WORK/old" -o "$WORK/all.csv"
expect 2 "diff --against a file" -- "$RIGSCOPE" diff --against "$WORK/new/bend_cylinder.glb" "$WORK/old"
expect 0 "diff OLD NEW alone: as before" -- "$RIGSCOPE" diff "$WORK/old/sub/cesium_man.gltf" "$WORK/new/sub/cesium_man.gltf" "${DLIM[@]}" --junit "$WORK/alone_d.xml"
check "diff alone: no batch lines, its suite named by stem" -- bash -c "! grep -q '^==> ' '$WORK/out' && ! grep -q '^batch:' '$WORK/err' && grep -q '<testsuite name=\"cesium_man\"' '$WORK/alone_d.xml'"

finish
