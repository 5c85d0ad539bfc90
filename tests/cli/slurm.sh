#!/usr/bin/env bash
# A real Slurm farm on this machine: munged, slurmctld and slurmd started as a one-node cluster
# under a temporary folder, scripts/slurm/submit.sh runs N = 4 chunks and the dependent merge,
# and the merged outputs must equal one run's. A chunk that fails must cancel the merge, and a
# merge by hand must name the failed chunk. The daemons are stopped by their pids, also when
# the test fails.
. "$(dirname "$0")/common.bash"

for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
    if ! command -v "$tool" >/dev/null; then
        # Only a machine without the Debian packages may skip; where apt could install them the
        # setup is incomplete, which is a failure.
        if command -v apt-cache >/dev/null && apt-cache policy slurm-wlm 2>/dev/null | grep -q 'Candidate: [0-9]'; then
            echo "FAIL: $tool missing: run scripts/setup.sh (it installs scripts/packages-slurm.txt)"
            exit 1
        fi
        echo "SKIP: Slurm cannot be installed here ($tool missing, no slurm-wlm package available)"
        exit 0
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: starting slurmd needs root (the test cluster runs its jobs as root)"
    exit 0
fi

RIGSCOPE=$(cd "$(dirname "$RIGSCOPE")" && pwd)/$(basename "$RIGSCOPE")
export RIGSCOPE
S="$WORK/slurm"
mkdir -p "$S/state" "$S/spool" "$WORK/runs"
chmod 755 "$WORK" "$S"   # munged wants a socket folder others may search

stop_daemons() {
    local f pid
    for f in slurmd slurmctld munged; do
        pid=$(cat "$S/$f.pid" 2>/dev/null) || continue
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
}
trap 'stop_daemons; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP   # so a ctest timeout still stops the daemons

free_ports() {
    python3 -c 'import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])'
}
read -r ctld_port slurmd_port < <(free_ports)
node=$(slurmd -C | head -1)   # NodeName=<host> CPUs=... as slurmd itself sees this machine
host=${node%% *}
host=${host#NodeName=}

head -c 1024 /dev/urandom > "$S/munge.key"
chmod 400 "$S/munge.key"
cat > "$S/slurm.conf" <<EOF
ClusterName=rigscope-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$S/munge.sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$S/slurm.conf"

munged --key-file="$S/munge.key" --socket="$S/munge.sock" --pid-file="$S/munged.pid" --log-file="$S/munged.log" \
    --seed-file="$S/munged.seed" --force || { echo "FAIL: munged did not start"; cat "$S/munged.log"; exit 1; }
slurmctld || { echo "FAIL: slurmctld did not start"; cat "$S/slurmctld.log"; exit 1; }
slurmd || { echo "FAIL: slurmd did not start"; cat "$S/slurmd.log"; exit 1; }
for _ in $(seq 60); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 0.5
done
if [ "$(sinfo -h -o %t 2>/dev/null)" != idle ]; then
    echo "FAIL: the test node never became idle"; sinfo; tail -5 "$S/slurmctld.log" "$S/slurmd.log"; exit 1
fi

# submit OUT COMMAND ARGS...: N = 4 chunks and the merge; sets $merge_job.
submit() {
    local line
    line=$(cd "$WORK/runs" && bash "$OLDPWD/scripts/slurm/submit.sh" 4 "$@") || return 1
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

BEND=$(pwd)/data/bend_cylinder.glb
CESIUM=$(cd "$CORPUS/khronos" && pwd)/cesium_man.gltf
start=$SECONDS
submit bend.csv tension "$BEND" --auto-range && bend_job=$merge_job
submit cesium.json tension "$CESIUM" --vertices 0,100..103 && cesium_job=$merge_job
# A farm where chunk 2 cannot write its part: its task fails, the merge must not run.
mkdir -p "$WORK/runs/broken.csv.parts/2.csv"
submit broken.csv tension "$BEND" && broken_job=$merge_job

"$RIGSCOPE" -q tension "$BEND" --auto-range -o "$WORK/bend_single.csv"
"$RIGSCOPE" -q tension "$CESIUM" --vertices 0,100..103 -o "$WORK/cesium_single.json"

check "bend_cylinder merge job completed" -- test "$(wait_for "${bend_job:-0}" 120)" = COMPLETED
check "bend_cylinder: merged CSV byte-identical to one run" -- cmp -s "$WORK/bend_single.csv" "$WORK/runs/bend.csv"
check "cesium_man merge job completed" -- test "$(wait_for "${cesium_job:-0}" 120)" = COMPLETED
check "cesium_man: merged JSON equals one run" -- same_json "$WORK/cesium_single.json" "$WORK/runs/cesium.json"
check "parts removed after the merge" -- test ! -e "$WORK/runs/bend.csv.parts"
check "merge after a failed chunk is cancelled" -- test "$(wait_for "${broken_job:-0}" 120)" = CANCELLED
check "no merged output after a failed chunk" -- test ! -e "$WORK/runs/broken.csv"
check "the failed chunk's log says why" -- grep -q "2.csv: is a directory" "$WORK"/runs/rigscope-chunk-*_2.log
expect 5 "merging the failed farm run by hand" -- bash -c "cd '$WORK/runs' && bash '$(pwd)/scripts/slurm/merge.sbatch' 4 broken.csv"
check "merge by hand names the failed chunk" -- grep -q "broken.csv.parts/2.csv: no chunk record" "$WORK/err"
echo "slurm: farm runs took $((SECONDS - start)) s"
if [ "$failures" -ne 0 ]; then
    for f in "$WORK"/runs/*.log; do echo "--- $f"; tail -5 "$f"; done
    tail -20 "$S/slurmctld.log"
fi

finish
