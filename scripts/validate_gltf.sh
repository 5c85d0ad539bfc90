#!/usr/bin/env bash
# Validates glTF / GLB files with the Khronos glTF validator (npm package gltf-validator, pinned
# by scripts/gltf_validator/package-lock.json). Prints per file the error and warning counts and
# messages; exit 1 if any file has an error.
#   scripts/validate_gltf.sh [--max N] [--all] FILE...   (--all: infos and hints too)
# Needs node and npm (Debian: the packages in scripts/packages-node.txt).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tool="$here/gltf_validator"
if ! command -v node >/dev/null; then
    echo "validate_gltf: node is not installed (apt-get install $(grep -v '^#' "$here/packages-node.txt" | xargs))" >&2
    exit 2
fi
if [ ! -d "$tool/node_modules/gltf-validator" ]; then
    if ! command -v npm >/dev/null; then
        echo "validate_gltf: npm is not installed and $tool/node_modules is missing (apt-get install npm)" >&2
        exit 2
    fi
    # ci, not install: the lock file fixes the validator's version, so results do not drift. The
    # lock keeps tests that ctest runs in parallel from installing over each other.
    (
        flock 9
        [ -d "$tool/node_modules/gltf-validator" ] ||
            npm ci --prefix "$tool" --no-audit --no-fund --loglevel=error >&2
    ) 9>"$tool/.install.lock"
fi
exec node "$tool/validate.mjs" "$@"
