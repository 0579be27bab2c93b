# Binary LJ mixture from data.mix (written by gen.mix)

units		lj
atom_style	atomic
boundary	p p p

read_data	data.mix

pair_style	lj/cut 2.5
pair_coeff	1 1 1.0 1.0
pair_coeff	2 2 0.5 1.2
pair_modify	shift yes mix geometric

neighbor	0.3 bin
neigh_modify	every 1 delay 0 check yes

fix		1 all nve
timestep	0.005

thermo_style	custom step temp pe ke etotal press vol
thermo_modify	format float %.15g
thermo		10

run		50
