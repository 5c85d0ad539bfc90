#!/usr/bin/env bash
# Refuse before work (issue 57 item 5): every output of a batch is checked before its first file
# (its folder exists or is made by the placeholder rule, takes a new file, and its extension
# names the format written), formats never go under another's extension (--junit x.json, merge
# m.xml of JSON parts), and an output past --max-output (2000 MB unless raised) is refused
# naming its estimate, before a byte is written. "Before work" is seen in what work leaves:
# each pair's -o file is written as the pair finishes, so a refusal after work leaves them.
source "$(dirname "$0")/../common.bash"
INPUT=data/bend_cylinder.glb
LIB=$WORK/old
mkdir -p "$LIB" "$WORK/new" "$WORK/o"
for n in a b c; do cp "$INPUT" "$LIB/$n.glb"; cp "$INPUT" "$WORK/new/$n.glb"; done

# diff --against with the batch JUnit in a missing folder: refused before the first pair.
expect 4 "diff batch, --junit in a missing folder" -- \
    "$RIGSCOPE" diff --against "$WORK/new" "$LIB" -o "$WORK/o/{stem}.csv" --junit "$WORK/nodir/x.xml"
check "it names the option and the folder, on one line" -- one_line_naming "--junit $WORK/nodir/x.xml: cannot write: folder '$WORK/nodir' does not exist"
check "no pair ran (no pair's -o written)" -- test -z "$(ls -A "$WORK/o")"
# The summary under a path whose "folder" is a file: refused alike.
echo x >"$WORK/afile"
expect 4 "check batch, --summary below a plain file" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --html "$WORK/o/{stem}.html" --summary "$WORK/afile/s.csv"
check "it says the folder is not one" -- one_line_naming "--summary $WORK/afile/s.csv: cannot write: '$WORK/afile' is not a folder"
check "no file ran (no page written)" -- test -z "$(ls -A "$WORK/o")"
# An output that is a folder.
mkdir -p "$WORK/isdir.xml"
expect 4 "check batch, --junit naming a folder" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --html "$WORK/o/{stem}.html" --junit "$WORK/isdir.xml"
check "it says so" -- one_line_naming "is a directory"
check "no file ran" -- test -z "$(ls -A "$WORK/o")"

# One format under another's extension: refused, nothing written.
expect 2 "check batch --junit x.json" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --html "$WORK/o/{stem}.html" --junit "$WORK/x.json"
check "it names both formats and the extension to use" -- one_line_naming "--junit $WORK/x.json: the extension .json says json but --junit writes xml: name it .xml"
check "no file ran" -- test -z "$(ls -A "$WORK/o")"
expect 2 "check of one file --junit x.json" -- "$RIGSCOPE" check "$INPUT" --max-stretch 0.5 --junit "$WORK/x.json"
check "nothing written" -- test ! -e "$WORK/x.json"
expect 2 "check batch --json pattern named .xml" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --json "$WORK/o/{stem}.xml"
expect 2 "check batch --html pattern named .csv" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --html "$WORK/o/{stem}.csv"
expect 2 "report batch -o pattern named .json" -- "$RIGSCOPE" report "$LIB" -o "$WORK/o/{stem}.json"
check "no page written" -- test -z "$(ls -A "$WORK/o")"
# merge: the tasks' JSON summaries into m.xml; tension chunks' JSON into m.xml; check chunks'
# JUnit into m.json; --junit of diff chunks named .json.
for i in 0 1; do "$RIGSCOPE" -q check "$LIB" --max-stretch 0.5 --task $i/2 --summary "$WORK/t$i.json" >/dev/null 2>&1; done
expect 2 "merge m.xml of batch summaries" -- "$RIGSCOPE" merge "$WORK/m.xml" "$WORK/t0.json" "$WORK/t1.json"
check "it names what merge writes" -- one_line_naming "m.xml: the extension says xml but merge of batch summaries writes a summary (.csv, .json)"
check "nothing written" -- test ! -e "$WORK/m.xml"
for i in 0 1; do "$RIGSCOPE" -q tension "$INPUT" --frames 1..4 --chunk $i/2 -o "$WORK/c$i.json" 2>/dev/null; done
expect 2 "merge m.xml of tension JSON chunks" -- "$RIGSCOPE" merge "$WORK/m.xml" "$WORK/c0.json" "$WORK/c1.json"
check "it names both formats" -- one_line_naming "m.xml: the extension says xml but the chunks hold json"
for i in 0 1; do "$RIGSCOPE" -q check "$INPUT" --max-stretch 0.5 --frames 1..4 --chunk $i/2 --junit "$WORK/j$i.xml" >/dev/null 2>&1; done
expect 2 "merge m.json of check chunks (JUnit)" -- "$RIGSCOPE" merge "$WORK/m.json" "$WORK/j0.xml" "$WORK/j1.xml"
check "it names the format" -- one_line_naming "the extension .json says json but OUT writes xml"
check "nothing written" -- test ! -e "$WORK/m.json"

# --max-output: the estimate named, nothing written. A 1 MB limit on a run of a few MB ...
expect 4 "deform past --max-output 1" -- "$RIGSCOPE" deform "$INPUT" --fps 240 -o "$WORK/d.csv" --max-output 1
check "it names the estimate and the limit" -- one_line_naming "d.csv: the output would be at least [0-9.]* MB, past the 1.0 MB limit"
check "nothing written, no temporary" -- test -z "$(ls -A "$WORK" | grep -e '^d\.csv' -e '^\.d\.csv')"
expect 0 "... which runs with the limit raised" -- "$RIGSCOPE" deform "$INPUT" --fps 240 -o "$WORK/d.csv" --max-output 100
check "and writes at least the estimate" -- test "$(stat -c %s "$WORK/d.csv")" -gt 1000000
expect 4 "tension CSV past --max-output" -- "$RIGSCOPE" tension "$INPUT" --fps 240 -o "$WORK/t.csv" --max-output 1
# The other per-frame formats of tension: a glTF frame per file (bend_cylinder at 240 fps: some
# MB), a USD layer of primvars over a USD input (Pixar's lbs: some kB, under a 1 kB limit),
# refused alike, with nothing written.
for case in "t_####.glb|$INPUT|1" "t.usda|$CORPUS/usd/lbs.usda|0.001"; do
    IFS='|' read -r out in limit <<<"$case"
    expect 4 "tension -o $out past --max-output $limit" -- "$RIGSCOPE" tension "$in" --fps 240 -o "$WORK/$out" --max-output "$limit"
    check "tension -o $out: the estimate named, nothing written" -- bash -c "grep -q 'past the .* limit' '$WORK/err' && test -z \"\$(ls -A '$WORK' | grep -e '^t_' -e '^t\\.usda' -e '^\\.t')\""
done
# A rivet bake's rows (a row a vertex and frame: 8.9 MB here, at least 1.1 MB) by their least size.
expect 4 "rivet --bake past --max-output 1" -- "$RIGSCOPE" -q rivet "$INPUT" --bake --vertices 0..624 -o "$WORK/rb.csv" --max-output 1
check "rivet --bake: the estimate named, nothing written" -- bash -c "grep -q 'rb.csv: the output would be at least' '$WORK/err' && test ! -e '$WORK/rb.csv'"
# ... and the default 2000 MB against deform --fps 100000 (some 5 GB: past the limit, and under
# the free space of any machine that runs the suite, whose own refusal names the disk instead;
# at 52 GB it fired first on a machine with 51 GB free). The file size limit only keeps a
# rigscope without the refusal from filling the disk while this test fails.
( ulimit -f 20000; "$RIGSCOPE" deform "$INPUT" --fps 100000 -o "$WORK/big.csv" >"$WORK/out.txt" 2>"$WORK/err" )
rc=$?
check "deform --fps 100000: refused (exit $rc)" -- test "$rc" -eq 4
check "by the default limit, naming the estimate in GB" -- one_line_naming "big.csv: the output would be at least [0-9.]* GB, past the 2.0 GB limit"
check "nothing written" -- test -z "$(ls -A "$WORK" | grep -e 'big\.csv')"
# A batch: each file's own output by the same rule, before its job writes.
expect 4 "deform batch past --max-output" -- "$RIGSCOPE" -q deform "$LIB" --fps 240 -o "$WORK/o/{stem}.csv" --max-output 1
check "no file's output written" -- test -z "$(ls -A "$WORK/o")"

finish
