LAMMPS (29 Sep 2021 - Update 2)
OMP_NUM_THREADS environment is not set. Defaulting to 1 thread. (src/comm.cpp:98)
  using 1 OpenMP thread(s) per MPI task
# Metal-units LJ argon-like run: fcc 5.26 A, 6x6x6 cells (864 atoms),
# eps 0.0104 eV, sigma 3.4 A, rc 8.5 A, dt 0.002 ps, 100 steps, extensive thermo.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 5.26
Lattice spacing in x,y,z = 5.2600000 5.2600000 5.2600000
region		box block 0 6 0 6 0 6
create_box	1 box
Created orthogonal box = (0.0000000 0.0000000 0.0000000) to (31.560000 31.560000 31.560000)
  1 by 1 by 1 MPI processor grid
create_atoms	1 box
Created 864 atoms
  using lattice units in orthogonal box = (0.0000000 0.0000000 0.0000000) to (31.560000 31.560000 31.560000)
  create_atoms CPU = 0.001 seconds
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
Neighbor list info ...
  update every 1 steps, delay 0 steps, check yes
  max neighbors/atom: 2000, page size: 100000
  master list distance cutoff = 10.5
  ghost atom cutoff = 10.5
  binsize = 5.25, bins = 7 7 7
  1 neighbor lists, perpetual/occasional/extra = 1 0 0
  (1) pair lj/cut, perpetual
      attributes: half, newton on
      pair build: half/bin/atomonly/newton
      stencil: half/bin/3d
      bin: standard
Per MPI rank memory allocation (min/avg/max) = 3.172 | 3.172 | 3.172 Mbytes
Step Temp PotEng KinEng TotEng Press Volume 
       0 100 -72.7728057895861 11.1551505135 -61.6176552760861 527.530908341129 31434.820416 
      10 96.8890407270988 -72.4257597403881 10.8081183241942 -61.617641416194 611.21792608847 31434.820416 
      20 87.8427612724898 -71.4046951122688 9.79899223516072 -61.6057028771081 854.127588038664 31434.820416 
      30 73.8878673794284 -69.7482541454832 8.24230281739051 -61.5059513280927 1233.00805307505 31434.820416 
      40 57.1451970845924 -67.7773574438433 6.37463274602249 -61.4027246978209 1680.06852403104 31434.820416 
      50 40.9666125458736 -65.8939492772416 4.56988728977457 -61.324061987467 2104.69972874396 31434.820416 
      60 29.131673320718 -64.5245321133389 3.24968200602722 -61.2748501073117 2412.12753372361 31434.820416 
      70 23.9950171025202 -63.9216917700885 2.67668027352619 -61.2450114965623 2546.14362758723 31434.820416 
      80 25.2254163795483 -64.0365490330461 2.81393316479569 -61.2226158682504 2516.27786288561 31434.820416 
      90 30.4517546100517 -64.6099083245615 3.39693906075294 -61.2129692638085 2380.5848717649 31434.820416 
     100 36.8910142147676 -65.3252923516227 4.11524816161401 -61.2100441900087 2210.09484428287 31434.820416 
Loop time of 0.0601978 on 1 procs for 100 steps with 864 atoms

Performance: 287.054 ns/day, 0.084 hours/ns, 1661.190 timesteps/s
99.9% CPU use with 1 MPI tasks x 1 OpenMP threads

MPI task timing breakdown:
Section |  min time  |  avg time  |  max time  |%varavg| %total
---------------------------------------------------------------
Pair    | 0.057188   | 0.057188   | 0.057188   |   0.0 | 95.00
Neigh   | 0          | 0          | 0          |   0.0 |  0.00
Comm    | 0.0012716  | 0.0012716  | 0.0012716  |   0.0 |  2.11
Output  | 0.00035602 | 0.00035602 | 0.00035602 |   0.0 |  0.59
Modify  | 0.00080897 | 0.00080897 | 0.00080897 |   0.0 |  1.34
Other   |            | 0.0005731  |            |       |  0.95

Nlocal:        864.000 ave         864 max         864 min
Histogram: 1 0 0 0 0 0 0 0 0 0
Nghost:        2565.00 ave        2565 max        2565 min
Histogram: 1 0 0 0 0 0 0 0 0 0
Neighs:        57888.0 ave       57888 max       57888 min
Histogram: 1 0 0 0 0 0 0 0 0 0

Total # of neighbors = 57888
Ave neighs/atom = 67.000000
Neighbor list builds = 0
Dangerous builds = 0
Total wall time: 0:00:00
