#!/usr/bin/env bash
# Bad input: documented exit code, one line on stderr naming the file, no output file left.
. "$(dirname "$0")/common.bash"

out="$WORK/out.csv"
expect 3 "missing file" -- "$RIGSCOPE" deform "$WORK/nope.glb" -o "$out"
check "missing file: one line naming it" -- one_line_naming "nope.glb"
check "missing file: no output" -- test ! -e "$out"

expect 3 "directory" -- "$RIGSCOPE" info "$WORK"
check "directory: one line" -- one_line_naming "directory"
: > "$WORK/empty.glb"
expect 3 "empty file" -- "$RIGSCOPE" tension "$WORK/empty.glb" -o "$out"
check "empty: one line" -- one_line_naming "empty.glb"
head -c 20000 "$CORPUS/bend_cylinder/bend_cylinder.glb" > "$WORK/trunc.glb"
expect 3 "truncated glb" -- "$RIGSCOPE" tension "$WORK/trunc.glb" -o "$out"
check "truncated: one line naming it" -- one_line_naming "trunc.glb"
echo "solid x" > "$WORK/model.stl"
expect 3 "unknown extension" -- "$RIGSCOPE" info "$WORK/model.stl"
check "unknown extension: one line" -- one_line_naming "model.stl"
for f in glTF2/IndexOutOfRange/IndexOutOfRange.gltf glTF2/IncorrectVertexArrays/Cube.gltf \
         glTF2/wrongTypes/badArray.gltf glTF2/MissingBin/BoxTextured.gltf; do
    expect 3 "assimp bad file $f" -- "$RIGSCOPE" deform "$CORPUS/assimp/$f" -o "$out"
    check "$f: one line naming it" -- one_line_naming "$(basename "$f")"
    check "$f: no output" -- test ! -e "$out"
done
ls -A "$WORK" | grep -q rigscope- && { echo "FAIL: temporary files left behind"; failures=$((failures + 1)); }

# A missing texture is only a warning.
expect 0 "missing texture warns" -- "$RIGSCOPE" info "$CORPUS/khronos/interpolation_test.gltf"
check "missing texture: warning in output" -- grep -q "l.jpg" "$WORK/out"

# Usage errors: exit 2.
expect 2 "no subcommand" -- "$RIGSCOPE"
expect 2 "unknown option" -- "$RIGSCOPE" tension data/bend_cylinder.glb --bogus
expect 2 "bad frames" -- "$RIGSCOPE" tension data/bend_cylinder.glb --frames 5..1
expect 2 "frames outside the clip" -- "$RIGSCOPE" tension data/bend_cylinder.glb --frames 500
check "frames outside: names the clip range" -- one_line_naming "outside clip"
cp data/bend_cylinder.glb "$WORK/in.glb"
expect 2 "output equals input" -- "$RIGSCOPE" deform "$WORK/in.glb" -o "$WORK/in.glb"
check "input untouched" -- cmp -s data/bend_cylinder.glb "$WORK/in.glb"
expect 2 "gltf name without # for many frames" -- "$RIGSCOPE" tension data/bend_cylinder.glb -o "$WORK/x.glb"

# Output that cannot be written: exit 4.
expect 4 "missing output folder" -- "$RIGSCOPE" deform data/bend_cylinder.glb -o "$WORK/no/such/dir/out.csv"
check "missing folder: one line" -- one_line_naming "out.csv"

# A reference of another vertex count: exit 5 naming both counts.
expect 5 "reference vertex count" -- "$RIGSCOPE" tension data/bend_cylinder.glb --reference "$CORPUS/khronos/cesium_man.gltf" -o "$out"
check "reference mismatch names both counts" -- one_line_naming "625"
check "no output after mismatch" -- test ! -e "$out"

finish
