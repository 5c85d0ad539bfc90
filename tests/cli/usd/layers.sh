#!/usr/bin/env bash
# The layers (docs/source_layout.md; docs/library.md): core <- io <- farm <- run <- apps and
# python. An include that points back up, or a CLI header below apps/, fails here.
source "$(dirname "$0")/../common.bash"

# up_includes DIRS -- FORBIDDEN...: lines in DIRS' sources that include a header of FORBIDDEN.
up_includes() {
    local dirs=() forbidden=()
    while [ "$1" != "--" ]; do dirs+=("$1"); shift; done
    shift
    forbidden=("$@")
    local pattern
    pattern=$(printf '|rigscope/%s/' "${forbidden[@]}")
    grep -rnE "#include \"(${pattern:1})" "${dirs[@]}" || true
}

for layer in core io farm run; do
    case $layer in
        core) above=(io farm run) ;;
        io) above=(farm run) ;;
        farm) above=(run) ;;
        run) above=() ;;
    esac
    [ ${#above[@]} -eq 0 ] && continue
    found=$(up_includes "src/$layer" "include/rigscope/$layer" -- "${above[@]}")
    check "$layer includes nothing from ${above[*]}" -- test -z "$found"
    [ -z "$found" ] || echo "$found" | sed 's/^/  /'
done

# No library layer speaks CLI: no CLI11 header, nothing from apps/.
found=$(grep -rnE '#include [<"](CLI/|cli_common|commands\.h)' src include python || true)
check "no CLI11 or apps/ header below apps/" -- test -z "$found"
[ -z "$found" ] || echo "$found" | sed 's/^/  /'

# Every header sits in its layer's folder: nothing left directly in include/rigscope/.
check "no header outside a layer folder" -- test -z "$(find include/rigscope -maxdepth 1 -name '*.h')"

# The check has teeth: a planted upward include is found.
mkdir -p "$WORK/src/core"
echo '#include "rigscope/run/input.h"' >"$WORK/src/core/planted.cpp"
check "a planted upward include is caught" -- test -n "$(up_includes "$WORK/src/core" -- io farm run)"
# The CLI parses options, calls one job and writes; a frame loop or a verdict in a command file is
# a job's work done in the wrong layer, where Python cannot reach it (docs/library.md, the job
# shape). apps_work DIR: lines of DIR's cmd_*.cpp that evaluate frames or judge.
apps_work() {
    grep -nE '(for_each_(tension_|selected_)?frame|pose_at|deform_mesh|evaluate_tension|prepare_tension|fit_rivets|bake_rivets|judge_check|check_fails|frame_failed|_outcome)[[:space:]]*\(|in\.frames\[' \
        "$1"/cmd_*.cpp || true
}
found=$(apps_work apps)
check "no frame loop or judgment in apps/cmd_*.cpp" -- test -z "$found"
[ -z "$found" ] || echo "$found" | sed 's/^/  /'
mkdir -p "$WORK/apps"
printf '%s\n' 'int run(const Input& in) {' '    DeformEngine d(in);' '    d.for_each_frame([&](std::size_t fi) { write(in.frames[fi]); });' '}' >"$WORK/apps/cmd_planted.cpp"
check "a planted frame loop in a command file is caught" -- test -n "$(apps_work "$WORK/apps")"
printf '%s\n' '    const CheckOutcome o = diff_outcome(r.limits, r.run, r.extremes, r.frame_maxima);' >"$WORK/apps/cmd_planted.cpp"
check "a planted verdict in a command file is caught" -- test -n "$(apps_work "$WORK/apps")"
finish
