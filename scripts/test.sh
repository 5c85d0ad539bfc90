#!/usr/bin/env bash
# Builds if needed and runs the whole test suite (ctest: the Catch2 unit and corpus tests, the
# CLI scripts and the glTF validator). `--sanitize` does the same in an AddressSanitizer +
# UndefinedBehaviorSanitizer build (build-sanitize/). `--scalar` does it in a build with every SIMD
# kernel off (build-scalar/, -DRIGSCOPE_SIMD=OFF): the scalar loops a non-x86 machine runs.
# The corpus comes from RIGSCOPE_CORPUS, default ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
extra=()
if [ "${1:-}" = "--sanitize" ]; then
    build=build-sanitize
    # Debug with -O1 -g1: asserts on, and a third of the compile time of -O2 -g under the
    # sanitizers (CI builds this from scratch on two cores), line numbers still in reports.
    extra=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DRIGSCOPE_SANITIZE=ON -DRIGSCOPE_BENCH=OFF)
    # Leaks inside Assimp's FBX importer are Assimp's (tests/lsan.supp says which).
    export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
    shift
elif [ "${1:-}" = "--scalar" ]; then
    build=build-scalar
    # No Python module: it is the same engine's code behind pybind11, whose tests run in the other
    # two builds; what the scalar build changes is the kernels, which the Catch2 cases and the CLI
    # scripts reach. It saves CI the module's compile (pybind11 is the costliest header here).
    extra=(-DRIGSCOPE_SIMD=OFF -DRIGSCOPE_BENCH=OFF -DRIGSCOPE_PYTHON=OFF)
    shift
fi
if [ ! -x build/rigscope ] || [ "$build" = build ]; then
    bash scripts/setup.sh >/dev/null
fi
if [ "$build" != build ]; then
    . scripts/ccache.bash
    extra+=("${launcher[@]}")
    cmake -S . -B "$build" "${extra[@]}" >/dev/null
    cmake --build "$build" -j"$(nproc)"
fi
export RIGSCOPE_CORPUS="${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
