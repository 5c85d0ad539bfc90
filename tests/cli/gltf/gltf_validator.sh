#!/usr/bin/env bash
# The Khronos glTF validator on what write_glb makes from the corpus (glTF and FBX inputs, with
# extra COLOR_0 / _TENSION attributes): no file may have a validation error.
# $1: the rigscope binary; the test tool gltf_roundtrip is built beside it (in tests/).
# Skips (exit 77, a ctest skip that fails CI) only when node is not installed.
set -uo pipefail
root="$(pwd)"
bin_dir="$(cd "$(dirname "${1:-.}")" 2>/dev/null && pwd)"
corpus="${RIGSCOPE_CORPUS:-$root/../shared/corpus}"

if ! command -v node >/dev/null; then
    echo "SKIP: node is not installed, so the Khronos glTF validator cannot run (apt-get install $(grep -v '^#' "$root/scripts/packages-node.txt" | xargs))"
    exit 77
fi
tool=""
for candidate in "$bin_dir/tests/gltf_roundtrip" "$bin_dir/gltf_roundtrip"; do
    [ -x "$candidate" ] && tool="$candidate" && break
done
if [ -z "$tool" ]; then
    echo "FAIL: test tool gltf_roundtrip not found beside $1 (tests/tools/gltf_roundtrip.cpp, built by tests/CMakeLists.txt)"
    exit 1
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
inputs=(bend_cylinder/bend_cylinder.glb bend_cylinder/bend_cylinder.fbx joystick_face/joystick_face.glb
        joystick_face/joystick_face.fbx khronos/cesium_man.gltf khronos/interpolation_test.gltf
        khronos/rigged_simple.gltf assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf
        assimp/glTF2/simple_skin/quad_skin.glb assimp/FBX/huesitos.fbx assimp/FBX/spider.fbx pab/walk.fbx)
written=()
fail=0
for f in "${inputs[@]}"; do
    name="$(echo "$f" | tr '/.' '__').glb"
    if ! "$tool" --attributes "$corpus/$f" "$out/$name"; then
        echo "FAIL: gltf_roundtrip could not write $f"
        fail=1
        continue
    fi
    written+=("$out/$name")
done
if [ ${#written[@]} -gt 0 ] && ! bash "$root/scripts/validate_gltf.sh" "${written[@]}"; then
    echo "FAIL: the validator found errors in files write_glb made"
    fail=1
fi
[ $fail -eq 0 ] && echo "PASS: ${#written[@]} written files, no validation errors"
exit $fail
