#!/usr/bin/env bash
# A real Slurm farm on this machine: munged, slurmctld and slurmd started as a one-node cluster
# under a temporary folder (scripts/slurm/local_cluster.sh), scripts/slurm/submit.sh runs N = 4
# chunks and the dependent merge, and the merged outputs must equal one run's. A chunk that
# fails must cancel the merge, and a merge by hand must name the failed chunk. The daemons are
# stopped by their pids, also when the test fails.
. "$(dirname "$0")/../common.bash"

for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
    if ! command -v "$tool" >/dev/null; then
        # Only a machine without the Debian packages may skip; where apt could install them the
        # setup is incomplete, which is a failure.
        if command -v apt-cache >/dev/null && apt-cache policy slurm-wlm 2>/dev/null | grep -q 'Candidate: [0-9]'; then
            echo "FAIL: $tool missing: run scripts/setup.sh (it installs scripts/packages-slurm.txt)"
            exit 1
        fi
        skip "Slurm cannot be installed here ($tool missing, no slurm-wlm package available)"
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    skip "starting slurmd needs root (the test cluster runs its jobs as root)"
fi

RIGSCOPE=$(cd "$(dirname "$RIGSCOPE")" && pwd)/$(basename "$RIGSCOPE")
export RIGSCOPE
S="$WORK/slurm"
REPO=$(pwd)
mkdir -p "$WORK/runs"
chmod 755 "$WORK"   # munged wants a socket folder others may search
trap 'bash "$REPO/scripts/slurm/local_cluster.sh" stop "$S"; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP   # so a ctest timeout still stops the daemons
conf=$(bash scripts/slurm/local_cluster.sh start "$S") || { echo "FAIL: the local Slurm cluster did not start"; exit 1; }
eval "$conf"

# submit OUT COMMAND ARGS...: N = 4 chunks and the merge; sets $merge_job.
submit() {
    local line
    line=$(cd "$WORK/runs" && bash "$REPO/scripts/slurm/submit.sh" 4 "$@") || return 1
    echo "  $line"
    merge_job=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$line")
}
job_state() { scontrol show job "$1" -o 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
# wait_for JOB SECONDS: until the job has ended; prints its final state.
wait_for() {
    local state deadline=$((SECONDS + $2))
    while [ $SECONDS -lt $deadline ]; do
        state=$(job_state "$1")
        case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) echo "$state"; return ;; esac
        sleep 1
    done
    echo "TIMEOUT-WAITING"
}
same_json() {
    python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$1" "$2"
}

BEND=$REPO/data/bend_cylinder.glb
CESIUM=$(cd "$CORPUS/khronos" && pwd)/cesium_man.gltf
start=$SECONDS
submit bend.csv tension "$BEND" --auto-range && bend_job=$merge_job
submit cesium.json tension "$CESIUM" --vertices 0,100..103 && cesium_job=$merge_job
submit check.xml check "$BEND" --max-stretch 0.8 && check_job=$merge_job
# Rig CI on the farm: a diff against a moved joint (failing its limit) and a --rom tension.
python3 "$REPO/tests/cli/rigci_glb.py" move "$BEND" "$WORK/runs/moved.glb" Bone.001 0 0.2 0
submit diff.json diff "$BEND" "$WORK/runs/moved.glb" --max-displacement 0.1 && diff_job=$merge_job
submit rom.csv tension "$BEND" --rom --rom-frames 8 && rom_job=$merge_job
# A farm where chunk 2 cannot write its part: its task fails, the merge must not run.
mkdir -p "$WORK/runs/broken.csv.parts/2.csv"
submit broken.csv tension "$BEND" && broken_job=$merge_job

"$RIGSCOPE" -q tension "$BEND" --auto-range -o "$WORK/bend_single.csv"
"$RIGSCOPE" -q tension "$CESIUM" --vertices 0,100..103 -o "$WORK/cesium_single.json"
"$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 --junit "$WORK/check_single.xml" >"$WORK/check_single.txt"

check "bend_cylinder merge job completed" -- test "$(wait_for "${bend_job:-0}" 120)" = COMPLETED
check "bend_cylinder: merged CSV byte-identical to one run" -- cmp -s "$WORK/bend_single.csv" "$WORK/runs/bend.csv"
check "cesium_man merge job completed" -- test "$(wait_for "${cesium_job:-0}" 120)" = COMPLETED
check "cesium_man: merged JSON equals one run" -- same_json "$WORK/cesium_single.json" "$WORK/runs/cesium.json"
# A failing check fails the merge job (exit 1), its log holding the run's report.
check "check merge job failed as the check does" -- test "$(wait_for "${check_job:-0}" 120)" = FAILED
# Equal but for when the run started and how long it took (the merge sums its chunks' times).
for f in "$WORK/check_single.xml" "$WORK/runs/check.xml"; do
    [ -f "$f" ] && sed -E 's/ time="[0-9.]+" timestamp="[0-9T:-]+"//' "$f" >"$f.norm"
done
check "check: merged JUnit equals one run's but for timing" -- cmp -s "$WORK/check_single.xml.norm" "$WORK/runs/check.xml.norm"
check "check: merge log holds the run's report" -- cmp -s "$WORK/check_single.txt" "$(ls "$WORK"/runs/rigscope-merge-"${check_job:-0}".log)"
"$RIGSCOPE" -q diff "$BEND" "$WORK/runs/moved.glb" --max-displacement 0.1 -o "$WORK/diff_single.json" >/dev/null
"$RIGSCOPE" -q tension "$BEND" --rom --rom-frames 8 -o "$WORK/rom_single.csv"
check "diff merge job failed as the diff's limit does" -- test "$(wait_for "${diff_job:-0}" 120)" = FAILED
check "diff: merged JSON byte-identical to one run" -- cmp -s "$WORK/diff_single.json" "$WORK/runs/diff.json"
check "tension --rom merge job completed" -- test "$(wait_for "${rom_job:-0}" 120)" = COMPLETED
check "tension --rom: merged CSV byte-identical to one run" -- cmp -s "$WORK/rom_single.csv" "$WORK/runs/rom.csv"
check "parts removed after the merge" -- test ! -e "$WORK/runs/bend.csv.parts"
check "merge after a failed chunk is cancelled" -- test "$(wait_for "${broken_job:-0}" 120)" = CANCELLED
check "no merged output after a failed chunk" -- test ! -e "$WORK/runs/broken.csv"
check "the failed chunk's log says why" -- grep -q "2.csv: is a directory" "$WORK"/runs/rigscope-chunk-*_2.log
expect 5 "merging the failed farm run by hand" -- bash -c "cd '$WORK/runs' && bash '$REPO/scripts/slurm/merge.sbatch' 4 broken.csv"
check "merge by hand names the failed chunk" -- grep -q "broken.csv.parts/2.csv: no chunk record" "$WORK/err"
echo "slurm: farm runs took $((SECONDS - start)) s"
if [ "$failures" -ne 0 ]; then
    for f in "$WORK"/runs/*.log; do echo "--- $f"; tail -n 5 "$f"; done
    tail -n 20 "$S/slurmctld.log" "$S/slurmd.log"
fi

finish
