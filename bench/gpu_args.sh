# SPDX-License-Identifier: MIT
# Sourced by the GPU benchmark scripts (gpu_graphs.sh, gpu_variants.sh): their common arguments.
# gpu_args USAGE "$@": with fewer than two arguments prints "usage: SCRIPT USAGE" and exits 2;
# otherwise sets build (BUILD_DIR, absolute), out (OUT_DIR, created, absolute), here (bench/) and
# molstep (BUILD_DIR/molstep, which must be executable).
gpu_args() {
  local usage="$1"
  shift
  if [[ $# -lt 2 ]]; then
    echo "usage: $0 $usage" >&2
    exit 2
  fi
  build="$(cd "$1" && pwd)" || exit 2
  mkdir -p "$2"
  out="$(cd "$2" && pwd)"
  here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
  molstep="$build/molstep"
  [[ -x "$molstep" ]] || { echo "no molstep executable at $molstep" >&2; exit 2; }
}
