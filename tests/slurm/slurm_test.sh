#!/usr/bin/env bash
# A real Slurm on this machine: munged, slurmctld and slurmd for localhost,
# started by this test as root in a private directory with its own config and
# ports, then deploy/slurm/submit.sh runs the replay quickstart (compile-only,
# 2 samples per task) as a 3-shard array job and the dependent merge job. The
# merged store must hold every episode exactly once, finished, with the
# unsharded run's episode ids. Exit 77 (ctest: skipped) with the reason when
# Slurm or munge is not installed or we are not root (.ci/run installs them).
#   tests/slurm/slurm_test.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
BUILD=$(cd "${1:?usage: slurm_test.sh BUILD_DIR}" && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for c in munged slurmctld slurmd sbatch squeue; do
  command -v "$c" >/dev/null 2>&1 || skip "$c not installed (Debian: slurm-wlm, munge)"
done
[ "$(id -u)" = 0 ] || skip "the test starts slurmd, which must run as root"

T=$(mktemp -d /tmp/pf-slurm.XXXXXX)
chmod 755 "$T"
host=$(hostname -s)
cleanup() {
  for p in slurmd slurmctld munge/pid; do
    [ -f "$T/$p.pid" ] && kill "$(cat "$T/$p.pid")" 2>/dev/null
    [ -f "$T/$p" ] && kill "$(cat "$T/$p")" 2>/dev/null
  done
  sleep 1
  [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/work"
chmod 700 "$T/munge"
head -c 1024 /dev/urandom > "$T/munge/key"
chmod 600 "$T/munge/key"
munged --force --socket="$T/munge/sock" --key-file="$T/munge/key" --pid-file="$T/munge/pid" \
  --log-file="$T/munge/log" --seed-file="$T/munge/seed" || fail "munged did not start: $(cat "$T/munge/log" 2>/dev/null)"

port=$((20000 + RANDOM % 20000))
cat > "$T/slurm.conf" <<CONF
ClusterName=pftest
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=pftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -c || fail "slurmctld did not start: $(tail -5 "$T/slurmctld.log")"
slurmd || fail "slurmd did not start: $(tail -5 "$T/slurmd.log")"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || fail "the node never became idle: $(sinfo 2>&1; tail -5 "$T/slurmd.log")"
echo "slurm up: $(sinfo -h -o '%P %D %t %N')"

# The job: the quickstart's three tasks, two samples each, compile-only.
export PASSFORGE="$BUILD/passforge" OUTPUT_DIR="$T/work/runs"
export PASSFORGE_ARGS="--set run.samples_per_task=2 --set run.concurrency=2 --set evaluator.compile_only=true --set run.output_dir=$OUTPUT_DIR"
cd "$T/work"
cp -r "$REPO/prompts" "$REPO/tasks" "$REPO/configs" .  # the job's working directory, as a user's
submitted=$("$REPO/deploy/slurm/submit.sh" 3 "$T/work/configs/quickstart.toml" --chdir="$T/work") ||
  fail "submit.sh failed"
echo "$submitted"
array=$(echo "$submitted" | sed -nE 's/^array job ([0-9]+).*/\1/p')
merge=$(echo "$submitted" | sed -nE 's/.*merge job ([0-9]+).*/\1/p')
[ -n "$array" ] && [ -n "$merge" ] || fail "could not read the job ids from: $submitted"
for _ in $(seq 480); do
  [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || fail "jobs still queued after 8 minutes: $(squeue)"
for f in passforge-*.out; do echo "--- $f"; tail -n 15 "$f"; done
run="$OUTPUT_DIR/slurm-$array"
for k in 0 1 2; do
  [ -f "$run/shard-$k-of-3/passforge.db" ] || fail "shard $k wrote no store"
done
[ -f "$run/passforge.db" ] || fail "the merge job wrote no $run/passforge.db"

# Every (task, sample) once, finished, in the merged store.
python3 - "$run/passforge.db" <<'PY' || fail "the merged store is not the whole run"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT task_id, sample_index, status FROM episodes").fetchall()
keys = [(t, s) for t, s, _ in rows]
assert len(rows) == 6, f"expected 6 episodes, found {len(rows)}: {rows}"
assert len(set(keys)) == 6, f"duplicated episodes: {keys}"
assert {s for _, s in keys} == {0, 1}, keys
assert all(st == "finished" for _, _, st in rows), rows
runs = db.execute("SELECT id FROM runs").fetchall()
assert len(runs) == 1, runs
print(f"merged: {len(rows)} episodes, run {runs[0][0]}")
PY
echo "PASS: 3 shards on Slurm, merged, nothing lost or duplicated"
