#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (ctest: the Catch2 unit and corpus tests, the
# CLI scripts and the glTF validator). `--sanitize` does the same in an AddressSanitizer +
# UndefinedBehaviorSanitizer build (build-sanitize/).
# The corpus comes from RIGSCOPE_CORPUS, default ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
extra=()
if [ "${1:-}" = "--sanitize" ]; then
    build=build-sanitize
    # GCC leaves float-to-integer overflow out of -fsanitize=undefined; readers convert file
    # numbers to counts and indices, so it is asked for here.
    extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGSCOPE_SANITIZE=ON -DRIGSCOPE_BENCH=OFF
           "-DCMAKE_CXX_FLAGS=-fsanitize=float-cast-overflow -fno-sanitize-recover=float-cast-overflow")
    shift
fi
if [ ! -x build/rigscope ] || [ "$build" = build ]; then
    bash scripts/setup.sh >/dev/null
fi
if [ "$build" != build ]; then
    cmake -S . -B "$build" "${extra[@]}" >/dev/null
    cmake --build "$build" -j"$(nproc)"
fi
export RIGSCOPE_CORPUS="${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
