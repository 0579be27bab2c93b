#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""MD benchmark: molstep and LAMMPS on the same LAMMPS deck, side by side.

Runs both programs on the same deck (default LAMMPS's bench/in.lj, tests/data/lammps/in.lj; also
bench/in.eam, tests/data/eam_peers/in.eam; sized with -var x y z) for each size and thread count, interleaving repetitions so that machine noise hits both alike, and
prints atom-steps per second, the molstep/LAMMPS ratio and the per-core rate. LAMMPS's Debian
build has no OpenMP package, so its N-core runs use N MPI ranks (mpirun -np N); molstep uses
N OpenMP threads.

    bench/md_vs_lammps.py --lmp /usr/bin/lmp [--deck tests/data/eam_peers/in.eam]
                          [--molstep build/molstep] [--sizes 1,2] [--threads 1,2]
                          [--repeats 3] [--json out.json]

The LAMMPS binary is taken by path (--lmp or $LAMMPS_BIN); nothing here builds or fetches it.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "data" / "lammps" / "in.lj"
LOOP = re.compile(r"Loop time of ([0-9.eE+-]+)\s*s? on (\d+) \S+ for (\d+) steps with (\d+) atoms")


def run(cmd, cwd):
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"command failed ({out.returncode}): {' '.join(cmd)}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    m = LOOP.search(out.stdout)
    if not m:
        sys.exit(f"no 'Loop time' line in the output of {' '.join(cmd)}")
    seconds, _, steps, atoms = float(m[1]), int(m[2]), int(m[3]), int(m[4])
    return seconds, steps, atoms


def lammps_cmd(lmp, mpirun, n, size, deck):
    base = [lmp, "-in", str(deck), "-log", "none", "-var", "x", str(size), "-var", "y", str(size), "-var", "z", str(size)]
    if n == 1:
        return base
    return [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(n)] + base


def molstep_cmd(molstep, n, size, deck):
    return [molstep, "md", str(deck), "--log", "none", "--threads", str(n),
            "--var", "x", str(size), "--var", "y", str(size), "--var", "z", str(size)]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lmp", default=os.environ.get("LAMMPS_BIN"), help="LAMMPS binary (or $LAMMPS_BIN)")
    p.add_argument("--deck", default=str(DECK), help="LAMMPS deck with x, y, z size variables")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--molstep", default=str(ROOT / "build" / "molstep"))
    p.add_argument("--sizes", default="1,2", help="multiples of the 32,000-atom deck per dimension (1: 32k, 2: 256k)")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", help="write the results here")
    a = p.parse_args()
    if not a.lmp:
        sys.exit("give the LAMMPS binary with --lmp or $LAMMPS_BIN")
    results = []
    deck = Path(a.deck).resolve()
    work = deck.parent  # decks read their potential files from their own folder
    for size in [int(s) for s in a.sizes.split(",")]:
        for n in [int(t) for t in a.threads.split(",")]:
            times = {"lammps": [], "molstep": []}
            for _ in range(a.repeats):
                for prog, cmd in (("lammps", lammps_cmd(a.lmp, a.mpirun, n, size, deck)),
                                  ("molstep", molstep_cmd(a.molstep, n, size, deck))):
                    seconds, steps, atoms = run(cmd, work)
                    times[prog].append(seconds)
            rate = {k: atoms * steps / min(v) for k, v in times.items()}
            row = {
                "deck": str(deck.relative_to(ROOT)) if deck.is_relative_to(ROOT) else str(deck),
                "atoms": atoms, "steps": steps, "cores": n, "repeats": a.repeats,
                "lammps_seconds": times["lammps"], "molstep_seconds": times["molstep"],
                "lammps_atom_steps_per_s": rate["lammps"], "molstep_atom_steps_per_s": rate["molstep"],
                "ratio_best": rate["molstep"] / rate["lammps"],
                "ratio_median": statistics.median(times["lammps"]) / statistics.median(times["molstep"]),
            }
            results.append(row)
            print(f"{atoms:>8} atoms  {n} core(s)  LAMMPS {rate['lammps']:.3e}  molstep {rate['molstep']:.3e} "
                  f"atom-steps/s  ratio {row['ratio_best']:.2f} (best) {row['ratio_median']:.2f} (median)  "
                  f"molstep per core {rate['molstep'] / n:.3e}", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
