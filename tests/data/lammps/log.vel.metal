LAMMPS (29 Sep 2021 - Update 2)
OMP_NUM_THREADS environment is not set. Defaulting to 1 thread. (src/comm.cpp:98)
  using 1 OpenMP thread(s) per MPI task
# Velocity oracle 'metal': metal units, Cu-like fcc 3.615, 600 K, loop geom
# No run; write_data lets molstep compare velocities bit-for-bit.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 3.615
Lattice spacing in x,y,z = 3.6150000 3.6150000 3.6150000
region		box block 0 4 0 4 0 4
create_box	1 box
Created orthogonal box = (0.0000000 0.0000000 0.0000000) to (14.460000 14.460000 14.460000)
  1 by 1 by 1 MPI processor grid
create_atoms	1 box
Created 256 atoms
  using lattice units in orthogonal box = (0.0000000 0.0000000 0.0000000) to (14.460000 14.460000 14.460000)
  create_atoms CPU = 0.000 seconds
mass		1 63.546

velocity	all create 600.0 12345 loop geom

write_data	vel.metal.data
System init for write_data ...
WARNING: Communication cutoff is 0.0. No ghost atoms will be generated. Atoms may get lost. (src/comm_brick.cpp:209)
Total wall time: 0:00:00
