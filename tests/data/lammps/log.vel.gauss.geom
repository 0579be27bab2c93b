LAMMPS (29 Sep 2021 - Update 2)
OMP_NUM_THREADS environment is not set. Defaulting to 1 thread. (src/comm.cpp:98)
  using 1 OpenMP thread(s) per MPI task
# Velocity oracle 'gauss.geom': gaussian dist, loop geom
# No run; write_data lets molstep compare velocities bit-for-bit.

units		lj
atom_style	atomic
boundary	p p p

lattice		fcc 0.8442
Lattice spacing in x,y,z = 1.6795962 1.6795962 1.6795962
region		box block 0 4 0 4 0 4
create_box	1 box
Created orthogonal box = (0.0000000 0.0000000 0.0000000) to (6.7183848 6.7183848 6.7183848)
  1 by 1 by 1 MPI processor grid
create_atoms	1 box
Created 256 atoms
  using lattice units in orthogonal box = (0.0000000 0.0000000 0.0000000) to (6.7183848 6.7183848 6.7183848)
  create_atoms CPU = 0.001 seconds
mass		1 1.0

velocity	all create 1.44 87287 dist gaussian loop geom

write_data	vel.gauss.geom.data
System init for write_data ...
WARNING: Communication cutoff is 0.0. No ghost atoms will be generated. Atoms may get lost. (src/comm_brick.cpp:209)
Total wall time: 0:00:00
