#!/bin/sh
# Makes the LAMMPS reference files of the molstep DCD / dump / XYZ / data-file readers:
#   dump_ortho_*.lammpstrj, dcd_lammps_ortho.dcd, xyz_lammps.xyz, data_charge.data  (deck A)
#   dump_tri_*.lammpstrj, dcd_lammps_tri.dcd, data_full_tri.data                    (deck B)
# Run from anywhere:  sh tests/data/traj/io_make_lammps.sh
# Needs /usr/bin/lmp (LAMMPS 29 Sep 2021 - Update 2, Debian package). Serial, deterministic
# (velocity seeds fixed). Then run io_make_peers.py to refresh the MDAnalysis/ASE references.
#
# The Debian LAMMPS binary lacks the EXTRA-DUMP package, so it cannot `dump dcd`. The DCD files
# are therefore written by io_lammps_dcd_port.py, a line-by-line Python port of LAMMPS's
# src/EXTRA-DUMP/dump_dcd.cpp (header, title, unit cell cosines from the h matrix, float32
# coordinates sorted by id, optional unwrap), from a full-precision custom dump of the same run
# (dcdsrc_*.lammpstrj, not kept). What `dump dd all dcd 100 FILE` would have written.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# Deck A: orthogonal box that does not start at the origin, 2 types, charges, hot enough that
# atoms cross the boundaries (non-zero image flags); spatial sorting every 5 steps so the
# dumps list atoms out of id order.
cat > in.ortho <<'LMP'
units lj
atom_style charge
atom_modify map array sort 5 0.5
lattice fcc 0.8442
region box block -1.5 1.5 -1 1 -1 1
create_box 2 box
create_atoms 1 box
set type 1 type/fraction 2 0.4 4321
mass 1 1.0
mass 2 2.0
set type 1 charge 0.5
set type 2 charge -0.75
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff * * 1.0 1.0
timestep 0.005
fix 1 all nve
dump dx all custom 100 dump_ortho_x.lammpstrj id type x y z ix iy iz vx vy vz fx fy fz
dump_modify dx format float %.17g
dump du all custom 100 dump_ortho_xu.lammpstrj id type xu yu zu
dump_modify du format float %.17g
dump ds all custom 100 dump_ortho_xs.lammpstrj id type xs ys zs ix iy iz
dump_modify ds format float %.17g time yes units yes
dump dsu all custom 100 dump_ortho_xsu.lammpstrj id type xsu ysu zsu mass q
dump_modify dsu format float %.17g
dump dd all custom 100 dcdsrc_ortho.lammpstrj id x y z ix iy iz
dump_modify dd sort id format float %.17g
dump dy all xyz 100 xyz_lammps.xyz
dump_modify dy format line "%s %.17g %.17g %.17g"
run 400
write_data data_charge.data
LMP
lmp -in in.ortho -log log.ortho -screen none || { tail -3 log.ortho; exit 1; }

# Deck B: triclinic box, atom style full (molecule ids and charges).
cat > in.tri <<'LMP'
units lj
atom_style full
atom_modify map array sort 5 0.5
lattice fcc 0.8442
region box prism 0 3 0 2 0 2 0.6 0.4 0.3
create_box 2 box
create_atoms 1 box
set type 1 type/fraction 2 0.5 999
set group all mol 1
region half block INF INF INF INF INF 1 units lattice
set region half mol 2
mass 1 1.0
mass 2 3.0
set type 1 charge 1.0
set type 2 charge -1.0
velocity all create 3.0 4928459 loop geom
pair_style lj/cut 2.5
pair_coeff * * 1.0 1.0
timestep 0.005
fix 1 all nve
dump dx all custom 100 dump_tri_x.lammpstrj id type x y z ix iy iz vx vy vz
dump_modify dx format float %.17g
dump du all custom 100 dump_tri_xu.lammpstrj id type xu yu zu
dump_modify du format float %.17g
dump ds all custom 100 dump_tri_xs.lammpstrj id type xs ys zs ix iy iz
dump_modify ds format float %.17g time yes units yes
dump dd all custom 100 dcdsrc_tri.lammpstrj id x y z ix iy iz
dump_modify dd sort id format float %.17g
run 400
write_data data_full_tri.data
LMP
lmp -in in.tri -log log.tri -screen none || { tail -3 log.tri; exit 1; }

# `dump_modify dd unwrap yes` for the orthogonal run; dt and the dump interval as in the decks.
/usr/bin/python3 "$here/io_lammps_dcd_port.py" dcdsrc_ortho.lammpstrj dcd_lammps_ortho.dcd 0.005 100 unwrap
/usr/bin/python3 "$here/io_lammps_dcd_port.py" dcdsrc_tri.lammpstrj dcd_lammps_tri.dcd 0.005 100

for f in dump_ortho_x.lammpstrj dump_ortho_xu.lammpstrj dump_ortho_xs.lammpstrj dump_ortho_xsu.lammpstrj \
         dcd_lammps_ortho.dcd xyz_lammps.xyz data_charge.data \
         dump_tri_x.lammpstrj dump_tri_xu.lammpstrj dump_tri_xs.lammpstrj dcd_lammps_tri.dcd data_full_tri.data; do
  cp "$f" "$here/$f"
done
echo "wrote LAMMPS reference files to $here"
