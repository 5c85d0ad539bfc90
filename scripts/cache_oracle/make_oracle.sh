#!/usr/bin/env bash
# Remakes tests/cache's Blender oracles: the Mesh Cache modifier of Blender 3.4 (Debian's package,
# `apt-get install blender`) reading bend_40_49.pc2 and .mdd on bend_cylinder_bind.obj. The caches
# are bend_cylinder's frames 40-49 as `rigscope deform` wrote them (tests/cli/cache/write_cache.py:
# PC2 start frame 40, MDD times 0 to 9/24 s as Blender's exporter writes them).
set -euo pipefail
cd "$(dirname "$0")/../.."
d=tests/cache
run() { blender -b --factory-startup --python-exit-code 1 --python scripts/cache_oracle/blender_mesh_cache.py -- "$@" >/dev/null; }
run "$d/bend_cylinder_bind.obj" "$d/bend_40_49.pc2" PC2 40 40,41,44,49 "$d/blender_pc2.csv"
run "$d/bend_cylinder_bind.obj" "$d/bend_40_49.mdd" MDD 0 0,1,4,9 "$d/blender_mdd.csv"
blender --version | head -1 > "$d/blender_version.txt"
