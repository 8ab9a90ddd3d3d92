#!/usr/bin/env bash
# Issue 28's scaling measurements, as one prepared script for a many-core machine (the device
# calls of BENCHMARKS.md, "16 cores measured"): every run cold, in an empty directory, cores
# chosen with `taskset`, each lock's result lines diffed against the committed lock.
#   usage: benches/scaling.sh NEW_BINARY [BASELINE_BINARY]     (from the repository root)
# Writes the log to $OUT/scaling.txt (or ./scaling.txt). Takes ~4 min on a 16-core Xeon.
# To carry binaries to a device machine: strip them and `xz -6` them (~20 MB each) into a
# folder git ignores (e.g. dev-bench/), name it in `carry`, unpack there with `xz -dc`.
set -uo pipefail
NEW="$(realpath "$1")"
OLD="$(realpath "${2:-$1}")"
LOG="${OUT:-.}/scaling.txt"
ROOT="$(pwd)"
CORES="$(nproc)"
TIMEFORMAT='%R s wall, %U user, %S sys'
log() { echo "$@" | tee -a "$LOG"; }
# t LABEL COMMAND...: the command's last output line and its time
t() {
  local lab=$1; shift
  { time "$@" > /tmp/scaling.out 2>&1 ; } 2> /tmp/scaling.time
  log "$lab | $(tail -1 /tmp/scaling.out | cut -c1-100) | $(tail -1 /tmp/scaling.time)"
}
study() {
  rm -rf "$1" && mkdir -p "$1/outputs" && cp -r "$ROOT/pipeline.toml" "$ROOT/templates" "$ROOT/models" "$1/" \
    && cp "$ROOT/outputs/pipeline.lock" "$1/outputs/"
}
differing() { # result lines of $1's lock unlike the committed lock's (report/provenance print keys)
  diff <(grep -v '^key = ' "$ROOT/outputs/pipeline.lock") <(grep -v '^key = ' "$1/outputs/pipeline.lock") \
    | grep '^[<>]' | grep -v -E '"(report|provenance)\.(md|html)"' | wc -l
}
log "$CORES cores; $(lscpu | grep 'Model name' | tr -s ' ')"
log "== the committed pipeline, cold, all cores"
for b in "$NEW" "$OLD"; do
  study /tmp/scaling-p && (cd /tmp/scaling-p && t "$(basename "$b") run --jobs $CORES" "$b" run --jobs "$CORES")
  log "  result lines unlike the committed lock: $(differing /tmp/scaling-p)"
done
log "== the committed pipeline by cores (taskset, --jobs = cores)"
for n in 4 8; do
  [ "$n" -le "$CORES" ] || continue
  study /tmp/scaling-p && (cd /tmp/scaling-p && t "taskset $n cores" taskset -c 0-$((n - 1)) "$NEW" run --jobs "$n")
done
log "== simulate, 10^8 chacha games"
S=(simulate --deal-source chacha --seed 7 --games 100000000)
for b in "$NEW" "$OLD"; do rm -rf /tmp/scaling-s; t "$(basename "$b") all cores" "$b" "${S[@]}" --out /tmp/scaling-s; done
rm -rf /tmp/scaling-s; t "one core (taskset -c 0)" taskset -c 0 "$NEW" "${S[@]}" --out /tmp/scaling-s
log "== simulate, 10^7 chacha games, by cores (taskset)"
for n in 1 2 4 8 16 32 64; do
  [ "$n" -le "$CORES" ] || continue
  rm -rf /tmp/scaling-s; t "$n cores" taskset -c 0-$((n - 1)) "$NEW" simulate --deal-source chacha --seed 7 --games 9999999 --out /tmp/scaling-s
done
rm -rf /tmp/scaling-p /tmp/scaling-s
log "== done"
