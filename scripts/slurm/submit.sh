#!/usr/bin/env bash
# Submits a rigscope run to Slurm as N chunks and a merge that waits for them (docs/farm.md):
#   scripts/slurm/submit.sh N OUT COMMAND ARGS...
#   scripts/slurm/submit.sh 4 tension.csv tension data/bend_cylinder.glb
# Prints the array and merge job ids. SBATCH_OPTS adds sbatch options to both jobs
# (e.g. "--partition=farm --time=2:00:00"); RIGSCOPE names the binary the jobs run.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,7s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
n=$1 out=$2
shift 2
case $n in '' | *[!0-9]* | 0) echo "submit.sh: N must be a positive number, not '$n'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
export RIGSCOPE=${RIGSCOPE:-$(command -v rigscope || echo "$PWD/build/rigscope")}
export RIGSCOPE_CHUNKS=$n
read -r -a extra <<<"${SBATCH_OPTS:-}"
array=$(sbatch --parsable "${extra[@]}" --array=0-$((n - 1)) "$here/chunk.sbatch" "$out" "$@")
array=${array%%;*}
# afterok: the merge starts only when every chunk succeeded; a failed chunk cancels it
# (--kill-on-invalid-dep) instead of leaving it pending for ever.
merge=$(sbatch --parsable "${extra[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes "$here/merge.sbatch" "$n" "$out")
merge=${merge%%;*}
echo "array job $array ($n chunks), merge job $merge -> $out"
