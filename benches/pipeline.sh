#!/usr/bin/env bash
# Whole-stage benchmarks through the real binary (`make bench` runs this after the criterion
# engine benchmark). Prints a Markdown table; copy it into BENCHMARKS.md with the date.
#   usage: benches/pipeline.sh [path/to/briscola]
set -euo pipefail
BIN="$(realpath "${1:-target/release/briscola}")"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

peak() { # command... -> "wall_s peak_MiB"
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >/dev/null
  awk '{printf "%.2f s | %.0f MiB", $1, $2/1024}' "$WORK/time"
}

echo "| what | wall | peak RSS |"
echo "|---|---:|---:|"
echo "| simulate, paper design (999,999 games, dotnet-replay, game table; no trick log) | $(peak "$BIN" simulate --out "$WORK/sim1") |"
echo "| simulate, paper design, with the trick log (--trick-log: game + trick Parquet) | $(peak "$BIN" simulate --trick-log --out "$WORK/sim1t") |"
echo "| simulate, 10^7 games (dotnet-replay, no trick log) | $(peak "$BIN" simulate --games 10000000 --out "$WORK/sim10") |"
rm -rf "$WORK/sim10"
echo "| simulate, 10^7 games (chacha deals, no trick log: each chunk one task) | $(peak "$BIN" simulate --deal-source chacha --seed 7 --games 9999999 --out "$WORK/sim10c") |"
rm -rf "$WORK/sim10c"
echo "| export tricks CSV of the paper design, regenerated from the seed (19,999,980 rows, 2.8 GB) | $(peak "$BIN" export tricks --format csv --from "$WORK/sim1" --out "$WORK/tricks.csv") |"
rm -f "$WORK/tricks.csv"
echo "| export tricks CSV of the paper design, read from the trick log | $(peak "$BIN" export tricks --format csv --from "$WORK/sim1t" --out "$WORK/tricks.csv") |"
rm -rf "$WORK/tricks.csv" "$WORK/sim1t"
echo "| solve the logic model's seed (default budget: 'for every completion' of 4 open, 3 proved by the SAT-guided templates, 1,000 samples) | $(peak "$BIN" solve "$ROOT/tests/data/solve/logic-model-seed.toml") |"

# The pipeline on the paper's study alone (the committed pipeline.toml without its variants,
# sweeps and leagues; the policy definitions stay, so the shipped models are copied too).
mkdir -p "$WORK/study"
cp -r "$ROOT/templates" "$ROOT/models" "$WORK/study/"
awk '/^\[(variants|sweeps|leagues)\./{skip=1; next} /^\[/{skip=0} !skip' "$ROOT/pipeline.toml" > "$WORK/study/pipeline.toml"
echo "| pipeline, paper study, cold cache (all stages) | $(peak "$BIN" run --config "$WORK/study/pipeline.toml") |"
echo "| pipeline, no-op second run | $(peak "$BIN" run --config "$WORK/study/pipeline.toml") |"
"$BIN" run --config "$WORK/study/pipeline.toml" --force aggregate --force test --force regress --force plot --force render >/dev/null
python3 - "$WORK/study/outputs/.cache/last-run.json" <<'PY'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
by = {}
for j in jobs:
    if j["outcome"] == "ran":
        by[j["stage"]] = by.get(j["stage"], 0.0) + j["seconds"]
agg = sum(by.get(s, 0.0) for s in ("aggregate", "test", "regress"))
pr = sum(by.get(s, 0.0) for s in ("plot", "render"))
for s in ("aggregate", "test", "regress", "plot", "render"):
    print(f"| stage {s} (forced re-run, paper study, sum over its jobs) | {by.get(s, 0.0):.2f} s | |")
print(f"| aggregate + test + regress | {agg:.2f} s | |")
print(f"| plot + render | {pr:.2f} s | |")
PY
"$BIN" run --config "$WORK/study/pipeline.toml" --force simulate >/dev/null
python3 - "$WORK/study/outputs/.cache/last-run.json" <<'PY'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
t = sum(j["seconds"] for j in jobs if j["stage"] == "simulate" and j["outcome"] == "ran")
print(f"| stage simulate (forced re-run, 9 shards, store + publish included) | {t:.2f} s | |")
PY
