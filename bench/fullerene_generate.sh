#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generation rate (isomers/s) of `molstep fullerene count N` side by side with BuckyGen, on one
# core and on all cores, for C_N with N in SIZES (default 100 110 ... 160; figures go to
# bench/RESULTS.md):
#   BUCKYGEN=/path/to/buckygen bench/fullerene_generate.sh [BUILD_DIR [OUT.jsonl]]
# BuckyGen's size argument is the number of dual vertices (faces), N/2 + 2, and -u makes it count
# without writing; its all-cores figure runs CORES processes at once on the parts res/mod
# 0/CORES .. CORES-1/CORES, the way BuckyGen is run in parallel. molstep's is --threads CORES.
# Every figure is wall time, the best of REPEATS runs; the counts of both programs must agree.
# Environment: SIZES, CORES (default: nproc), REPEATS (default 1), IPR=1 for IPR isomers only;
# ONE_CORE_PART=m with ONE_CORE_FULL=N0: above C_N0 the one-core figures count only the first of
# m parts (molstep --part 1/m, BuckyGen 0/m: each program's own split, so the two parts hold
# different isomers, and each includes the search above its fork), as isomers of the part per
# second.
set -euo pipefail
build="${1:-build}"
out="${2:-/dev/null}"
: "${BUCKYGEN:?set BUCKYGEN to the buckygen executable}"
sizes="${SIZES:-100 110 120 130 140 150 160}"
cores="${CORES:-$(nproc)}"
repeats="${REPEATS:-1}"
molstep_ipr=() buckygen_ipr=()
if [[ -n "${IPR:-}" ]]; then molstep_ipr=(--ipr) buckygen_ipr=(-I); fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }

one_core_part="${ONE_CORE_PART:-1}"
one_core_full="${ONE_CORE_FULL:-100000}"

# molstep_count N THREADS [PARTS]: prints "count seconds" (best of REPEATS).
molstep_count() {
  local best="" count="" part=()
  [[ ${3:-1} -gt 1 ]] && part=(--part "1/$3")
  for ((r = 0; r < repeats; ++r)); do
    local start; start=$(now)
    count=$("$build/molstep" fullerene count "$1" "${molstep_ipr[@]}" "${part[@]}" --threads "$2" | cut -d' ' -f1)
    local ns=$(( $(now) - start ))
    if [[ -z "$best" || $ns -lt $best ]]; then best=$ns; fi
  done
  echo "$count $best"
}

# buckygen_count N PROCESSES [PARTS]: prints "count seconds" (best of REPEATS); with PARTS, one
# process counts part 0/PARTS.
buckygen_count() {
  local faces=$(( $1 / 2 + 2 )) best="" count=0
  for ((r = 0; r < repeats; ++r)); do
    local start; start=$(now)
    local pids=()
    for ((k = 0; k < $2; ++k)); do
      local part=(); [[ $2 -gt 1 ]] && part=("$k/$2")
      [[ ${3:-1} -gt 1 ]] && part=("0/$3")
      "$BUCKYGEN" -u "${buckygen_ipr[@]}" "$faces" "${part[@]}" 2> "$tmp/bg.$k" & pids+=($!)
    done
    wait "${pids[@]}"
    local ns=$(( $(now) - start ))
    if [[ -z "$best" || $ns -lt $best ]]; then best=$ns; fi
    count=$(cat "$tmp"/bg.* | awk '/fullerenes generated/ { s += $1 } END { print s }')
    rm -f "$tmp"/bg.*
  done
  echo "$count $best"
}

rate() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.4g", n / (ns / 1e9) }'; }

printf "%-5s %11s | %12s %12s %6s | %12s %12s %6s   (isomers/s; %d cores)\n" \
  N isomers "molstep 1" "BuckyGen 1" ratio "molstep all" "BuckyGen all" ratio "$cores"
for n in $sizes; do
  parts=1
  [[ $n -gt $one_core_full ]] && parts=$one_core_part
  read -r c1 t1 < <(molstep_count "$n" 1 "$parts")
  read -r b1 u1 < <(buckygen_count "$n" 1 "$parts")
  read -r cn tn < <(molstep_count "$n" "$cores")
  read -r bn un < <(buckygen_count "$n" "$cores")
  if [[ ( $parts -eq 1 && "$c1" != "$b1" ) || "$cn" != "$bn" ]]; then
    echo "C$n: counts differ: molstep $c1 / $cn, BuckyGen $b1 / $bn" >&2
    exit 1
  fi
  m1=$(rate "$c1" "$t1") g1=$(rate "$b1" "$u1") mn=$(rate "$cn" "$tn") gn=$(rate "$cn" "$un")
  label="C$n"; [[ $parts -gt 1 ]] && label="C$n*"
  printf "%-5s %11s | %12s %12s %6.2f | %12s %12s %6.2f\n" "$label" "$cn" "$m1" "$g1" "$(awk -v a="$m1" -v b="$g1" 'BEGIN{print a/b}')" \
    "$mn" "$gn" "$(awk -v a="$mn" -v b="$gn" 'BEGIN{print a/b}')"
  printf '{"atoms":%d,"ipr":%s,"isomers":%d,"cores":%d,"one_core_parts":%d,"molstep_1_isomers":%d,"buckygen_1_isomers":%d,"molstep_1_s":%s,"buckygen_1_s":%s,"molstep_all_s":%s,"buckygen_all_s":%s}\n' \
    "$n" "$([[ -n "${IPR:-}" ]] && echo true || echo false)" "$cn" "$cores" "$parts" "$c1" "$b1" \
    "$(awk -v ns="$t1" 'BEGIN{print ns/1e9}')" "$(awk -v ns="$u1" 'BEGIN{print ns/1e9}')" \
    "$(awk -v ns="$tn" 'BEGIN{print ns/1e9}')" "$(awk -v ns="$un" 'BEGIN{print ns/1e9}')" >> "$out"
done
if [[ $one_core_part -gt 1 ]]; then
  echo "*: one-core figures for part 1 of $one_core_part only (isomers of the part per second)"
fi
