# Lattice oracle: fcc lattice, metal units, a = 3.615 Angstrom, 3x3x3 cells.
# No run; write_data lets molstep check atom ids and positions exactly.

units		metal
atom_style	atomic
boundary	p p p

lattice		fcc 3.615
region		box block 0 3 0 3 0 3
create_box	1 box
create_atoms	1 box
mass		1 1.0

write_data	lattice.fcc.data
