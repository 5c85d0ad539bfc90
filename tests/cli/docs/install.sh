#!/usr/bin/env bash
# `cmake --install` then find_package(rigscope) from a project outside the tree: the installed
# headers and libraries build a program on the run layer, whose numbers equal the CLI's.
source "$(dirname "$0")/../common.bash"
BUILD=$(cd "$(dirname "$RIGSCOPE")" && pwd)
PREFIX=$WORK/prefix

expect 0 "cmake --install into a prefix" -- cmake --install "$BUILD" --prefix "$PREFIX"
check "the package config is installed" -- test -f "$PREFIX/lib/cmake/rigscope/rigscopeConfig.cmake"
check "headers are installed by layer" -- test -f "$PREFIX/include/rigscope/run/tension_run.h" -a -f "$PREFIX/include/rigscope/core/scene.h"
check "the CLI is installed" -- test -x "$PREFIX/bin/rigscope"

# A sanitizer build's libraries need the sanitizer runtimes in whatever links them.
flags=()
if grep -q '^RIGSCOPE_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt"; then
    flags=(-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
fi
expect 0 "configure a consumer with find_package(rigscope)" -- \
    cmake -S tests/install_consumer -B "$WORK/consumer" -DCMAKE_PREFIX_PATH="$PREFIX" "${flags[@]}"
expect 0 "build the consumer against the installed libraries" -- cmake --build "$WORK/consumer"

FILE=data/bend_cylinder.glb
"$WORK/consumer/consumer" "$FILE" >"$WORK/consumer.txt" 2>"$WORK/err"
check "the consumer runs" -- test -s "$WORK/consumer.txt"
"$RIGSCOPE" info "$FILE" --json >"$WORK/info.json"
"$RIGSCOPE" -q tension "$FILE" --format json >"$WORK/tension.json"
check "the consumer's meshes, vertices, frames and max T equal the CLI's" -- python3 - "$WORK" <<'PY'
import json, struct, sys
f32 = lambda x: struct.unpack("f", struct.pack("f", float(x)))[0]  # both print a float32
work = sys.argv[1]
meshes, vertices, frames, max_t = open(f"{work}/consumer.txt").read().split()
info = json.load(open(f"{work}/info.json"))
tension = json.load(open(f"{work}/tension.json"))
ok = (int(meshes) == len(info["meshes"]) and int(vertices) == info["meshes"][0]["vertices"]
      and int(frames) == len(tension["frames"]) and f32(max_t) == f32(tension["summary"][0]["max_t"]))
print(meshes, vertices, frames, max_t, tension["summary"][0]["max_t"])
sys.exit(0 if ok else 1)
PY
finish
