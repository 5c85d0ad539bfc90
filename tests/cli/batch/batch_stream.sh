#!/usr/bin/env bash
# Results as they happen (issue 57 item 3): a batch writes each file's text on stdout, its
# progress line on stderr (also when stderr is not a terminal) and its row in a CSV or JSONL
# summary as soon as the file and those before it are done; a SIGTERM or SIGINT then writes the
# summary and JUnit report of the files judged, the rest "interrupted", exits 143 or 130 and
# leaves no temporary. The run is held before a known file (the test-only hold point
# RIGSCOPE_TEST_HOLD_BEFORE_FILE, src/run/batch_stream.h) and stdout is a pipe read only for what
# is already in it, so nothing here depends on the machine's speed.
source "$(dirname "$0")/../common.bash"
SCHEMAS=(tests/schemas/junit-10.xsd tests/schemas/ant-junit.xsd)
command -v xmllint >/dev/null || { echo "FAIL: xmllint is missing (scripts/packages-xml.txt)"; exit 1; }
valid() {
    local s
    for s in "${SCHEMAS[@]}"; do xmllint --noout --schema "$s" "$1" 2>"$WORK/xmllint" || { head -5 "$WORK/xmllint"; return 1; }; done
}
LIB=$WORK/lib
mkdir -p "$LIB"
for n in a b c d; do cp data/bend_cylinder.glb "$LIB/$n.glb"; done
LIMITS=(--max-stretch 0.5 --max-compress 2)
marker=$WORK/held
fifo=$WORK/stdout
mkfifo "$fifo"
exec 3<>"$fifo"  # read-write: opening never blocks, and the run's stdout is this pipe

# available: the lines already in the pipe, read without waiting for more.
available() {
    local line
    : >"$WORK/seen"
    while read -r -t 0 -u 3; do IFS= read -r -u 3 line && printf '%s\n' "$line" >>"$WORK/seen"; done
}
# start_held OPTIONS...: starts the batch held before file 2 (c.glb), waits for the hold marker.
start_held() {
    rm -f "$marker"
    RIGSCOPE_TEST_HOLD_BEFORE_FILE="2:$marker" "$RIGSCOPE" check "$LIB" "${LIMITS[@]}" "$@" >"$fifo" 2>"$WORK/err" &
    pid=$!
    local i
    # Waits for the marker, not for a time: the bound only stops a broken build from hanging ctest.
    for i in $(seq 6000); do
        [ -e "$marker" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    check "the run is held before its third file" -- test -e "$marker"
}

# --- SIGTERM, one file at a time, a CSV summary ------------------------------------------------
start_held --summary "$WORK/s.csv" --junit "$WORK/j.xml"
available
check "stdout: the first two files' text is in the pipe, flushed" -- test "$(grep -c '^==> ' "$WORK/seen")" -eq 2
check "stdout: in input order (a.glb, b.glb)" -- test "$(grep '^==> ' "$WORK/seen" | tr '\n' ' ')" = "==> a.glb <== ==> b.glb <== "
{ echo "==> a.glb <=="; "$RIGSCOPE" -q check "$LIB/a.glb" "${LIMITS[@]}"; echo; echo "==> b.glb <=="; "$RIGSCOPE" -q check "$LIB/b.glb" "${LIMITS[@]}"; } \
    >"$WORK/alone" 2>/dev/null
check "stdout: each file's text as check of that file alone prints it" -- cmp -s "$WORK/seen" "$WORK/alone"
check "stderr (a file, not a terminal): one progress line per file done" -- \
    test "$(cat "$WORK/err")" = "$(printf 'batch: [1/4] a.glb: fail\nbatch: [2/4] b.glb: fail')"
check "the CSV summary holds its header and the two rows so far" -- test "$(wc -l <"$WORK/s.csv")" -eq 3
check "... in order" -- test "$(tail -n +2 "$WORK/s.csv" | cut -d, -f1,4 | tr '\n' ' ')" = "a.glb,fail b.glb,fail "
check "the JUnit report is not written before the end" -- test ! -e "$WORK/j.xml"
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 143 (got $rc)" -- test "$rc" -eq 143
check "the summary: every file, the unjudged ones interrupted with exit 143" -- \
    test "$(tail -n +2 "$WORK/s.csv" | cut -d, -f1,4,5 | tr '\n' ' ')" = "a.glb,fail,1 b.glb,fail,1 c.glb,interrupted,143 d.glb,interrupted,143 "
check "... each interrupted row says by what" -- test "$(grep -c 'interrupted by SIGTERM before it was judged' "$WORK/s.csv")" -eq 2
check "the JUnit report is written and valid" -- valid "$WORK/j.xml"
check "JUnit: the judged files' suites carry their failures" -- test "$(grep -c '<failure' "$WORK/j.xml")" -ge 2
check "JUnit: the rest are interrupted error cases" -- test "$(grep -c 'type="rigscope.check.interrupted"' "$WORK/j.xml")" -eq 2
check "stderr says it was interrupted and after how many files" -- grep -q "interrupted by SIGTERM after 2 of 4 files" "$WORK/err"
check "stderr: the counts" -- grep -qx "batch: 4 files: 2 fail, 2 interrupted" "$WORK/err"
check "no temporary left" -- test -z "$(ls -A "$WORK" | grep 'rigscope-')"

# --- SIGINT, --jobs 2, a JSON summary and a JSONL one ----------------------------------------
start_held --jobs 2 --summary "$WORK/s.jsonl"
available
check "--jobs 2: the two files before the hold are on stdout, in input order" -- \
    test "$(grep '^==> ' "$WORK/seen" | tr '\n' ' ')" = "==> a.glb <== ==> b.glb <== "
check "--jobs 2: the JSONL summary holds their two lines, no end line yet" -- \
    test "$(python3 -c 'import json,sys; print(*[json.loads(l).get("file", "END") for l in open(sys.argv[1])])' "$WORK/s.jsonl")" = "a.glb b.glb"
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT: exit 130 (got $rc)" -- test "$rc" -eq 130
python3 - "$WORK/s.jsonl" >"$WORK/jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
rows, end = lines[:-1], lines[-1]
print([r["file"] for r in rows] == ["a.glb", "b.glb", "c.glb", "d.glb"], rows[2]["status"] == "interrupted", rows[2]["exit_code"] == 130,
      end.get("end") is True, end.get("interrupted") == "SIGINT", end.get("exit_code") == 130)
PY
check "the JSONL summary: every file in order, c.glb interrupted, an end line saying SIGINT" -- test "$(cat "$WORK/jsonl")" = "True True True True True True"

start_held --summary "$WORK/s.json"
kill -INT "$pid"
wait "$pid"
check "a JSON summary is written on SIGINT and says so" -- \
    test "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["interrupted"], d["exit_code"], [f["status"] for f in d["files"]])' "$WORK/s.json")" = \
    "SIGINT 130 ['fail', 'fail', 'interrupted', 'interrupted']"

# -q: no progress lines; a run to its end streams the same bytes it always printed.
"$RIGSCOPE" -q check "$LIB" "${LIMITS[@]}" --summary "$WORK/q.csv" >"$WORK/q.txt" 2>"$WORK/q.err"
check "-q: no progress line" -- test ! -s "$WORK/q.err"
"$RIGSCOPE" check "$LIB" "${LIMITS[@]}" --jobs 2 --summary "$WORK/q2.csv" >"$WORK/q2.txt" 2>"$WORK/q2.err"
check "--jobs 2: stdout the same bytes as --jobs 1" -- cmp -s "$WORK/q.txt" "$WORK/q2.txt"
check "--jobs 2: the CSV summary the same rows but timing" -- \
    test "$(cut -d, -f1-23 "$WORK/q.csv")" = "$(cut -d, -f1-23 "$WORK/q2.csv")"
check "progress lines in input order, then the counts" -- \
    test "$(cat "$WORK/q2.err")" = "$(printf 'batch: [1/4] a.glb: fail\nbatch: [2/4] b.glb: fail\nbatch: [3/4] c.glb: fail\nbatch: [4/4] d.glb: fail\nbatch: 4 files: 4 fail')"
exec 3>&-
finish
