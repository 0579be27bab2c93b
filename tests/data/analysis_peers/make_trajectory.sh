#!/bin/sh
# Makes the peer-comparison trajectory in this folder with GROMACS 2022 (Debian's mixed-precision
# gmx): one united-atom decane in 570 SPC/E waters (1720 atoms), 2.6 nm cubic box, NVT at 300 K.
# Not run by CI: the outputs are committed. Takes about a minute on 2 cores.
#   sh tests/data/analysis_peers/make_trajectory.sh
# Writes:
#   system.gro    frame 0 of md.xtc (names and residues: the topology molstep and
#                 MDAnalysis read)
#   system.top    the self-contained force field and topology (no #include)
#   md.tpr        the production run input (masses and bonds for gmx gyrate / gmx traj)
#   md.xtc        51 frames, every 0.2 ps (t = 0..10 ps), precision 1000 (0.001 nm)
#   md.trr        11 frames, every 1 ps, positions only, single precision
#   ow_nojump.trr the OW atoms of md.xtc, unwrapped by `gmx trjconv -pbc nojump`, written as
#                 TRR (full float precision: an XTC would round each unwrapped coordinate
#                 again to 0.001 nm); MDAnalysis 2.4 has no NoJump transformation
#   ow.gro        the OW atoms of system.gro (topology for ow_nojump.trr)
#   index.ndx     groups used by the gmx peers
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cd "$work"
export GMX_MAXBACKUP=-1
export OMP_NUM_THREADS=2

# Masses are the IUPAC atomic weights that molstep and MDAnalysis guess from the atom names
# (O 15.999, H 1.008, C 12.011), so that every program uses the same masses; the united-atom
# CH2/CH3 beads therefore get the carbon mass. LJ: SPC/E water; OPLS-UA CH2/CH3 (Jorgensen
# 1984), Ryckaert-Bellemans torsions; bonds constrained; geometric combination of sigma/epsilon.
cat >system.top <<'TOP'
[ defaults ]
; nbfunc  comb-rule  gen-pairs  fudgeLJ  fudgeQQ
  1       2          no         1.0      1.0

[ atomtypes ]
; name  at.num  mass     charge  ptype  sigma     epsilon
  OW    8       15.999   0.0     A      0.316557  0.650194
  HW    1       1.008    0.0     A      0.0       0.0
  CH2   6       12.011   0.0     A      0.3905    0.49371
  CH3   6       12.011   0.0     A      0.3905    0.73220

[ moleculetype ]
; name  nrexcl
  DEC   3

[ atoms ]
;  nr  type  resnr  res  atom  cgnr  charge  mass
    1  CH3   1      DEC  C1    1     0.0     12.011
    2  CH2   1      DEC  C2    2     0.0     12.011
    3  CH2   1      DEC  C3    3     0.0     12.011
    4  CH2   1      DEC  C4    4     0.0     12.011
    5  CH2   1      DEC  C5    5     0.0     12.011
    6  CH2   1      DEC  C6    6     0.0     12.011
    7  CH2   1      DEC  C7    7     0.0     12.011
    8  CH2   1      DEC  C8    8     0.0     12.011
    9  CH2   1      DEC  C9    9     0.0     12.011
   10  CH3   1      DEC  C10   10    0.0     12.011

[ constraints ]
;  i   j  type  b0
   1   2  1     0.153
   2   3  1     0.153
   3   4  1     0.153
   4   5  1     0.153
   5   6  1     0.153
   6   7  1     0.153
   7   8  1     0.153
   8   9  1     0.153
   9  10  1     0.153

[ angles ]
;  i   j   k  type  theta0  k
   1   2   3  1     111.0   460.24
   2   3   4  1     111.0   460.24
   3   4   5  1     111.0   460.24
   4   5   6  1     111.0   460.24
   5   6   7  1     111.0   460.24
   6   7   8  1     111.0   460.24
   7   8   9  1     111.0   460.24
   8   9  10  1     111.0   460.24

[ dihedrals ]
;  i   j   k   l  type  C0      C1      C2       C3       C4      C5
   1   2   3   4  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   2   3   4   5  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   3   4   5   6  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   4   5   6   7  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   5   6   7   8  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   6   7   8   9  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495
   7   8   9  10  3     9.2789  12.156  -13.120  -3.0597  26.240  -31.495

[ moleculetype ]
; name  nrexcl
  SOL   2

[ atoms ]
;  nr  type  resnr  res  atom  cgnr  charge   mass
    1  OW    1      SOL  OW    1     -0.8476  15.999
    2  HW    1      SOL  HW1   1      0.4238  1.008
    3  HW    1      SOL  HW2   1      0.4238  1.008

[ settles ]
; OW  funct  doh  dhh
  1   1      0.1  0.16330

[ exclusions ]
1 2 3
2 1 3
3 1 2

[ system ]
decane in SPC/E water

[ molecules ]
DEC 1
TOP

# All-trans decane along x: C-C 0.153 nm, C-C-C 111 degrees.
awk 'BEGIN {
  print "decane"; print "10";
  for (k = 0; k < 10; ++k)
    printf "%5d%-5s%5s%5d%8.3f%8.3f%8.3f\n", 1, "DEC", "C" (k + 1), k + 1, k * 0.12609, (k % 2) * 0.08666, 0.0;
  print "   1.00000   1.00000   1.00000" }' >decane.gro
gmx -quiet editconf -f decane.gro -o boxed.gro -box 2.6 -c
gmx -quiet solvate -cp boxed.gro -cs spc216.gro -p system.top -o solvated.gro

common='cutoff-scheme = Verlet
coulombtype = PME
rcoulomb = 0.9
rvdw = 0.9
DispCorr = EnerPres
constraints = none
constraint-algorithm = lincs'

cat >em.mdp <<MDP
$common
integrator = steep
nsteps = 500
emtol = 100
MDP
gmx -quiet grompp -f em.mdp -c solvated.gro -p system.top -o em.tpr
gmx -quiet mdrun -s em.tpr -deffnm em -nt 2

# NVT throughout: the box is constant, so unwrapping (nojump) is unambiguous and the RDF
# normalisations by <V> (MDAnalysis) and <1/V> (gmx rdf) coincide. The centre-of-mass motion
# of the decane and of the water is removed separately, so the decane stays in the middle of
# the box and is never split by the periodic boundaries (gmx gyrate makes molecules whole,
# molstep and MDAnalysis use the positions as stored).
md='integrator = md
dt = 0.002
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
comm-mode = linear
comm-grps = DEC SOL
nstcomm = 10
nstcalcenergy = 100
nstenergy = 100
nstlog = 1000'

cat >eq.mdp <<MDP
$common
$md
nsteps = 10000
gen-vel = yes
gen-temp = 300
gen-seed = 20240601
ld-seed = 20240601
MDP
gmx -quiet grompp -f eq.mdp -c em.gro -p system.top -o eq.tpr
gmx -quiet mdrun -s eq.tpr -deffnm eq -nt 2

cat >md.mdp <<MDP
$common
$md
nsteps = 5000
continuation = yes
gen-vel = no
ld-seed = 20240602
nstxout-compressed = 100
compressed-x-precision = 1000
nstxout = 500
nstvout = 0
nstfout = 0
MDP
gmx -quiet grompp -f md.mdp -c eq.gro -p system.top -o md.tpr
gmx -quiet mdrun -s md.tpr -deffnm md -nt 2

# Index groups for the gmx peers (gmx select writes one group per selection).
gmx -quiet select -s md.tpr -on index.ndx \
  -select '"OW" name OW' '"HW" name HW1 HW2' '"DEC" resname DEC' '"SOL" resname SOL' '"System" all'

# The OW atoms unwrapped across the periodic boundaries, as a float TRR; the first frame of
# md.xtc is the reference (nojump keeps every later position within half a box of the one before).
echo OW | gmx -quiet trjconv -f md.xtc -s md.tpr -n index.ndx -pbc nojump -o ow_nojump.trr
echo OW | gmx -quiet trjconv -f md.xtc -s md.tpr -n index.ndx -dump 0 -o ow.gro
echo System | gmx -quiet trjconv -f md.xtc -s md.tpr -n index.ndx -dump 0 -o system.gro

cp system.top md.tpr md.xtc md.trr ow_nojump.trr ow.gro system.gro index.ndx "$out/"
cd /
rm -rf "$work"
