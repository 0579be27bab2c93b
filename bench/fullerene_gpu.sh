#!/usr/bin/env bash
# End-to-end GPU isomer-space throughput (issue 7): `molstep fullerene isomerspace --device cuda`
# on the first K isomers of each size (--limit, no counting pass), in double and single
# precision, with the optimiser's default line search or LINE_SEARCH (wolfe or golden).
# With SKIP=K, the isomers K to K+LIMIT-1 instead (--skip; the rate after the walk past the first K
# is printed too). PRECISIONS="double single" picks the precisions.
# Usage: bench/fullerene_gpu.sh BUILD_DIR [OUT_DIR]   (SIZES="60 100 140 200" LIMIT=20000 SKIP= LINE_SEARCH=)
set -euo pipefail
build=${1:?usage: bench/fullerene_gpu.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d)}
molstep="$build/molstep"
sizes=${SIZES:-"60 100 140 200"}
limit=${LIMIT:-20000}
search=()
[ -n "${LINE_SEARCH:-}" ] && search=(--line-search "$LINE_SEARCH")
[ -n "${SKIP:-}" ] && search+=(--skip "$SKIP")
mkdir -p "$out"
for n in $sizes; do
  for precision in ${PRECISIONS:-double single}; do
    flag=""
    [ "$precision" = single ] && flag="--single"
    dir="$out/C$n-$precision"
    "$molstep" fullerene isomerspace "$n" --limit "$limit" --device cuda $flag "${search[@]}" --out "$dir" 2>/dev/null
    python3 - "$dir/summary.json" "$n" "$precision" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
g = s["gpu"]
st = g["stage_seconds"]
print(f"C{sys.argv[2]} {sys.argv[3]} ({s['line_search']}): {s['isomers']} isomers, {s['isomers_per_second']:.4g}/s end to end, "
      f"status {s['status']}, mean CG iterations {s['metrics']['iterations']['mean']:.0f}, "
      f"slots {g['slots']} (resident {g['resident_blocks']}), occupancy {g['occupancy']:.3f}, rounds {g['rounds']}, "
      f"GPU s: " + ", ".join(f"{k} {v:.3g}" for k, v in st.items()) +
      f"; generate {s['seconds']['generate']:.3g} s, wall {s['seconds']['wall']:.3g} s, GPU wall {g['pipeline_wall']:.3g} s, cpu retries {g['cpu_retries']}" +
      (f"; skipped {s['skip']} in {s['seconds']['skip']:.3g} s, then {s['isomers_per_second_after_skip']:.4g}/s" if s['skip'] else ""))
PY
  done
done
