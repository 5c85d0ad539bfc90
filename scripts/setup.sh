#!/usr/bin/env bash
# Installs what rigscope needs from Debian (only what is missing) and builds a Release build in
# build/ (binary: build/rigscope). Safe to run again: it does only what is left to do.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ccache libassimp-dev libeigen3-dev libcli11-dev nlohmann-json3-dev libspdlog-dev
          libfmt-dev catch2 libbenchmark-dev python3-matplotlib python3-numpy)
# Extra package lists other parts of the tool chain declare (one Debian package per line).
for list in scripts/packages-*.txt; do
    [ -f "$list" ] || continue
    while read -r p; do [ -n "$p" ] && [ "${p#\#}" = "$p" ] && packages+=("$p"); done < "$list"
done

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Node tools the tests use (the Khronos glTF validator; gltf-transform, which writes Draco and
# meshopt files), pinned by their lock files.
for tool in scripts/gltf_validator scripts/gltf_tools; do
    # Again when the lock file changed since the last install (a pulled checkout).
    if [ -f $tool/package-lock.json ] && command -v npm >/dev/null &&
       { [ ! -d $tool/node_modules ] || [ $tool/package-lock.json -nt $tool/node_modules/.package-lock.json ]; }; then
        npm ci --prefix $tool --no-audit --no-fund --loglevel=error >/dev/null
    fi
done

# The HTML report's viewer (three.js, bundled by esbuild) and its browser tests (puppeteer-core),
# pinned by their lock file; the build bundles the viewer once they are in place.
if [ -f report/package-lock.json ] && command -v npm >/dev/null && [ ! -d report/node_modules ]; then
    npm ci --prefix report --no-audit --no-fund --loglevel=error >/dev/null
fi

# OpenUSD's Python module (usd-core, PyPI: Debian packages no OpenUSD) is the oracle of the USD
# reader's tests (tests/cli/usd*.sh, scripts/usd/). A venv of its own under build/, made only when
# usd-core is not importable there yet; the tests look for build/usd-venv/bin/python.
usd_venv=build/usd-venv
if ! "$usd_venv/bin/python" -c 'import pxr.UsdSkel' 2>/dev/null; then
    echo "setup: installing usd-core into $usd_venv" >&2
    mkdir -p build
    python3 -m venv "$usd_venv"
    # Pinned: the oracle of a test is the version the test was checked against.
    "$usd_venv/bin/pip" install -q --disable-pip-version-check usd-core==26.11
fi
# Alembic's own Python bindings (alembic3d, PyPI: Debian packages no Alembic) are the oracle of
# the Alembic reader's tests (tests/cli/alembic*.sh): in the same venv, added when not importable.
if ! "$usd_venv/bin/python" -c 'import alembic3d' 2>/dev/null; then
    echo "setup: installing alembic3d into $usd_venv" >&2
    "$usd_venv/bin/pip" install -q --disable-pip-version-check alembic3d==1.8.12.1
fi
# bake's images read by independent readers (tests/cli/bake/*.sh): Pillow for the 16-bit PNGs,
# OpenEXR's own Python module for the EXRs, numpy for the test's oracle rasteriser; pinned.
if ! "$usd_venv/bin/python" -c 'import PIL, OpenEXR, numpy' 2>/dev/null; then
    echo "setup: installing Pillow, OpenEXR and numpy into $usd_venv" >&2
    "$usd_venv/bin/pip" install -q --disable-pip-version-check Pillow==11.0.0 OpenEXR==3.5.3 numpy==2.1.3
fi

# Blender as a Python module (bpy 4.5, PyPI): the second oracle of the Alembic writer's test
# (tests/cli/alembic/alembic_writer.sh reads rigscope's archives with Blender's importer), and the
# tool that wrote tests/usd_blender's files (scripts/usd/blender_usd_export.py). 950 MB; about 1.5
# minutes to install here. RIGSCOPE_SETUP_BPY=0 leaves it out (that test then skips, which CI
# counts as a failure).
bpy_venv=build/bpy-venv
if [ "${RIGSCOPE_SETUP_BPY:-1}" = 1 ] && ! "$bpy_venv/bin/python" -c 'import bpy' 2>/dev/null; then
    echo "setup: installing bpy into $bpy_venv" >&2
    mkdir -p build
    python3.11 -m venv "$bpy_venv"  # bpy 4.5 is built for Python 3.11 alone
    "$bpy_venv/bin/pip" install -q --disable-pip-version-check bpy==4.5.15  # the version that wrote the files
fi

# ccache makes a rebuild in another checkout or build folder cheap (scripts/ccache.bash).
. scripts/ccache.bash
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/rigscope" >&2
