#!/usr/bin/env bash
# CTest cluster/slurm (tests/cluster.cmake): `layerbench slurm --submit` against a real Slurm. Starts
# munged, slurmctld and slurmd (Debian's slurm-wlm) on this one node from a slurm.conf in a temporary
# folder, with ports of their own and no systemd; submits a 4-shard CPU run of a 3 x 2 matrix; requeues
# one array task in the middle of its shard; waits for the merge job; and checks that the merged dataset
# validates and holds exactly the cells of the same matrix run in one process. Every daemon it started
# is stopped on exit, failure included. Exits 77 (skipped), with the reason, where the daemons cannot
# start (not root, Slurm or munge missing, a daemon that does not come up).
#
#   slurm_check.sh LAYERBENCH
set -euo pipefail
binary=$(readlink -f "$1")
start_time=$SECONDS

skip() {
  echo "SKIPPED: $*"
  exit 77
}

[[ $(id -u) -eq 0 ]] || skip "the Slurm daemons of this test run as root (slurmd starts jobs as their user)"
for program in munged slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
  command -v "$program" > /dev/null || [[ -x /usr/sbin/$program ]] \
    || skip "$program is missing (Debian packages slurm-wlm and munge, installed by make test)"
done
PATH=$PATH:/usr/sbin
"$binary" layers > /dev/null 2>&1 || skip "$binary cannot list its layers (built without LibTorch?)"

work=$(mktemp -d /tmp/layerbench-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local status=$?
  # Jobs first, so that no task is left running when slurmd goes.
  if [[ -n ${array_id:-} ]]; then
    scancel --quiet "$array_id" "${merge_id:-$array_id}" 2> /dev/null || true
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2> /dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2> /dev/null || true
  done
  if ((status != 0 && status != 77)); then
    for log in "$work"/*.log "$work"/out/logs/*.log; do
      [[ -f $log ]] && { echo "--- $log"; tail -n 30 "$log"; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

free_ports() {
  python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))'
}
wait_for() { # SECONDS WHAT COMMAND...: polls COMMAND until it succeeds
  local limit=$1 what=$2
  shift 2
  for _ in $(seq $((limit * 10))); do
    "$@" > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# munge, with a key of its own and a socket in the work folder.
mkdir -p "$work/munge"
chmod 711 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" \
  > "$work/munged.out" 2>&1 &
pids+=($!)
wait_for 10 munge test -S "$work/munge/munge.sock" || skip "munged did not start: $(tail -n 3 "$work/munged.out" "$work/munged.log" 2> /dev/null)"

node=$(hostname -s)
cpus=$(nproc)
read -r ctld_port slurmd_port <<< "$(free_ports)"
mkdir -p "$work/state" "$work/spool" "$work/out"
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" << EOF
ClusterName=layerbench-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=defer_batch
MinJobAge=600
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" > "$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$work/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { sinfo -h -N -o %t | grep -qx idle; }
wait_for 30 slurm node_idle || skip "slurmctld and slurmd did not bring node $node up: $(tail -n 3 "$work/slurmctld.log" "$work/slurmd.log" 2> /dev/null)"
echo "slurm up after $((SECONDS - start_time)) s (node $node, $cpus CPUs, ports $ctld_port and $slurmd_port)"

# The matrix: 3 layers x 2 batch sizes, small budgets, one thread per task.
matrix=(--device cpu --layers Linear,LayerNorm,MaxPool2d --batch-sizes 1,8 --threads 1
  --cell-budget 1 --min-samples 3 --max-samples 60 --warmup 0.02)
out=$work/out
(cd "$work" && "$binary" slurm --out-dir "$out" --shards 4 --max-running "$cpus" --time 10:00 "${matrix[@]}" --submit) \
  > "$work/submit.out" 2> "$work/submit.err" || { cat "$work/submit.out" "$work/submit.err"; exit 1; }
cat "$work/submit.err" "$work/submit.out"
read -r array_id merge_id <<< "$(sed -n 's/^array job \([0-9]*\) .*merge job \([0-9]*\) .*/\1 \2/p' "$work/submit.out")"
[[ -n $array_id && -n $merge_id ]] || { echo "FAIL: no job ids in: $(cat "$work/submit.out")"; exit 1; }

# The same matrix in one process, meanwhile, for the cells the merge must give back.
"$binary" run "${matrix[@]}" --out "$work/whole.json" > "$work/whole.log" 2>&1 &
whole_pid=$!
pids+=("$whole_pid")

# Requeue the first task seen with a checkpoint that lacks some of its planned cells: mid-shard.
planned() { sed -n "s|^layerbench: shard $1/4: expected [0-9.]* s, \([0-9]*\) cells.*|\1|p" "$work/submit.err"; }
# Cells in a checkpoint: its "batch_size" keys (one per line) less those of its planned shard_cells.
checkpointed() { echo $(($(grep -c '"batch_size"' "$1" 2> /dev/null || echo 0) - $2)); }
requeued=
for _ in $(seq 1200); do
  for partial in "$out"/shard-*-of-4.json.partial; do
    [[ -f $partial ]] || continue
    shard=$(basename "$partial" | sed 's/shard-\([0-9]*\)-of-4.*/\1/')
    task=$((shard - 1))
    done_cells=$(checkpointed "$partial" "$(planned "$shard")")
    state=$(squeue -h -j "${array_id}_$task" -o %T 2> /dev/null || true)
    if [[ $state == RUNNING ]] && ((done_cells >= 1 && done_cells < $(planned "$shard"))); then
      scontrol requeue "${array_id}_$task"
      requeued_at=$(date +%s)
      requeued=$shard
      echo "requeued task $task (shard $shard/4) with $done_cells of its $(planned "$shard") cells checkpointed"
      break 2
    fi
  done
  sleep 0.05
done
[[ -n $requeued ]] || { echo "FAIL: no task was seen running with a checkpoint, so none was requeued"; exit 1; }
# A requeued job waits two minutes (its begin time); let it start again now.
pending() { [[ $(squeue -h -j "${array_id}_$((requeued - 1))" -o %T) == PENDING ]]; }
wait_for 20 requeue pending || { echo "FAIL: task $((requeued - 1)) did not go back to pending"; exit 1; }
# The requeue revoked the job's credential, in whole seconds: slurmd refuses a credential made in the
# second of its revocation or before ("Killing non-startable batch job: Job credential revoked"), and the
# task then fails and its merge is cancelled. Start it again only once two seconds have turned.
past_revocation() { (($(date +%s) >= requeued_at + 2)); }
wait_for 5 revocation past_revocation
scontrol update jobid="${array_id}_$((requeued - 1))" StartTime=now

merge_done() {
  local state
  state=$(scontrol show job "$merge_id" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  echo "$state" > "$work/merge.state"
  [[ $state =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL)$ ]]
}
wait_for 150 merge merge_done || { echo "FAIL: the merge job did not finish; $(squeue)"; exit 1; }
state=$(cat "$work/merge.state")
[[ $state == COMPLETED ]] || { echo "FAIL: merge job $merge_id ended $state"; cat "$out/logs/merge.log"; exit 1; }
wait "$whole_pid" || { echo "FAIL: the one-process run failed"; cat "$work/whole.log"; exit 1; }

grep -Eq "layerbench: error: interrupted( while measuring the device.s peaks)?: " "$out/logs/shard-$((requeued - 1)).log" \
  || { echo "FAIL: shard $requeued's log does not show the run interrupted by the requeue"; cat "$out/logs/shard-$((requeued - 1)).log"; exit 1; }
"$binary" validate "$out/merged.json"
python3 - "$out" "$work/whole.json" "$requeued" << 'PYTHON'
import json, sys
from pathlib import Path
out, whole, requeued = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text()), int(sys.argv[3])
merged = json.loads((out / "merged.json").read_text())
keys = lambda d: sorted((c["layer"], c["batch_size"]) for c in d["results"])
assert keys(merged) == keys(whole), (keys(merged), keys(whole))
assert len(keys(merged)) == 6 and all(c["status"] == "ok" for c in merged["results"]), merged["results"]
assert merged["methodology"]["layers"] == whole["methodology"]["layers"]
assert not merged["methodology"].get("shard") and not merged["methodology"].get("shard_cells")
seconds = []
for index in range(1, 5):
    shard = json.loads((out / f"shard-{index}-of-4.json").read_text())
    planned = sorted((c["layer"], c["batch_size"]) for c in shard["methodology"].get("shard_cells", []))
    assert keys(shard) == planned, (index, keys(shard), planned)
    seconds.append(sum(c["cell_seconds"] for c in shard["results"]))
mean = sum(seconds) / len(seconds)
print(f"merged {len(keys(merged))} cells = the one-process run's; shard {requeued} was requeued mid-run and lost none")
print("measured seconds per shard: " + ", ".join(f"{s:.2f}" for s in seconds)
      + f"; longest / mean {max(seconds) / mean:.2f}")
PYTHON
# A data-parallel task (issue 27): `layerbench slurm --nodes 1 --ntasks-per-node 2` makes one array task of
# two ranks, which srun starts on this node and which meet through Slurm's variables; the merged dataset
# holds a world-2 training step of ResNetTiny, written by rank 0 alone.
if ((cpus < 2)); then
  echo "slurm check passed in $((SECONDS - start_time)) s (the two-task job needs 2 CPUs; this node has $cpus)"
  exit 0
fi
ddp_out=$work/ddp
(cd "$work" && "$binary" slurm --out-dir "$ddp_out" --shards 1 --nodes 1 --ntasks-per-node 2 --time 10:00 \
  --device cpu --layers ResNetTiny --batch-sizes 2 --axes mode=train --threads 1 --cell-budget 0.5 --min-samples 3 \
  --warmup 0.02 --no-peaks --submit) > "$work/ddp-submit.out" 2> "$work/ddp-submit.err" \
  || { cat "$work/ddp-submit.out" "$work/ddp-submit.err"; exit 1; }
read -r array_id merge_id <<< "$(sed -n 's/^array job \([0-9]*\) .*merge job \([0-9]*\) .*/\1 \2/p' "$work/ddp-submit.out")"
[[ -n $array_id && -n $merge_id ]] || { echo "FAIL: no job ids in: $(cat "$work/ddp-submit.out")"; exit 1; }
grep -q '^#SBATCH --ntasks-per-node=2$' "$ddp_out/layerbench-shards.sbatch" || { echo "FAIL: the task asks for no 2 tasks"; exit 1; }
wait_for 150 merge merge_done || { echo "FAIL: the data-parallel job's merge did not finish; $(squeue)"; exit 1; }
state=$(cat "$work/merge.state")
[[ $state == COMPLETED ]] || { echo "FAIL: merge job $merge_id ended $state"; cat "$ddp_out/logs/"*.log; exit 1; }
"$binary" validate "$ddp_out/merged.json"
grep -q '^\[rank 1\]\|rank 1 of 2 (MASTER_ADDR=' "$ddp_out/logs/shard-0.log" \
  || { echo "FAIL: the task's log shows no rank 1"; cat "$ddp_out/logs/shard-0.log"; exit 1; }
python3 - "$ddp_out/merged.json" << 'PYTHON'
import json, sys
cells = json.load(open(sys.argv[1]))["results"]
assert len(cells) == 1 and cells[0]["status"] == "ok", cells
ranks = cells[0]["data_parallel"]
assert ranks["world_size"] == 2 and ranks["backend"] == "gloo" and ranks["bucket_bytes"], ranks
print(f"two-task job: ResNetTiny@2 per rank, world size 2, buckets {ranks['bucket_bytes']}")
PYTHON
echo "slurm check passed in $((SECONDS - start_time)) s"
