#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the GPU peer benchmark's problems: one folder per problem with GPUMD's inputs and the
matching molstep deck.

    python3 bench/gpumd/make_inputs.py [--work .peers/gpumd/work] [--problems lj,eam_zhou,eam_u3]
                                       [--lj-sizes 20,40,80,160] [--eam-sizes 20,40,80]

Problems (n fcc cells per edge, 4 n^3 atoms):

  lj_nN        LAMMPS's bench/in.lj problem in metal units: argon, eps 0.0104 eV, sigma 3.4 A,
               cutoff 8.5 A (unshifted), fcc a = 5.7106 A, 174 K, dt 10 fs, NVE.
               GPUMD: potential `lj`; molstep: pair_style lj/cut.
  eam_zhou_nN  Cu, fcc 3.615 A, 600 K, dt 1 fs, NVE. GPUMD: analytic Zhou et al. 2004 EAM
               (`eam_zhou_2004`, Cu row of Zhou's Table III, cutoff --eam-cutoff, default 5.0 A).
               molstep has no analytic EAM, so its deck uses potentials/Cu_u3.eam (Foiles 1986,
               funcfl, cutoff 4.95 A): same size and lattice, different parameterisation.
  eam_u3_nN    the same Cu problem with the same potential on both sides: GPUMD's `eam/alloy`
               reads a setfl file converted here from potentials/Cu_u3.eam (F and rho copied,
               r*phi = 27.2*0.529*Z(r)^2, as LAMMPS's pair_style eam builds it); molstep runs the
               same deck as eam_zhou.

Each folder holds: run.in, model.xyz and the potential file for GPUMD (run `gpumd` in the folder),
in.molstep (run `molstep md in.molstep` in the folder; EAM decks name Cu_u3.eam, copied there),
and problem.json. WORK/manifest.json lists the folders in run order. Nothing here builds, fetches
or copies GPUMD; only python3's standard library is used.

model.xyz holds the 4-atom fcc cell and run.in starts with `replicate n n n` (GPUMD's own
supercell command; a 16.4M-atom model.xyz would be about 0.8 GB). --full-xyz writes every atom
instead, in LAMMPS's create_atoms order.
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_WORK = ROOT / ".peers" / "gpumd" / "work"
CU_U3 = ROOT / "potentials" / "Cu_u3.eam"

# fcc basis in units of the lattice constant (LAMMPS's order)
FCC_BASIS = [(0.0, 0.0, 0.0), (0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.5, 0.5, 0.0)]

LJ = dict(element="Ar", mass=39.948, a=5.7106, epsilon=0.0104, sigma=3.4, cutoff=8.5,
          temp=174.0, dt_fs=10.0)
EAM = dict(element="Cu", a=3.615, temp=600.0, dt_fs=1.0)

# Zhou, Johnson, Wadley, PRB 69, 144113 (2004), Table III, Cu, in the order GPUMD's
# eam_zhou_2004 file expects (the cutoff, not part of the model, is appended when writing):
# r_e f_e rho_e rho_s alpha beta A B kappa lambda Fn0 Fn1 Fn2 Fn3 F0 F1 F2 F3 eta Fe
ZHOU_CU = [2.556162, 1.554485, 21.175871, 21.175395, 8.127620, 4.334731, 0.396620, 0.548085,
           0.308782, 0.756515, -2.170269, -0.263788, 1.088878, -0.817603, -2.19, 0.0, 0.561830,
           -2.100595, 0.310490, -2.186568]

DEFAULT_LJ_STEPS = {20: 5000, 40: 2000, 80: 1000, 160: 200}
DEFAULT_EAM_STEPS = {20: 5000, 40: 2000, 80: 1000}
SKIN = 1.0  # GPUMD's neighbour skin is fixed at 1 A (force/neighbor.cuh); molstep decks use the same


def parse_sizes(text):
    return [int(s) for s in text.split(",") if s.strip()]


def parse_steps(text, default):
    steps = dict(default)
    if text:
        for item in text.split(","):
            n, s = item.split(":")
            steps[int(n)] = int(s)
    return steps


def steps_for(n, table):
    if n in table:
        return table[n]
    # sizes not in the table: about 3.2e8 atom-steps, at least 100 steps
    return max(100, int(3.2e8 / (4 * n ** 3)) // 100 * 100)


def write(path, text):
    path.write_text(text)


# ---------------------------------------------------------------- GPUMD files

def model_xyz(path, element, mass, a, n, full):
    """Extended XYZ: the fcc cell (replicated by run.in) or all 4 n^3 atoms in LAMMPS's order."""
    cells = n if full else 1
    L = a * cells
    natoms = 4 * cells ** 3
    with open(path, "w") as f:
        f.write(f"{natoms}\n")
        f.write(f'pbc="T T T" lattice="{L!r} 0 0 0 {L!r} 0 0 0 {L!r}" '
                "properties=species:S:1:pos:R:3:mass:R:1\n")
        # LAMMPS's create_atoms (one process) visits k, then j, then i, then the basis
        for k in range(cells):
            for j in range(cells):
                for i in range(cells):
                    for bx, by, bz in FCC_BASIS:
                        f.write(f"{element} {(i + bx) * a!r} {(j + by) * a!r} {(k + bz) * a!r} {mass!r}\n")


def run_in(path, n, full, potential_file, temp, dt_fs, steps, thermo, seed, what):
    lines = [f"# {what}", f"# {4 * n ** 3} atoms, {steps} steps, written by bench/gpumd/make_inputs.py"]
    if not full:
        lines.append(f"replicate {n} {n} {n}")  # must come before potential
    lines += [
        f"potential {potential_file}",
        f"velocity {temp:g} seed {seed}",
        "ensemble nve",
        f"time_step {dt_fs:g}",
        f"dump_thermo {thermo}",
        f"run {steps}",
    ]
    write(path, "\n".join(lines) + "\n")


def read_funcfl(path):
    lines = path.read_text().splitlines()
    z_num, mass, a0, lat = lines[1].split()[:4]
    h = lines[2].split()
    nrho, drho, nr, dr, cut = int(h[0]), float(h[1]), int(h[2]), float(h[3]), float(h[4])
    vals = [float(x) for line in lines[3:] for x in line.split()]
    if len(vals) < nrho + 2 * nr:
        sys.exit(f"{path}: expected {nrho + 2 * nr} table values, found {len(vals)}")
    F = vals[:nrho]
    Z = vals[nrho:nrho + nr]
    rho = vals[nrho + nr:nrho + 2 * nr]
    return dict(Z_number=int(z_num), mass=float(mass), a0=float(a0), lattice=lat, nrho=nrho,
                drho=drho, nr=nr, dr=dr, cutoff=cut, F=F, Z=Z, rho=rho)


def write_setfl_for_gpumd(funcfl_path, out_path, element):
    """funcfl -> setfl with GPUMD's first line ('eam/alloy 1 Cu'); every table starts on a new line
    (GPUMD's reader drops what is left of a line after a table)."""
    p = read_funcfl(funcfl_path)
    z2r = [27.2 * 0.529 * z * z for z in p["Z"]]  # r*phi, as LAMMPS's pair_style eam (file2array)

    def table(vals):
        return "\n".join(" ".join(repr(v) for v in vals[i:i + 5]) for i in range(0, len(vals), 5))

    text = [
        f"eam/alloy 1 {element}",
        f"converted from {funcfl_path.name} (funcfl) by bench/gpumd/make_inputs.py: F and rho as in the file,",
        "r*phi = 27.2*0.529*Z(r)^2 as LAMMPS's pair_style eam; same grid",
        f"1 {element}",
        f"{p['nrho']} {p['drho']!r} {p['nr']} {p['dr']!r} {p['cutoff']!r}",
        f"{p['Z_number']} {p['mass']!r} {p['a0']!r} {p['lattice'].lower()}",
        table(p["F"]),
        table(p["rho"]),
        table(z2r),
    ]
    write(out_path, "\n".join(text) + "\n")
    return p


# ---------------------------------------------------------------- molstep decks

def molstep_lj(n, steps, thermo, seed, neigh):
    return f"""# LAMMPS bench/in.lj in metal units, {4 * n ** 3} atoms (bench/gpumd/make_inputs.py)
units           metal
atom_style      atomic
lattice         fcc {LJ['a']}
region          box block 0 {n} 0 {n} 0 {n}
create_box      1 box
create_atoms    1 box
mass            1 {LJ['mass']}
velocity        all create {LJ['temp']} {seed} loop geom
pair_style      lj/cut {LJ['cutoff']}
pair_coeff      1 1 {LJ['epsilon']} {LJ['sigma']}
neighbor        {SKIN} bin
neigh_modify    {neigh}
timestep        {LJ['dt_fs'] / 1000.0}
fix             1 all nve
thermo          {thermo}
run             {steps}
"""


def molstep_eam(n, steps, thermo, seed, neigh):
    return f"""# Cu EAM (Foiles 1986, Cu_u3.eam), {4 * n ** 3} atoms (bench/gpumd/make_inputs.py)
units           metal
atom_style      atomic
lattice         fcc {EAM['a']}
region          box block 0 {n} 0 {n} 0 {n}
create_box      1 box
create_atoms    1 box
pair_style      eam
pair_coeff      1 1 Cu_u3.eam
velocity        all create {EAM['temp']} {seed} loop geom
neighbor        {SKIN} bin
neigh_modify    {neigh}
timestep        {EAM['dt_fs'] / 1000.0}
fix             1 all nve
thermo          {thermo}
run             {steps}
"""


NEIGH = {
    # GPUMD's rule: check every step, rebuild when an atom has moved more than skin/2
    "check": "every 1 delay 0 check yes",
    # LAMMPS bench/in.lj's rule: rebuild every 20 steps without checking
    "every20": "every 20 delay 0 check no",
}


# ---------------------------------------------------------------- problems

def make_problem(work, family, n, steps, args):
    name = f"{family}_n{n}"
    d = work / name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    thermo = args.thermo or steps
    atoms = 4 * n ** 3
    neigh = NEIGH[args.molstep_neigh]
    info = dict(name=name, family=family, n=n, atoms=atoms, steps=steps, thermo=thermo,
                gpumd_skin_A=SKIN, molstep_neigh_modify=neigh, full_xyz=args.full_xyz,
                seed=args.seed)
    if family == "lj":
        pot = "Ar_lj.txt"
        # one type: 'lj 1 ELEMENT' then one row 'epsilon sigma cutoff' (per type pair)
        write(d / pot, f"lj 1 {LJ['element']}\n{LJ['epsilon']} {LJ['sigma']} {LJ['cutoff']}\n")
        model_xyz(d / "model.xyz", LJ["element"], LJ["mass"], LJ["a"], n, args.full_xyz)
        run_in(d / "run.in", n, args.full_xyz, pot, LJ["temp"], LJ["dt_fs"], steps, thermo, args.seed,
               "LJ argon (LAMMPS bench/in.lj in metal units): eps 0.0104 eV, sigma 3.4 A, rc 8.5 A, "
               "fcc 5.7106 A, 174 K, dt 10 fs, NVE")
        write(d / "in.molstep", molstep_lj(n, steps, thermo, args.seed, neigh))
        info.update(dt_fs=LJ["dt_fs"], temp_K=LJ["temp"], lattice_A=LJ["a"], gpumd_potential=pot,
                    gpumd_cutoff_A=LJ["cutoff"], molstep_potential="lj/cut 8.5 (eps 0.0104, sigma 3.4)",
                    molstep_cutoff_A=LJ["cutoff"], same_potential=True)
    else:
        mass_u3 = read_funcfl(CU_U3)["mass"]
        if family == "eam_zhou":
            pot = "Cu_Zhou_2004.txt"
            row = " ".join(repr(v) for v in ZHOU_CU + [args.eam_cutoff])
            write(d / pot, f"eam_zhou_2004 1 {EAM['element']}\n{row}\n")
            info.update(gpumd_potential=pot, gpumd_cutoff_A=args.eam_cutoff, same_potential=False,
                        gpumd_model="Zhou et al. PRB 69, 144113 (2004), analytic, Cu")
        else:
            pot = "Cu_u3.eam.alloy"
            p = write_setfl_for_gpumd(CU_U3, d / pot, EAM["element"])
            info.update(gpumd_potential=pot, gpumd_cutoff_A=p["cutoff"], same_potential=True,
                        gpumd_model="eam/alloy table converted from potentials/Cu_u3.eam")
        # same mass as the molstep side (Cu_u3.eam's 63.55; GPUMD's default for Cu is 63.546)
        model_xyz(d / "model.xyz", EAM["element"], mass_u3, EAM["a"], n, args.full_xyz)
        run_in(d / "run.in", n, args.full_xyz, pot, EAM["temp"], EAM["dt_fs"], steps, thermo, args.seed,
               f"Cu EAM ({info['gpumd_model']}), fcc 3.615 A, 600 K, dt 1 fs, NVE")
        shutil.copyfile(CU_U3, d / "Cu_u3.eam")
        write(d / "in.molstep", molstep_eam(n, steps, thermo, args.seed, neigh))
        info.update(dt_fs=EAM["dt_fs"], temp_K=EAM["temp"], lattice_A=EAM["a"],
                    molstep_potential="eam Cu_u3.eam (Foiles 1986, funcfl)",
                    molstep_cutoff_A=read_funcfl(CU_U3)["cutoff"], mass=mass_u3)
    # runs with the same molstep deck share a key, so run_gpumd.py runs molstep once per key
    info["molstep_key"] = f"{'lj' if family == 'lj' else 'eam_cu_u3'}_n{n}"
    write(d / "problem.json", json.dumps(info, indent=1) + "\n")
    return info


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", default=str(DEFAULT_WORK), help="output folder (default .peers/gpumd/work)")
    p.add_argument("--problems", default="lj,eam_zhou,eam_u3", help="families: lj, eam_zhou, eam_u3")
    p.add_argument("--lj-sizes", default="20,40,80,160", help="fcc cells per edge (4 n^3 atoms)")
    p.add_argument("--eam-sizes", default="20,40,80")
    p.add_argument("--lj-steps", default="", help="override steps, e.g. 20:10000,160:100 "
                   f"(default {DEFAULT_LJ_STEPS})")
    p.add_argument("--eam-steps", default="", help=f"override steps (default {DEFAULT_EAM_STEPS})")
    p.add_argument("--thermo", type=int, default=0, help="thermo interval (default: the run length)")
    p.add_argument("--eam-cutoff", type=float, default=5.0,
                   help="cutoff of the Zhou EAM in A (default 5.0, GPUMD's Cu_Zhou_2004.txt; "
                        "its eam_zhou_2004_Cu.txt uses 6.5)")
    p.add_argument("--molstep-neigh", choices=sorted(NEIGH), default="check",
                   help="molstep neigh_modify: 'check' = GPUMD's rule (every step, skin/2), "
                        "'every20' = LAMMPS bench/in.lj's")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--full-xyz", action="store_true",
                   help="write every atom to model.xyz instead of 'replicate n n n' in run.in")
    args = p.parse_args()

    families = [f for f in args.problems.split(",") if f]
    for f in families:
        if f not in ("lj", "eam_zhou", "eam_u3"):
            sys.exit(f"unknown problem family '{f}' (lj, eam_zhou, eam_u3)")
    if any(f.startswith("eam") for f in families) and not CU_U3.is_file():
        sys.exit(f"missing {CU_U3}")
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    lj_steps = parse_steps(args.lj_steps, DEFAULT_LJ_STEPS)
    eam_steps = parse_steps(args.eam_steps, DEFAULT_EAM_STEPS)

    made = []
    for fam in families:
        sizes = parse_sizes(args.lj_sizes if fam == "lj" else args.eam_sizes)
        table = lj_steps if fam == "lj" else eam_steps
        for n in sizes:
            info = make_problem(work, fam, n, steps_for(n, table), args)
            made.append(info["name"])
            print(f"{work / info['name']}: {info['atoms']} atoms, {info['steps']} steps")
    manifest = work / "manifest.json"
    write(manifest, json.dumps({"problems": made}, indent=1) + "\n")
    print(f"wrote {manifest}")


if __name__ == "__main__":
    main()
