#!/usr/bin/env bash
# A throwaway one-node Slurm cluster on this machine, for tests and for trying the Slurm
# executor without a real cluster. Needs Debian's slurm-wlm, munge and libpmix2 and root (no
# systemd needed):
#   apt-get install -y slurm-wlm munge libpmix2
#
#   tests/it/slurm/cluster.sh start DIR   # writes DIR/slurm.conf, starts munged, slurmctld, slurmd
#   export SLURM_CONF=DIR/slurm.conf      # then sbatch/squeue/scancel (and briscola) use it
#   tests/it/slurm/cluster.sh stop DIR    # stops the three daemons it started
#
# Everything (config, state, munge socket and key, daemon logs, pid files) lives under DIR, so
# nothing of the machine's own Slurm or munge setup is touched. Ports: $SLURM_TEST_PORT
# (default 16817) and the next one. Exit status 0: the node is idle and accepts jobs;
# 3: the cluster cannot start here (the reason is printed).
set -uo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
  for d in slurmd slurmctld munged; do
    local pidfile="$dir/$d.pid"
    [[ -f "$pidfile" ]] || continue
    local pid
    pid=$(cat "$pidfile")
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$pidfile"
  done
}

cannot() {
  echo "slurm test cluster: cannot start: $*" >&2
  stop
  exit 3
}

case "$cmd" in
stop)
  stop
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac

for tool in munged slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v "$tool" >/dev/null 2>&1 || cannot "\`$tool\` is not installed (apt-get install -y slurm-wlm munge libpmix2)"
done
[[ $(id -u) -eq 0 ]] || cannot "the daemons must run as root"

host=$(hostname -s)
port=${SLURM_TEST_PORT:-16817}
cpus=$(nproc)
mem_mb=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"

# munge: its own key and socket under DIR.
if [[ ! -s "$dir/munge/munge.key" ]]; then
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
fi
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
  || cannot "munged failed (see $dir/munge/munged.log)"

cat >"$dir/slurm.conf" <<CONF
ClusterName=briscolatest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
SlurmdTimeout=60
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

# -D: stay in the foreground (we background them ourselves, no systemd); -i: ignore old state.
nohup slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
echo $! >"$dir/slurmctld.pid"
nohup slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
echo $! >"$dir/slurmd.pid"

for _ in $(seq 1 60); do
  state=$(sinfo --noheader --format=%T 2>/dev/null | head -1)
  case "$state" in
  idle | mixed | allocated)
    echo "slurm test cluster: node $host $state (SLURM_CONF=$SLURM_CONF)"
    exit 0
    ;;
  esac
  kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null || cannot "slurmctld exited (see $dir/slurmctld.log, $dir/slurmctld.out)"
  kill -0 "$(cat "$dir/slurmd.pid")" 2>/dev/null || cannot "slurmd exited (see $dir/slurmd.log, $dir/slurmd.out)"
  sleep 0.5
done
cannot "the node did not become idle within 30 s (last state: ${state:-none}; see $dir/slurmctld.log)"
