#!/bin/sh
# Makes the GROMACS reference trajectories in this folder (xtc_water.xtc, xtc_tiny.xtc,
# trr_water.trr, trr_water_double.trr) with GROMACS 2022 (Debian's gmx and gmx_d). Not run
# by CI: the outputs are committed. Run from anywhere; it works in a temporary folder.
#   sh tests/data/traj/make_gromacs.sh
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cd "$work"
export GMX_MAXBACKUP=-1

# 126 SPC waters (378 atoms) in a rhombic dodecahedron (xy-square, d = 1.8 nm): a
# triclinic box, so the box matrix has off-diagonal terms.
printf 'empty box\n    0\n   1.80000   1.80000   1.27279   0.00000   0.00000   0.00000   0.00000   0.90000   0.90000\n' >box.gro
gmx -quiet solvate -cs spc216.gro -cp box.gro -o conf.gro
nwat=$(( ($(wc -l <conf.gro) - 3) / 3 ))
cat >topol.top <<TOP
#include "oplsaa.ff/forcefield.itp"
#include "oplsaa.ff/spc.itp"
[ system ]
SPC water
[ molecules ]
SOL $nwat
TOP

common='integrator = md
dt = 0.002
cutoff-scheme = Verlet
coulombtype = reaction-field
rcoulomb = 0.7
rvdw = 0.7
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
gen-vel = yes
gen-temp = 300
gen-seed = 1234
ld-seed = 1234
constraints = h-bonds
nstcalcenergy = 10
nstenergy = 10'

# run_md GMX NAME: grompp and mdrun of NAME.mdp on conf.gro with GMX (gmx or gmx_d), on one
# thread with -reprod, so that running the script again reproduces the outputs.
run_md() {
  "$1" -quiet grompp -f "$2.mdp" -c conf.gro -p topol.top -o "$2.tpr" -maxwarn 1
  "$1" -quiet mdrun -s "$2.tpr" -deffnm "$2" -nt 1 -reprod
}

# Mixed precision: xtc every 5 steps (11 frames), trr with x, v and f every 25 steps (3 frames).
cat >md.mdp <<MDP
$common
nsteps = 50
nstxout-compressed = 5
compressed-x-precision = 1000
nstxout = 25
nstvout = 25
nstfout = 25
MDP
run_md gmx md

# Double precision with different strides: x every 20 steps, v every 10, no f, so the middle
# frame has velocities only.
cat >mdd.mdp <<MDP
$common
nsteps = 20
nstxout = 20
nstvout = 10
nstfout = 0
MDP
run_md gmx_d mdd

cp md.xtc "$out/xtc_water.xtc"
cp md.trr "$out/trr_water.trr"
cp mdd.trr "$out/trr_water_double.trr"
# A tiny system (4 atoms, 2 frames) takes the uncompressed path (natoms <= 9).
printf 'four atoms\n    4\n    1SOL     OW    1   0.126   1.624   1.023\n    1SOL    HW1    2   0.190   1.661   0.952\n    1SOL    HW2    3   0.177   1.568   1.090\n    2SOL     OW    4   1.275   0.280   1.134\n   1.86206   1.86206   1.86206\n' >tiny.gro
gmx -quiet trjconv -f tiny.gro -o tiny1.xtc
printf 'four atoms\n    4\n    1SOL     OW    1  -0.126   1.624   1.023\n    1SOL    HW1    2   0.190   1.661   0.952\n    1SOL    HW2    3   0.177   1.568   1.090\n    2SOL     OW    4   1.275   0.280  12.134\n   1.86206   1.86206   1.86206\n' >tiny2.gro
gmx -quiet trjconv -f tiny2.gro -o tiny2.xtc -t0 2.5
cat tiny1.xtc tiny2.xtc >"$out/xtc_tiny.xtc"
cd /
rm -rf "$work"
