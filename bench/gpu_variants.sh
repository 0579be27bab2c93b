#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU kernel variants of issue 4 against the default, on a GPU machine (run by hand with the
# device tool; figures go to bench/RESULTS.md):
#   bench/gpu_variants.sh BUILD_DIR OUT_DIR [REPEAT]
# Runs bench/in.lj.gpu and bench/in.eam.gpu at 256,000 (n 40) and 2,048,000 (n 80) atoms once per
# variant (REPEAT times each, default 1), with the steps of bench/RESULTS.md's GPU section, and
# LJ at 1,000,188 atoms (n 63, not a multiple of 32, where padding the list stride changes the
# layout; the other sizes are multiples of 128) for the padding variants. Each run's output is
# kept in OUT_DIR; the table (atom-steps/s and the ratio to the default of the same problem and
# repeat) is printed and written to OUT_DIR/summary.txt.
#
# Variants (docs/md.md, "Environment variables"): MOLSTEP_CUDA_LIST=half, MOLSTEP_CUDA_TPA=2|4|8,
# MOLSTEP_CUDA_SORT=0, MOLSTEP_CUDA_PAD=32|128, MOLSTEP_CUDA_BINS=full, MOLSTEP_CUDA_TABLES=global|both
# (EAM only), MOLSTEP_CUDA_ORDER=index|distance (by default EAM's lists with one thread per atom are
# by distance, the others by index). Each run is given at most 300 s.
set -uo pipefail
source "$(dirname "$0")/gpu_args.sh"
gpu_args "BUILD_DIR OUT_DIR [REPEAT]" "$@"
repeat="${3:-1}"

# name|environment (space-separated NAME=VALUE)
variants=(
  "default|"
  "half|MOLSTEP_CUDA_LIST=half"
  "tpa2|MOLSTEP_CUDA_TPA=2"
  "tpa4|MOLSTEP_CUDA_TPA=4"
  "tpa8|MOLSTEP_CUDA_TPA=8"
  "half+tpa4|MOLSTEP_CUDA_LIST=half MOLSTEP_CUDA_TPA=4"
  "nosort|MOLSTEP_CUDA_SORT=0"
  "pad32|MOLSTEP_CUDA_PAD=32"
  "pad128|MOLSTEP_CUDA_PAD=128"
  "fullbins|MOLSTEP_CUDA_BINS=full"
  "tables-global|MOLSTEP_CUDA_TABLES=global"
  "tables-both|MOLSTEP_CUDA_TABLES=both"
  "order-index|MOLSTEP_CUDA_ORDER=index"
  "order-distance|MOLSTEP_CUDA_ORDER=distance"
)
# deck|n|steps|which variants ("all" or a space-separated list)
problems=(
  "lj|40|2000|all"
  "lj|80|500|all"
  "eam|40|1000|all"
  "eam|80|300|all"
  "lj|63|500|default pad32 pad128"
)

summary="$out/summary.txt"
printf "%-4s %10s %-10s %6s %14s %9s  %s\n" problem atoms variant repeat atom-steps/s vs-default "GPU memory" |
  tee "$summary"
cd "$here"
for ((r = 1; r <= repeat; ++r)); do
  for p in "${problems[@]}"; do
    IFS='|' read -r deck n steps which <<< "$p"
    atoms=$((4 * n * n * n))
    base=""
    for v in "${variants[@]}"; do
      IFS='|' read -r name envs <<< "$v"
      if [[ "$which" != all && " $which " != *" $name "* ]]; then continue; fi
      log="$out/${deck}-n${n}-${name}-r${r}.log"
      # shellcheck disable=SC2086
      env -u MOLSTEP_CUDA_LIST -u MOLSTEP_CUDA_TPA -u MOLSTEP_CUDA_SORT -u MOLSTEP_CUDA_PAD -u MOLSTEP_CUDA_BINS \
        -u MOLSTEP_CUDA_TABLES -u MOLSTEP_CUDA_ORDER $envs \
        timeout 300 "$molstep" md "in.${deck}.gpu" --log none --device cuda -var n "$n" -var steps "$steps" \
        > "$log" 2>&1
      status=$?
      rate="$(grep -o 'Performance: [0-9.e+-]*' "$log" | tail -1 | awk '{print $2}')"
      mem="$(grep -o 'GPU memory: [0-9.]* GiB' "$log" | tail -1 | awk '{print $3 " " $4}')"
      if [[ $status -ne 0 || -z "$rate" ]]; then
        rate="FAILED($status)"
        ratio="-"
      elif [[ "$name" == default ]]; then
        base="$rate"
        ratio="1.000"
      elif [[ -n "$base" ]]; then
        ratio="$(awk -v a="$rate" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
      else
        ratio="-"
      fi
      printf "%-4s %10d %-10s %6d %14s %9s  %s\n" "$deck" "$atoms" "$name" "$r" "$rate" "$ratio" "${mem:--}" |
        tee -a "$summary"
    done
  done
done
