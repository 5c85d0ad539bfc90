#!/usr/bin/env bash
# Remakes docs/report_bend_cylinder.png, docs/rig_ci.md's picture of the HTML report: a report of
# bend_cylinder opened in headless Chromium at its most compressed frame.
# Needs what scripts/setup.sh installs (build/rigscope, report/node_modules, chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${RIGSCOPE_CORPUS:-$(pwd)/../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$(pwd)
# Run beside a copy of the input so the page names it as a user would, not by this machine's path.
cp "$corpus/bend_cylinder/bend_cylinder.glb" "$work/"
(cd "$work" && "$root/build/rigscope" report bend_cylinder.glb -o bend_cylinder.html)
node report/browser_check.mjs "$work/bend_cylinder.html" --screenshot docs/report_bend_cylinder.png
echo "wrote docs/report_bend_cylinder.png" >&2
