#!/usr/bin/env bash
# Issue 28's scaling measurements, as one prepared script for a many-core machine (the device
# calls of BENCHMARKS.md, "16 cores measured"): every run cold, in an empty directory, cores
# chosen with `taskset`, each lock's result lines diffed against the committed lock.
#   usage: benches/scaling.sh NEW_BINARY [BASELINE_BINARY]     (from the repository root)
# With SCALING_ENV="VAR=value ..." the all-core pipeline and simulate runs, and simulate by cores,
# are repeated with those variables set (an A/B of a setting such as glibc's malloc tunables).
# Writes the log to $OUT/scaling.txt (or ./scaling.txt) and, with $OUT set, the 16-core runs'
# per-job times (last-run*.json). Takes ~4 min on a 16-core Xeon, ~5 with SCALING_ENV.
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
  if [ -f /tmp/scaling-s/tournament.json ]; then # every simulate run's files, by their hashes
    [ -f /tmp/scaling-t.json ] || cp /tmp/scaling-s/tournament.json /tmp/scaling-t.json
    cmp -s /tmp/scaling-t.json /tmp/scaling-s/tournament.json || log "  DIFFERENT tournament.json from the first run of its size"
  fi
}
study() {
  rm -rf "$1" && mkdir -p "$1/outputs" && cp -r "$ROOT/pipeline.toml" "$ROOT/templates" "$ROOT/models" "$1/" \
    && cp "$ROOT/outputs/pipeline.lock" "$1/outputs/"
}
differing() { # result lines of $1's lock unlike the committed lock's (report/provenance print keys)
  diff <(grep -v '^key = ' "$ROOT/outputs/pipeline.lock") <(grep -v '^key = ' "$1/outputs/pipeline.lock") \
    | grep '^[<>]' | grep -v -E '"(report|provenance)\.(md|html)"' | wc -l
}
log "$CORES cores; $(lscpu | grep 'Model name' | tr -s ' '); $(grep -o -w -E 'avx2|avx512f' /proc/cpuinfo | sort -u | tr '\n' ' ')"
AB=("")
[ -n "${SCALING_ENV:-}" ] && AB+=("$SCALING_ENV")
log "== the committed pipeline, cold, all cores"
for e in "${AB[@]}"; do
  for b in "$NEW" "$OLD"; do
    [ -n "$e" ] && [ "$b" = "$OLD" ] && [ "$OLD" != "$NEW" ] && continue
    study /tmp/scaling-p && (cd /tmp/scaling-p && t "${e:+$e }$(basename "$b") run --jobs $CORES" env $e "$b" run --jobs "$CORES")
    log "  result lines unlike the committed lock: $(differing /tmp/scaling-p)"
    [ -n "${OUT:-}" ] && cp /tmp/scaling-p/outputs/.cache/last-run.json "$OUT/last-run${e:+-env}.json" 2>/dev/null
  done
done
log "== the committed pipeline by cores (taskset, --jobs = cores)"
for n in 2 4 8; do
  [ "$n" -le "$CORES" ] || continue
  study /tmp/scaling-p && (cd /tmp/scaling-p && t "taskset $n cores" taskset -c 0-$((n - 1)) "$NEW" run --jobs "$n")
done
rm -rf /tmp/scaling-s /tmp/scaling-t.json
log "== simulate, 10^8 chacha games"
S=(simulate --deal-source chacha --seed 7 --games 100000000)
for e in "${AB[@]}"; do
  for b in "$NEW" "$OLD"; do
    [ -n "$e" ] && [ "$b" = "$OLD" ] && [ "$OLD" != "$NEW" ] && continue
    rm -rf /tmp/scaling-s; t "${e:+$e }$(basename "$b") all cores" env $e "$b" "${S[@]}" --out /tmp/scaling-s
  done
done
rm -rf /tmp/scaling-s; t "one core (taskset -c 0)" taskset -c 0 "$NEW" "${S[@]}" --out /tmp/scaling-s
rm -f /tmp/scaling-t.json
log "== simulate, 10^7 chacha games, by cores (taskset)"
for e in "${AB[@]}"; do
  for n in 1 2 4 8 16 32 64; do
    [ "$n" -le "$CORES" ] || continue
    rm -rf /tmp/scaling-s; t "${e:+$e }$n cores" taskset -c 0-$((n - 1)) env $e "$NEW" simulate --deal-source chacha --seed 7 --games 9999999 --out /tmp/scaling-s
  done
done
log "== simulate, 10^7 chacha games, the AVX2 path (BRISCOLA_ENGINE=avx2)"
for n in 1 "$CORES"; do
  rm -rf /tmp/scaling-s; t "avx2, $n cores" taskset -c 0-$((n - 1)) env BRISCOLA_ENGINE=avx2 "$NEW" simulate --deal-source chacha --seed 7 --games 9999999 --out /tmp/scaling-s
done
log "== one team shard, 10^7 four-player games (simulate --study: a baseline older than 49d1983 has no --study)"
study /tmp/scaling-p
rm -f /tmp/scaling-t.json # the tournament.json compared is the first of this size's
for b in "$NEW" "$OLD"; do
  for n in 1 "$CORES"; do
    # Its last line: the peak memory, where /usr/bin/time is there.
    PEAK=(); [ -x /usr/bin/time ] && PEAK=(/usr/bin/time -f "peak %M KB")
    rm -rf /tmp/scaling-s; t "$(basename "$b") $n cores" taskset -c 0-$((n - 1)) "${PEAK[@]}" "$b" simulate --config /tmp/scaling-p/pipeline.toml --study four-player --policies greedy --games 10000000 --out /tmp/scaling-s
  done
done
rm -rf /tmp/scaling-p /tmp/scaling-s /tmp/scaling-t.json
log "== done"
