# Velocity oracle 'geom': uniform dist, loop geom
# No run; write_data lets molstep compare velocities bit-for-bit.

units		lj
atom_style	atomic
boundary	p p p

lattice		fcc 0.8442
region		box block 0 4 0 4 0 4
create_box	1 box
create_atoms	1 box
mass		1 1.0

velocity	all create 1.44 87287 loop geom

write_data	vel.geom.data
