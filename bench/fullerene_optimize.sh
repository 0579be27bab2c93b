#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time per isomer of the fullerene pipeline on one core (figures go to bench/RESULTS.md), for
# C_N with N in SIZES (default 60 100 200):
#   bench/fullerene_optimize.sh [BUILD_DIR [OUT.jsonl]]
# The isomers: every STRIDE-th (default 100) of the first SAMPLE * STRIDE (default 20 * 100) that
# the generator emits, so that C200 needs no walk of its 2e8 isomers. (The generator's order is
# not random: the thesis's random samples need the whole space, see `molstep fullerene
# isomerspace --sample`.) Each is optimised by `molstep fullerene optimize --spiral S --threads 1`,
# and the per-stage times come from its JSON output. The anchor is the seed thesis's sequential
# baseline: about 100 ms per C200 isomer for the Fortran force-field optimisation alone.
set -euo pipefail
build="${1:-build}"
out="${2:-/dev/null}"
sizes="${SIZES:-60 100 200}"
sample="${SAMPLE:-20}"
stride="${STRIDE:-100}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

printf "%-5s %8s %9s %10s | %14s %14s %14s   (ms per isomer, one core)\n" \
  N isomers converged iterations "optimise mean" "optimise med" "pipeline mean"
for n in $sizes; do
  # head closes the pipe after enough lines; the generator then stops on SIGPIPE.
  set +o pipefail
  "$build/molstep" fullerene generate "$n" --format spiral | head -n $((sample * stride)) |
    awk -v s="$stride" 'NR % s == 1' > "$tmp/spirals"
  set -o pipefail
  rm -f "$tmp"/iso.*.json
  k=0
  while read -r spiral; do
    "$build/molstep" fullerene optimize --spiral "$spiral" --threads 1 --out "$tmp/iso.$k.json" > /dev/null
    k=$((k + 1))
  done < "$tmp/spirals"
  python3 - "$n" "$tmp" "$out" <<'PY'
import glob, json, statistics, sys
n, tmp, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = [json.load(open(f))[0] for f in sorted(glob.glob(f"{tmp}/iso.*.json"))]
opt = [r["stage_seconds"]["optimise"] * 1e3 for r in rows]
total = [r["seconds"] * 1e3 for r in rows]
result = {
    "atoms": n, "isomers": len(rows), "converged": sum(r["status"] == "converged" for r in rows),
    "iterations_mean": statistics.mean(r["iterations"] for r in rows),
    "optimise_ms_mean": statistics.mean(opt), "optimise_ms_median": statistics.median(opt),
    "pipeline_ms_mean": statistics.mean(total),
    "stage_ms_mean": {s: statistics.mean(r["stage_seconds"][s] * 1e3 for r in rows) for s in rows[0]["stage_seconds"]},
}
print(f"C{n:<4} {result['isomers']:8d} {result['converged']:9d} {result['iterations_mean']:10.0f} | "
      f"{result['optimise_ms_mean']:14.2f} {result['optimise_ms_median']:14.2f} {result['pipeline_ms_mean']:14.2f}")
with open(out, "a") as f:
    f.write(json.dumps(result) + "\n")
PY
done
