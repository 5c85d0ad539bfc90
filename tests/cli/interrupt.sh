#!/usr/bin/env bash
# Interruption: a real signal in the middle of a long run (tension over the 262k-vertex bench
# tube, a CSV of some 580 MB) leaves no output file and no temporary, and the next run into the
# same path succeeds. SIGKILL cannot be caught: it may leave a hidden temporary, never a partial
# file under the output's name, and does not stop the next run.
. "$(dirname "$0")/common.bash"
TUBE=${RIGSCOPE_BENCH_DIR:-$CORPUS/../bench}/tube_262k.glb
RUN="$WORK/run"
mkdir -p "$RUN"
out="$RUN/out.csv"

temporaries() { ls -A "$RUN" | grep -c '^\.out.*\.rigscope-' ; }

# interrupt SIGNAL NUMBER [OUTPUT [tension options]]: starts the run, waits until it is writing
# its temporary, lets it write for a second, signals it, then checks what is left.
interrupt() {
    local sig=$1 num=$2 target=${3:-$out}
    shift 3 || shift $#
    "$RIGSCOPE" -q tension "$TUBE" -o "$target" "$@" 2>"$WORK/err" &
    local pid=$! i
    for i in $(seq 1200); do
        [ "$(temporaries)" -gt 0 ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    check "$sig: the run was writing its temporary" -- test "$(temporaries)" -gt 0
    sleep 1
    check "$sig: the run was still going after 1 s" -- kill -0 "$pid"
    kill -"$sig" "$pid"
    wait "$pid"
    local rc=$?
    check "$sig: ended by the signal (exit $rc)" -- test "$rc" -eq $((128 + num))
    check "$sig: no output file" -- test -z "$(ls "$RUN")"
    [ "$sig" = KILL ] || check "$sig: no temporary left" -- test "$(temporaries)" -eq 0
}

if [ ! -f "$TUBE" ]; then
    echo "SKIP: $TUBE not found"
else
    interrupt INT 2
    interrupt TERM 15
    interrupt HUP 1
    # glTF frames are all finished before any is renamed into place: none may appear.
    interrupt TERM 15 "$RUN/out_####.glb"
    interrupt KILL 9
    check "KILL: at most a hidden temporary" -- test ! -e "$out"

    expect 0 "a second run into the same path" -- "$RIGSCOPE" -q tension "$TUBE" --frames 1..2 --vertices 0..99 -o "$out"
    check "second run: complete output (header + 2 frames x 2 meshes x 100 vertices)" -- test "$(wc -l < "$out")" -eq 401
    check "second run: nothing else in the folder but the SIGKILL leftover" -- test "$(ls -A "$RUN" | grep -vc -e '^out.csv$' -e '^\.out\.csv\.rigscope-')" -eq 0
fi

finish
