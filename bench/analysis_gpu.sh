#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Analysis benchmarks on a GPU machine (run by hand with the device tool; figures go to
# bench/RESULTS.md):
#   bench/analysis_gpu.sh BUILD_DIR OUT_DIR
# 1. SDH pair throughput, CPU and GPU, N = 10k .. 4M uniform atoms (molstep_bench_sdh checks
#    N(N-1)/2 pairs and identical CPU/GPU histograms).
# 2. The 108,000-atom, 100-frame liquid-argon XTC (bench/in.argon.xtc, written on the GPU):
#    g(r) on the CPU and on the GPU, and ten queries in one pass against ten passes.
set -euo pipefail
build="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
sdh="$build/bench/molstep_bench_sdh"
"$sdh" --device both 10000 30000 100000 | tee "$out/sdh.jsonl"
"$sdh" --device cuda --repeat 3 300000 1000000 | tee -a "$out/sdh.jsonl"
"$sdh" --device cuda --pbc yes --repeat 3 1000000 | tee -a "$out/sdh.jsonl"
"$sdh" --device cuda 2000000 4000000 | tee -a "$out/sdh.jsonl"

work="$out/argon"
mkdir -p "$work"
cd "$work"
"$build/molstep" md "$here/in.argon.xtc" --var out argon.xtc --log md.log --quiet
for dev in cpu cuda; do
  "$build/molstep" analyze argon.xtc --device "$dev" -q rdf:rmax=8.5,bins=200 --out "rdf_$dev" | tee -a times.txt
done
cmp <(grep -v '^#' rdf_cpu/rdf.csv) <(grep -v '^#' rdf_cuda/rdf.csv) && echo "rdf: CPU and GPU identical" | tee -a times.txt
ten=(-q mass -q charge -q com -q rg -q inertia -q dipole -q density:axis=z -q rdf:rmax=8.5,bins=200 -q msd
     -q rdf:rmax=4.25,bins=200,label=rdf_short)
for dev in cpu cuda; do
  start=$(date +%s%N)
  "$build/molstep" analyze argon.xtc --device "$dev" "${ten[@]}" --out "one_$dev" > /dev/null
  one=$(( ($(date +%s%N) - start) / 1000000 ))
  start=$(date +%s%N)
  for ((k = 0; k < ${#ten[@]}; k += 2)); do
    "$build/molstep" analyze argon.xtc --device "$dev" "${ten[k]}" "${ten[k + 1]}" --out "many_$dev" > /dev/null
  done
  many=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "ten queries on $dev: one pass $one ms, ten passes $many ms" | tee -a times.txt
done
