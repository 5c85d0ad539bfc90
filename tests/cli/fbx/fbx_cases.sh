# The crafted FBX cases (tests/fbx_cases, made by scripts/fbx/make_cases.py) re-read by a parser
# of the test's own: well-formed records, and control points, polygons, skin weights and
# connections that agree with each case's committed oracle. A broken writer or a stale oracle
# fails here, before the reader's oracle tests compare rigscope with them.
. "$(dirname "$0")/../common.bash"

DIR=tests/fbx_cases
HERE=$(dirname "$0")

check "every case re-reads and matches its oracle" -- python3 "$HERE/fbx_cases_check.py" "$DIR"

# The check itself must catch a broken file: one whose last record's EndOffset is off by one,
# and one that lost a control point against its oracle.
mkdir -p "$WORK/bad1" "$WORK/bad2"
python3 - "$DIR/take_start_50.fbx" "$WORK/bad1/take_start_50.fbx" <<'PY'
import sys, struct
d = bytearray(open(sys.argv[1], 'rb').read())
end = struct.unpack_from('<I', d, 27)[0]
struct.pack_into('<I', d, 27, end + 1)
open(sys.argv[2], 'wb').write(d)
PY
cp "$DIR/take_start_50.oracle.json" "$WORK/bad1/"
expect 1 "a record with a wrong EndOffset is refused" -- python3 "$HERE/fbx_cases_check.py" "$WORK/bad1"
check "and named" -- grep -q "take_start_50: unreadable" "$WORK/out"

cp "$DIR/units_cm.fbx" "$WORK/bad2/"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); m=o["meshes"][0]; m["control_points"]+=1; json.dump(o,open(sys.argv[2],"w"))' \
    "$DIR/units_cm.oracle.json" "$WORK/bad2/units_cm.oracle.json"
expect 1 "a control point count that differs from the oracle's is caught" -- python3 "$HERE/fbx_cases_check.py" "$WORK/bad2"
check "and named" -- grep -q "units_cm: 36 control points, the oracle has 37" "$WORK/out"

finish
