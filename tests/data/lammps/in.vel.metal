# Velocity oracle 'metal': metal units, Cu-like fcc 3.615, 600 K, loop geom
# No run; write_data lets molstep compare velocities bit-for-bit.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 3.615
region		box block 0 4 0 4 0 4
create_box	1 box
create_atoms	1 box
mass		1 63.546

velocity	all create 600.0 12345 loop geom

write_data	vel.metal.data
