# Metal-units LJ argon-like run: fcc 5.26 A, 6x6x6 cells (864 atoms),
# eps 0.0104 eV, sigma 3.4 A, rc 8.5 A, dt 0.002 ps, 100 steps, extensive thermo.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 5.26
region		box block 0 6 0 6 0 6
create_box	1 box
create_atoms	1 box
mass		1 39.948

velocity	all create 100.0 12345 loop geom

pair_style	lj/cut 8.5
pair_coeff	1 1 0.0104 3.4

neighbor	2.0 bin
neigh_modify	every 1 delay 0 check yes

fix		1 all nve
timestep	0.002

thermo_style	custom step temp pe ke etotal press vol
thermo_modify	norm no
thermo_modify	format float %.15g
thermo		10

run		100
