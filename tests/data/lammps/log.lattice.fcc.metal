LAMMPS (29 Sep 2021 - Update 2)
OMP_NUM_THREADS environment is not set. Defaulting to 1 thread. (src/comm.cpp:98)
  using 1 OpenMP thread(s) per MPI task
# Lattice oracle: fcc lattice, metal units, a = 3.615 Angstrom, 3x3x3 cells.
# No run; write_data lets molstep check atom ids and positions exactly.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 3.615
Lattice spacing in x,y,z = 3.6150000 3.6150000 3.6150000
region		box block 0 3 0 3 0 3
create_box	1 box
Created orthogonal box = (0.0000000 0.0000000 0.0000000) to (10.845000 10.845000 10.845000)
  1 by 1 by 1 MPI processor grid
create_atoms	1 box
Created 108 atoms
  using lattice units in orthogonal box = (0.0000000 0.0000000 0.0000000) to (10.845000 10.845000 10.845000)
  create_atoms CPU = 0.000 seconds
mass		1 1.0

write_data	lattice.fcc.data
System init for write_data ...
WARNING: Communication cutoff is 0.0. No ghost atoms will be generated. Atoms may get lost. (src/comm_brick.cpp:209)
Total wall time: 0:00:00
