#!/bin/sh
# Regenerate the LAMMPS reference data in this folder.
#   sh regen.sh          run every deck (at most 2 lmp at once), then write JSON
#   sh regen.sh json     only (re)write the NAME.thermo.json files from the logs
# Must be run from this folder (decks use relative paths). gen.mix runs
# first because in.mix* read its data.mix. The LAMMPS binary is $LMP (default: lmp on PATH).
set -e
LMP=${LMP:-lmp}
export LMP
cd "$(dirname "$0")"
RUNS="
in.lj log.lj.100
in.lj.hp log.lj.hp.100
in.lj.1000 log.lj.1000
in.lj.newtonoff log.lj.newtonoff
gen.mix log.gen.mix
in.mix log.mix
in.mix.geom log.mix.geom
in.mix.arith log.mix.arith
in.vel.geom log.vel.geom
in.vel.all log.vel.all
in.vel.local log.vel.local
in.vel.gauss.geom log.vel.gauss.geom
in.vel.gauss.all log.vel.gauss.all
in.vel.momno log.vel.momno
in.vel.rotyes log.vel.rotyes
in.vel.metal log.vel.metal
in.vel.scale log.vel.scale
in.lattice.sc.metal log.lattice.sc.metal
in.lattice.bcc.metal log.lattice.bcc.metal
in.lattice.fcc.metal log.lattice.fcc.metal
in.nve4000 log.nve4000
in.langevin log.langevin
in.nvt log.nvt
in.metal log.metal
"
if [ "$1" != json ]; then
  "$LMP" -in gen.mix -log log.gen.mix -screen none
  echo "$RUNS" | grep -v '^gen.mix ' | grep . |
    xargs -P 2 -L 1 sh -c '"$LMP" -in "$0" -log "$1" -screen none'
fi
echo "$RUNS" | grep . | while read deck log; do
  case "$deck" in gen.*|in.vel.*|in.lattice.*) continue ;; esac  # no run, no thermo
  python3 parse_log.py "$log" --deck "$deck" \
    --command "lmp -in $deck -log $log -screen none" -o "$log.thermo.json"
done
