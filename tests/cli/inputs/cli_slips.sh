#!/usr/bin/env bash
# Command-line slips (issue 28): a misspelt command or option gets the closest known name, `help
# CMD` works, --threads 0 is every core, an output's extension is honoured and a contradiction
# with --format refused (exit 2, naming both, no output), help texts name every extension read.
source "$(dirname "$0")/../common.bash"
in=data/bend_cylinder.glb

expect 2 "misspelt command" -- "$RIGSCOPE" tenson "$in"
check "names the command it meant" -- one_line_naming "unknown command 'tenson' (did you mean 'tension'?)"
expect 2 "misspelt command after -q" -- "$RIGSCOPE" -q chek "$in"
check "names check" -- one_line_naming "did you mean 'check'?"
expect 2 "a word nothing like a command" -- "$RIGSCOPE" frobnicate "$in"
check "no suggestion for it" -- bash -c "one_line() { [ \$(grep -c . '$WORK/err') -eq 1 ]; }; one_line && grep -q \"unknown command 'frobnicate'\" '$WORK/err' && ! grep -q 'did you mean' '$WORK/err'"
expect 2 "misspelt option" -- "$RIGSCOPE" tension "$in" --frame 1
check "names the option it meant" -- one_line_naming "unknown option '--frame' for tension (did you mean '--frames'?)"
expect 2 "misspelt option with =" -- "$RIGSCOPE" deform "$in" --formt=json
check "names --format" -- one_line_naming "did you mean '--format'?"

expect 0 "help CMD" -- "$RIGSCOPE" help tension
check "help CMD is CMD --help" -- grep -q -- "--stretch-area" "$WORK/out"
expect 0 "help alone" -- "$RIGSCOPE" help
check "help alone lists the commands" -- grep -q "tension" "$WORK/out"
expect 2 "help of a misspelt command" -- "$RIGSCOPE" help tenson
check "suggests" -- one_line_naming "did you mean 'tension'?"
check "help names .dae" -- grep -q "\.dae" <("$RIGSCOPE" tension --help)
# report refuses chunks (the page covers a whole run), so its help does not offer --chunk.
check "report --help has no --chunk" -- bash -c "! '$RIGSCOPE' report --help | grep -q -- --chunk"
check "tension --help has --chunk" -- bash -c "'$RIGSCOPE' tension --help | grep -q -- --chunk"
expect 2 "report --chunk is an unknown option" -- "$RIGSCOPE" report data/bend_cylinder.glb --chunk 0/2 -o "$WORK/r.html"

expect 0 "--threads 0" -- "$RIGSCOPE" -q tension "$in" --frames 1..20 --threads 0 -o "$WORK/t0.csv"
expect 0 "--threads 1" -- "$RIGSCOPE" -q tension "$in" --frames 1..20 --threads 1 -o "$WORK/t1.csv"
check "--threads 0 gives the same bytes" -- cmp -s "$WORK/t0.csv" "$WORK/t1.csv"

expect 0 "info -o x.json" -- "$RIGSCOPE" info "$in" -o "$WORK/info.json"
check "info -o x.json is JSON" -- python3 -c "import json; json.load(open('$WORK/info.json'))"
expect 0 "info -o x.txt" -- "$RIGSCOPE" info "$in" -o "$WORK/info.txt"
check "info -o x.txt is text" -- grep -q "^  units:" "$WORK/info.txt"
expect 2 "info --json -o x.csv" -- "$RIGSCOPE" info "$in" --json -o "$WORK/info.csv"
check "names both" -- one_line_naming "the extension says csv but --json says json"
expect 2 "--format csv -o x.json" -- "$RIGSCOPE" tension "$in" --frames 1 --format csv -o "$WORK/x.json"
check "names both formats" -- one_line_naming "x.json: the extension says json but --format says csv"
check "no output" -- test ! -e "$WORK/x.json"
expect 2 "--format json -o x.glb" -- "$RIGSCOPE" deform "$in" --frames 1 --format json -o "$WORK/x.glb"
check "names gltf and json" -- one_line_naming "the extension says gltf but --format says json"
expect 0 "--format json -o x.out (an extension rigscope does not write)" -- "$RIGSCOPE" deform "$in" --frames 1 --format json -o "$WORK/x.out"
finish
