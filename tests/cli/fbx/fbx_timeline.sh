#!/usr/bin/env bash
# Binary FBX on the file's own timeline (issue 12): take ranges in `info`, default frames from the
# take, keys outside the take reachable with --frames and warned about, and --animation with
# --retarget rotation|full and namespace prefixes. Files: tests/fbx_cases (crafted, see their
# oracles) and copies changed with tests/cli/fbx_tree.py.
. "$(dirname "$0")/../common.bash"
CASES=tests/fbx_cases
PY=/usr/bin/python3
# same_positions A B: the two deform CSVs list the same frames and vertices, positions within
# 1e-6 m (the rest translation against the same translation decomposed from a sampled matrix:
# float rounding, 3e-7 m seen).
same_positions() {
    $PY - "$1" "$2" <<'PYEOF'
import csv, sys
a, b = (list(csv.reader(open(p)))[1:] for p in sys.argv[1:3])
ok = len(a) == len(b) > 0 and all(r[:4] == s[:4] and max(abs(float(x) - float(y)) for x, y in zip(r[4:], s[4:])) < 1e-6 for r, s in zip(a, b))
sys.exit(0 if ok else 1)
PYEOF
}

expect 0 "info on a take starting at 50" -- "$RIGSCOPE" info "$CASES/take_start_50.fbx"
check "info prints the take's frames" -- grep -q "take: frames 50..80 (the default frames); keys span frames 50..80" "$WORK/out"

expect 0 "deform with default frames" -- "$RIGSCOPE" deform "$CASES/take_start_50.fbx" -o "$WORK/t50.csv"
check "default frames start at the take's 50" -- test "$(sed -n 2p "$WORK/t50.csv" | cut -d, -f1)" = 50
check "default frames end at the take's 80" -- test "$(tail -1 "$WORK/t50.csv" | cut -d, -f1)" = 80

expect 0 "keys outside the take, default frames" -- "$RIGSCOPE" deform "$CASES/keys_outside_take.fbx" -o "$WORK/kot.csv"
check "a warning names the keys outside the take" -- grep -q "keys run from frame 56 to 233, outside its take (frames 1..24)" "$WORK/err"
check "default frames are the take's 1..24" -- test "$(cut -d, -f1 "$WORK/kot.csv" | sed 1d | sort -un | sed -n '1p;$p' | tr '\n' ' ')" = "1 24 "
expect 0 "keys outside the take reached with --frames" -- "$RIGSCOPE" deform "$CASES/keys_outside_take.fbx" --frames 56..233:59 -o "$WORK/kot2.csv"
check "frames 56, 115, 174, 233 written" -- test "$(cut -d, -f1 "$WORK/kot2.csv" | sed 1d | sort -un | tr '\n' ' ')" = "56 115 174 233 "
expect 2 "a frame past the last key is refused" -- "$RIGSCOPE" deform "$CASES/keys_outside_take.fbx" --frames 234 -o "$WORK/kot3.csv"

# A stack without LocalStart/LocalStop takes its range from the Takes section's LocalTime.
$PY - "$CASES/keys_outside_take.fbx" "$WORK/no_stack_range.fbx" <<'PYEOF'
import sys
sys.path.insert(0, "tests/cli")
import fbx_tree
tree = fbx_tree.Fbx(open(sys.argv[1], "rb").read())
for stack in tree.find(b"AnimationStack"):
    for c in stack[2]:
        if c[0] == b"Properties70":
            c[2] = [p for p in c[2] if p[1][0][1][4:] not in (b"LocalStart", b"LocalStop")]
open(sys.argv[2], "wb").write(tree.bytes())
PYEOF
expect 0 "info on a stack without its own range" -- "$RIGSCOPE" info "$WORK/no_stack_range.fbx"
check "the take comes from the Takes section" -- grep -q "take: frames 1..24 (the default frames); keys span frames 56..233" "$WORK/out"

# --animation from a copy whose joints carry a namespace prefix: the names still match.
$PY - "$CASES/take_start_50.fbx" "$WORK/prefixed.fbx" <<'PYEOF'
import sys
sys.path.insert(0, "tests/cli")
import fbx_tree
tree = fbx_tree.Fbx(open(sys.argv[1], "rb").read())
for rec in tree.find(b"Model"):
    kind, name = rec[1][1]
    for joint in (b"Root", b"Mid", b"Tip"):
        if name[4:].startswith(joint + b"\x00\x01"):
            rec[1][1] = (kind, fbx_tree.struct.pack("<I", len(name) - 4 + 4) + b"rig:" + name[4:])
open(sys.argv[2], "wb").write(tree.bytes())
PYEOF
expect 0 "--animation with namespaced joints (rotation)" -- "$RIGSCOPE" deform "$CASES/take_start_50.fbx" --animation "$WORK/prefixed.fbx" --frames 50..80 -o "$WORK/rot.csv"
check "no joint is unmatched" -- bash -c "! grep -q 'no match' '$WORK/err'"
check "rotation retarget on the same rest reproduces the file's own motion" -- same_positions "$WORK/rot.csv" "$WORK/t50.csv"
expect 0 "--retarget full" -- "$RIGSCOPE" deform "$CASES/take_start_50.fbx" --animation "$WORK/prefixed.fbx" --retarget full --frames 50..80 -o "$WORK/full.csv"
check "full retarget on the same rig reproduces it too" -- same_positions "$WORK/full.csv" "$WORK/t50.csv"
expect 2 "--retarget takes rotation or full only" -- "$RIGSCOPE" deform "$CASES/take_start_50.fbx" --animation "$WORK/prefixed.fbx" --retarget bones -o "$WORK/x.csv"

# A source rig whose Mid rests 30 degrees off: rotation mode warns that the rests differ and
# keeps this rig's bone lengths, full mode takes the source's translations.
$PY - "$CASES/take_start_50.fbx" "$WORK/other_rest.fbx" <<'PYEOF'
import struct, sys
sys.path.insert(0, "tests/cli")
import fbx_tree
tree = fbx_tree.Fbx(open(sys.argv[1], "rb").read())
for rec in tree.find(b"Model"):
    if not rec[1][1][1][4:].startswith(b"Mid\x00\x01"):
        continue
    p70 = next(c for c in rec[2] if c[0] == b"Properties70")
    def P(name, *xyz):
        s = lambda b: ("S", struct.pack("<I", len(b)) + b)
        return [b"P", [s(name), s(b"Lcl Rotation" if name == b"Lcl Rotation" else b"Lcl Translation"), s(b""), s(b"A")] +
                [("D", struct.pack("<d", v)) for v in xyz], [], False]
    p70[2] = [c for c in p70[2] if c[1][0][1][4:] not in (b"Lcl Rotation", b"Lcl Translation")]
    p70[2] += [P(b"Lcl Rotation", 30.0, 0.0, 0.0), P(b"Lcl Translation", 0.0, 120.0, 0.0)]
open(sys.argv[2], "wb").write(tree.bytes())
PYEOF
expect 0 "--animation from a rig with another rest" -- "$RIGSCOPE" deform "$CASES/take_start_50.fbx" --animation "$WORK/other_rest.fbx" --frames 50 -o "$WORK/other.csv"
check "the differing rests are warned about" -- grep -q "rest rotations of 1 matched joints differ" "$WORK/err"
finish
