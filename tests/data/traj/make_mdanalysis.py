#!/usr/bin/python3
"""Dumps what MDAnalysis reads from the XTC/TRR files in this folder, as the references the
molstep tests compare against (CI needs neither GROMACS nor MDAnalysis).

    /usr/bin/python3 tests/data/traj/make_mdanalysis.py

For each NAME.xtc / NAME.trr listed below it writes NAME.mda.txt:

    natoms N
    frame I step S time T [lambda L]
    box  9 numbers: the file's box rows a, b, c (nm, float32) times 10 in float32 (angstrom)
    dimensions  a b c alpha beta gamma as MDAnalysis gives them
    atoms x [v] [f]      which per-atom arrays follow
    one line per atom: x y z [vx vy vz] [fx fy fz] in MDAnalysis units (A, A/ps, kJ/(mol A))

Numbers are the shortest text that reads back (strtof) as the same float32. The files are
copied to a temporary folder first so MDAnalysis' offset caches do not land here.
"""
import os
import shutil
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import MDAnalysis  # noqa: E402
from MDAnalysis.coordinates.TRR import TRRReader  # noqa: E402
from MDAnalysis.coordinates.XTC import XTCReader  # noqa: E402
from MDAnalysis.lib.formats.libmdaxdr import TRRFile, XTCFile  # noqa: E402

FILES = ["xtc_water.xtc", "xtc_tiny.xtc", "trr_water.trr", "trr_water_double.trr",
         "xtc_molstep.xtc", "trr_molstep.trr"]


def f32(v):
    return str(np.float32(v))


def dump(src, tmp, out):
    path = os.path.join(tmp, os.path.basename(src))
    shutil.copy(src, path)
    is_trr = path.endswith(".trr")
    reader = TRRReader(path) if is_trr else XTCReader(path)
    raw = TRRFile(path) if is_trr else XTCFile(path)
    lines = [f"# MDAnalysis {MDAnalysis.__version__} reading {os.path.basename(src)} (make_mdanalysis.py)",
             f"natoms {reader.n_atoms}"]
    for ts, fr in zip(reader, raw):
        head = f"frame {ts.frame} step {ts.data['step']} time {ts.time!r}"
        if is_trr:
            head += f" lambda {ts.data['lambda']!r}"
        lines.append(head)
        box = fr.box.astype(np.float32) * np.float32(10)
        lines.append("box " + " ".join(f32(v) for v in box.ravel()))
        lines.append("dimensions " + " ".join(f32(v) for v in ts.dimensions))
        cols = []
        if not is_trr or ts.has_positions:
            cols.append(("x", ts.positions))
        if is_trr and ts.has_velocities:
            cols.append(("v", ts.velocities))
        if is_trr and ts.has_forces:
            cols.append(("f", ts.forces))
        lines.append("atoms " + " ".join(name for name, _ in cols))
        for i in range(reader.n_atoms):
            lines.append(" ".join(f32(v) for _, a in cols for v in a[i]))
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    names = sys.argv[1:] or FILES
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            src = os.path.join(here, name)
            if not os.path.exists(src):
                print(f"skipping {name}: not there")
                continue
            out = os.path.join(here, os.path.splitext(name)[0] + ".mda.txt")
            dump(src, tmp, out)
            print(f"{name} -> {os.path.basename(out)}")


if __name__ == "__main__":
    main()
