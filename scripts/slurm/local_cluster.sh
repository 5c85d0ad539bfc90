#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the farm recipe (docs/farm.md) and for
# tests/cli/batch/slurm.sh. Needs root and the Debian packages slurm-wlm and munge.
#   eval "$(scripts/slurm/local_cluster.sh start DIR)"   # starts munged, slurmctld, slurmd; sets SLURM_CONF
#   scripts/slurm/local_cluster.sh stop DIR               # stops them by their pids
# Everything (configuration, munge key and socket, state, logs, pid files) lives in DIR; the
# ports are free ones picked at start, the node is this machine as `slurmd -C` sees it.
set -euo pipefail
cmd=${1:-} dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    sed -n '2,7s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi

stop() {
    local f pid
    for f in slurmd slurmctld munged; do
        pid=$(cat "$dir/$f.pid" 2>/dev/null) || continue
        if kill "$pid" 2>/dev/null; then
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
        rm -f "$dir/$f.pid"
    done
}

case $cmd in
    stop) stop; exit 0 ;;
    start) ;;
    *) echo "local_cluster.sh: start or stop, not '$cmd'" >&2; exit 2 ;;
esac

mkdir -p "$dir/state" "$dir/spool"
dir=$(cd "$dir" && pwd)
chmod 755 "$dir"   # munged wants its socket folder searchable by all, writable by none
read -r ctld_port slurmd_port < <(python3 -c 'import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
node=$(slurmd -C | head -1)   # NodeName=<host> CPUs=... RealMemory=...
host=${node%% *}
host=${host#NodeName=}

[ -f "$dir/munge.key" ] || { head -c 1024 /dev/urandom >"$dir/munge.key"; chmod 400 "$dir/munge.key"; }
cat >"$dir/slurm.conf" <<EOF
ClusterName=rigscope-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
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
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

fail() {
    echo "local_cluster.sh: $1 (log: $2)" >&2
    tail -5 "$2" >&2 || true
    stop
    exit 1
}
munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" --force || fail "munged did not start" "$dir/munged.log"
slurmctld || fail "slurmctld did not start" "$dir/slurmctld.log"
slurmd || fail "slurmd did not start" "$dir/slurmd.log"
for _ in $(seq 60); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 0.5
done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] || fail "node $host never became idle" "$dir/slurmd.log"
echo "export SLURM_CONF=$dir/slurm.conf"
