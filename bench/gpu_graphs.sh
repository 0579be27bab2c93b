#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU step with the neighbour-list rebuild decided on the device and the steps replayed from
# CUDA graphs (docs/md.md, "The GPU step"), on a GPU machine (run by hand with the device tool;
# figures go to bench/RESULTS.md):
#   bench/gpu_graphs.sh BUILD_DIR OUT_DIR [OLD_MOLSTEP]
# 1. Same bits: eight small decks (LJ with the list checked every step, rebuilt every 20 steps,
#    with fix langevin and a delay, with fix nvt; EAM checked every step; LAMMPS's LJ in metal
#    units as GPUMD runs it; and two kernel variants) run with graphs, with MOLSTEP_CUDA_GRAPH=0
#    and, given OLD_MOLSTEP (a molstep built before the change), with that binary. Their thermo
#    rows (JSON lines) and final data files (write_data) must be byte for byte the same, and so
#    must the "Neighbour list builds" counts.
# 2. Speed: bench/in.lj.gpu, bench/in.eam.gpu and bench/gpumd's LJ argon deck (list checked every
#    step, as GPUMD does) at 32,000 to 16,384,000 atoms, and the fix langevin and fix nvt decks
#    of part 1 (6,912 atoms), each with graphs, with
#    MOLSTEP_CUDA_GRAPH=0 and with OLD_MOLSTEP, one after the other; the small problems twice.
# Each run's log is kept in OUT_DIR; the lines printed are also written to OUT_DIR/summary.txt.
set -uo pipefail
source "$(dirname "$0")/gpu_args.sh"
gpu_args "BUILD_DIR OUT_DIR [OLD_MOLSTEP]" "$@"
old="${3:-}"
new="$molstep"
[[ -z "$old" || -x "$old" ]] || { echo "no molstep executable at $old" >&2; exit 2; }
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

# The GPUMD-style LJ argon decks (in.molstep in OUT_DIR/gpumd/lj_nN).
python3 "$here/gpumd/make_inputs.py" --work "$out/gpumd" --problems lj --lj-sizes 20,80,160 > /dev/null || exit 1

# who -> "binary MOLSTEP_CUDA_GRAPH"
declare -A runner=([graphs]="$new 1" [plain]="$new 0")
whos=(graphs plain)
if [[ -n "$old" ]]; then
  runner[old]="$old 1"
  whos=(old graphs plain)
fi

# run WHO DIR DECK [ENV...] [-- ARGS...]: molstep md DECK in DIR, log in DIR/log.txt.
run() {
  local who="$1" dir="$2" deck="$3"
  shift 3
  local envs=() args=()
  while [[ $# -gt 0 && "$1" != -- ]]; do envs+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  args=("$@")
  read -r bin graph <<< "${runner[$who]}"
  (cd "$dir" && env "${envs[@]}" MOLSTEP_CUDA_GRAPH="$graph" timeout 300 "$bin" md "$deck" --device cuda \
    --log log.txt --thermo thermo.jsonl --quiet "${args[@]}" > /dev/null 2> err.txt)
}

# ---- 1. same bits -----------------------------------------------------------------------------
lj_head() {  # n, neigh_modify
  printf 'variable n index %s\nunits lj\nlattice fcc 0.8442\nregion box block 0 ${n} 0 ${n} 0 ${n}\n' "$1"
  printf 'create_box 1 box\ncreate_atoms 1 box\nmass 1 1.0\nvelocity all create 1.44 87287 loop geom\n'
  printf 'pair_style lj/cut 2.5\npair_coeff 1 1 1.0 1.0 2.5\nneighbor 0.3 bin\nneigh_modify %s\n' "$2"
}
deck_text() {
  case "$1" in
    lj_check) lj_head 20 "delay 0 every 1 check yes"; printf 'fix 1 all nve\nthermo 100\nrun 1000\n' ;;
    lj_every20) lj_head 20 "delay 0 every 20 check no"; printf 'fix 1 all nve\nthermo 100\nrun 1000\n' ;;
    lj_langevin)
      lj_head 12 "delay 4 every 2 check yes"
      printf 'fix 1 all nve\nfix 2 all langevin 1.44 1.0 0.5 777\nthermo 50\nrun 300\nrun 200\n' ;;
    lj_nvt) lj_head 12 "delay 0 every 1 check yes"; printf 'fix 1 all nvt temp 1.44 1.2 0.5\nthermo 50\nrun 500\n' ;;
    eam_check)
      printf 'variable n index 20\nunits metal\nlattice fcc 3.615\nregion box block 0 ${n} 0 ${n} 0 ${n}\n'
      printf 'create_box 1 box\ncreate_atoms 1 box\npair_style eam\npair_coeff 1 1 %s\n' "$here/../potentials/Cu_u3.eam"
      printf 'velocity all create 600.0 376847 loop geom\nneighbor 1.0 bin\nneigh_modify delay 0 every 1 check yes\n'
      printf 'timestep 0.001\nfix 1 all nve\nthermo 100\nrun 1000\n' ;;
    argon_check)
      sed -e 's/^thermo .*/thermo 500/' -e 's/^run .*/run 2000/' "$out/gpumd/lj_n20/in.molstep" ;;
  esac
  printf 'write_data final.data\n'
}
# deck|environment
same=("lj_check|" "lj_every20|" "lj_langevin|" "lj_nvt|" "eam_check|" "argon_check|"
      "lj_check|MOLSTEP_CUDA_SORT=0" "eam_check|MOLSTEP_CUDA_TPA=4")
say "# same bits: builds per run for each binary; thermo rows and final data against the first"
for s in "${same[@]}"; do
  IFS='|' read -r deck envs <<< "$s"
  tag="$deck${envs:+-${envs//[^A-Z0-9]/}}"
  line="$deck${envs:+ ($envs)}:"
  for who in "${whos[@]}"; do
    dir="$out/same/$tag-$who"
    mkdir -p "$dir"
    deck_text "$deck" > "$dir/in.deck"
    # shellcheck disable=SC2086
    run "$who" "$dir" in.deck $envs
    builds="$(grep -o 'Neighbour list builds: [0-9]*' "$dir/log.txt" 2> /dev/null | awk '{print $4}' | paste -sd+)"
    line="$line $who(builds ${builds:-FAILED})"
  done
  first="$out/same/$tag-${whos[0]}"
  for who in "${whos[@]:1}"; do
    t=same; cmp -s "$first/thermo.jsonl" "$out/same/$tag-$who/thermo.jsonl" || t=DIFFERENT
    d=same; cmp -s "$first/final.data" "$out/same/$tag-$who/final.data" || d=DIFFERENT
    line="$line | ${whos[0]}-vs-$who thermo $t, data $d"
  done
  say "$line"
done

# ---- 2. speed ---------------------------------------------------------------------------------
say "# speed: atom-steps/s, list builds, GPU steps, stage shares (% of the loop)"
# label|dir|deck|args
problems=(
  "lj 32000|$here|in.lj.gpu|-var n 20 -var steps 2000"
  "argon 32000|$out/gpumd/lj_n20|in.molstep|"
  "lj 256000|$here|in.lj.gpu|-var n 40 -var steps 2000"
  "eam 32000|$here|in.eam.gpu|-var n 20 -var steps 1000"
  "langevin 6912|$out/same/lj_langevin-graphs|in.deck|"
  "nvt 6912|$out/same/lj_nvt-graphs|in.deck|"
)
large=(
  "lj 2048000|$here|in.lj.gpu|-var n 80 -var steps 500"
  "eam 2048000|$here|in.eam.gpu|-var n 80 -var steps 300"
  "argon 2048000|$out/gpumd/lj_n80|in.molstep|"
  "argon 16384000|$out/gpumd/lj_n160|in.molstep|"
)
speed() {  # label dir deck args repeat
  local label="$1" dir="$2" deck="$3" args="$4" r="$5"
  for who in "${whos[@]}"; do
    local logdir="$out/speed/${label// /-}-$who-r$r"
    mkdir -p "$logdir"
    # shellcheck disable=SC2086
    (cd "$dir" && MOLSTEP_CUDA_GRAPH="${runner[$who]#* }" timeout 300 ${runner[$who]% *} md "$deck" --device cuda \
      --log "$logdir/log.txt" --quiet $args > /dev/null 2> "$logdir/err.txt")
    local log="$logdir/log.txt"
    say "$label r$r $who | $(grep -o 'Performance: [0-9.e+-]*' "$log" | tail -1 | awk '{print $2}') |" \
      "builds $(grep -o 'Neighbour list builds: [0-9]*' "$log" | tail -1 | awk '{print $4}') |" \
      "$(grep -o 'GPU steps: [0-9a-z ]*' "$log" | tail -1 | cut -c12-40) |" \
      "$(grep -A4 '^Stage' "$log" | tail -4 | awk '{printf "%s %s ", $1, $3}')"
  done
}
for r in 1 2; do
  for p in "${problems[@]}"; do
    IFS='|' read -r label dir deck args <<< "$p"
    speed "$label" "$dir" "$deck" "$args" "$r"
  done
done
for p in "${large[@]}"; do
  IFS='|' read -r label dir deck args <<< "$p"
  speed "$label" "$dir" "$deck" "$args" 1
done
