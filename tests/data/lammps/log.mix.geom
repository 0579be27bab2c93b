LAMMPS (29 Sep 2021 - Update 2)
OMP_NUM_THREADS environment is not set. Defaulting to 1 thread. (src/comm.cpp:98)
  using 1 OpenMP thread(s) per MPI task
# Binary LJ mixture from data.mix (written by gen.mix)

units		lj
atom_style	atomic
boundary	p p p

read_data	data.mix
Reading data file ...
  orthogonal box = (0.0000000 0.0000000 0.0000000) to (13.679808 13.679808 13.679808)
  1 by 1 by 1 MPI processor grid
  reading atoms ...
  2048 atoms
  reading velocities ...
  2048 velocities
  read_data CPU = 0.007 seconds

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
Neighbor list info ...
  update every 1 steps, delay 0 steps, check yes
  max neighbors/atom: 2000, page size: 100000
  master list distance cutoff = 2.8
  ghost atom cutoff = 2.8
  binsize = 1.4, bins = 10 10 10
  1 neighbor lists, perpetual/occasional/extra = 1 0 0
  (1) pair lj/cut, perpetual
      attributes: half, newton on
      pair build: half/bin/atomonly/newton
      stencil: half/bin/3d
      bin: standard
Per MPI rank memory allocation (min/avg/max) = 3.247 | 3.247 | 3.247 Mbytes
Step Temp PotEng KinEng TotEng Press Volume 
       0 1.2 -5.16219910837792 1.79912109375 -3.36307801462792 -1.06531326584255 2560 
      10 0.910844593457763 -4.72882548842793 1.36559976768167 -3.36322572074626 0.799805052501973 2560 
      20 0.542446203897221 -4.17565076808702 0.813272006380087 -3.36237876170693 3.22040653809758 2560 
      30 0.672421652412968 -4.37125185425942 1.008139982292 -3.36311187196741 2.72716145826971 2560 
      40 0.680509997692742 -4.38315541274761 1.02026657613065 -3.36288883661696 2.74160587347512 2560 
      50 0.672892846937206 -4.37171628006041 1.00884642896518 -3.36286985109523 2.80759662516407 2560 
Loop time of 0.0595695 on 1 procs for 50 steps with 2048 atoms

Performance: 362601.515 tau/day, 839.355 timesteps/s
99.8% CPU use with 1 MPI tasks x 1 OpenMP threads

MPI task timing breakdown:
Section |  min time  |  avg time  |  max time  |%varavg| %total
---------------------------------------------------------------
Pair    | 0.042507   | 0.042507   | 0.042507   |   0.0 | 71.36
Neigh   | 0.014548   | 0.014548   | 0.014548   |   0.0 | 24.42
Comm    | 0.0011276  | 0.0011276  | 0.0011276  |   0.0 |  1.89
Output  | 0.00021357 | 0.00021357 | 0.00021357 |   0.0 |  0.36
Modify  | 0.00065931 | 0.00065931 | 0.00065931 |   0.0 |  1.11
Other   |            | 0.0005141  |            |       |  0.86

Nlocal:        2048.00 ave        2048 max        2048 min
Histogram: 1 0 0 0 0 0 0 0 0 0
Nghost:        4015.00 ave        4015 max        4015 min
Histogram: 1 0 0 0 0 0 0 0 0 0
Neighs:        74058.0 ave       74058 max       74058 min
Histogram: 1 0 0 0 0 0 0 0 0 0

Total # of neighbors = 74058
Ave neighs/atom = 36.161133
Neighbor list builds = 5
Dangerous builds = 0
Total wall time: 0:00:00
