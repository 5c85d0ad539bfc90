#!/usr/bin/env bash
# Interruption: a real signal sent to a run that holds every temporary fully written and none yet
# renamed (the test-only pause point RIGSCOPE_TEST_HOLD_AT_COMMIT, src/io/writers/output_file.cpp) leaves
# no output file and no temporary, and the next run into the same path succeeds. The run is held
# at a known point, so the test is the same on a machine of any speed. SIGKILL cannot be caught:
# it may leave a hidden temporary, never a file under the output's name, and does not stop the
# next run.
. "$(dirname "$0")/../common.bash"
INPUT=data/bend_cylinder.glb
RUN="$WORK/run"
mkdir -p "$RUN"
out="$RUN/out.csv"
marker="$WORK/held"

temporaries() { ls -A "$RUN" | grep -c '^\.out.*\.rigscope-' ; }

# interrupt SIGNAL NUMBER TEMPORARIES OUTPUT [tension options]: starts the run, waits until it
# is held at its first commit with TEMPORARIES files written, signals it, then checks what is left.
interrupt() {
    local sig=$1 num=$2 temps=$3 target=$4
    shift 4
    rm -f "$marker"
    RIGSCOPE_TEST_HOLD_AT_COMMIT="$marker" "$RIGSCOPE" -q tension "$INPUT" -o "$target" "$@" 2>"$WORK/err" &
    local pid=$! i
    # Waits for the marker, not for a time: the bound only stops a broken build from hanging ctest.
    for i in $(seq 6000); do
        [ -e "$marker" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    check "$sig: the run reached its first commit and is held there" -- test -e "$marker"
    check "$sig: the held run has written its $temps temporaries" -- test "$(temporaries)" -eq "$temps"
    check "$sig: nothing renamed into place before the signal" -- test -z "$(ls "$RUN")"
    kill -"$sig" "$pid"
    wait "$pid"
    local rc=$?
    check "$sig: ended by the signal (exit $rc)" -- test "$rc" -eq $((128 + num))
    check "$sig: no output file" -- test -z "$(ls "$RUN")"
    [ "$sig" = KILL ] || check "$sig: no temporary left" -- test "$(temporaries)" -eq 0
}

interrupt INT 2 1 "$out"
interrupt TERM 15 1 "$out"
interrupt HUP 1 1 "$out"
# glTF frames are all finished before any is renamed into place: none may appear.
interrupt TERM 15 5 "$RUN/out_####.glb" --frames 1..5
interrupt KILL 9 1 "$out"
check "KILL: at most a hidden temporary" -- test ! -e "$out"

expect 0 "a second run into the same path" -- "$RIGSCOPE" -q tension "$INPUT" --frames 1..2 --vertices 0..99 -o "$out"
check "second run: complete output (header + 2 frames x 100 vertices)" -- test "$(wc -l < "$out")" -eq 201
check "second run: nothing else in the folder but the SIGKILL leftover" -- test "$(ls -A "$RUN" | grep -vc -e '^out.csv$' -e '^\.out\.csv\.rigscope-')" -eq 0

finish
