#!/usr/bin/env bash
# The layers (README: How it is built; docs/library.md): core <- io <- farm <- run <- apps and
# python. An include that points back up, or a CLI header below apps/, fails here.
source "$(dirname "$0")/common.bash"

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
finish
