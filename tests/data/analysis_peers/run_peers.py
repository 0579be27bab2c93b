#!/usr/bin/python3
"""Computes the peer results that tests/analysis/test_peers.cpp compares molstep with.

Run with the system Python that has MDAnalysis 2.4 (not the first python3 on PATH), from
anywhere:

    /usr/bin/python3 tests/data/analysis_peers/run_peers.py [--out DIR]

Inputs (made by make_trajectory.sh, in this folder): system.gro, md.xtc, md.trr, md.tpr,
index.ndx, ow.gro, ow_nojump.trr. Outputs (into this folder unless --out is given):

  mda_<traj>_rdf_<pair>.csv   MDAnalysis InterRDF, rmax 12 A, 150 bins: r_lo, r_hi, count, g
  mda_<traj>_rg_<sel>.csv     AtomGroup.radius_of_gyration() per frame (A)
  mda_<traj>_com_<sel>.csv    AtomGroup.center_of_mass() per frame (A)
  mda_ow_nojump_msd_<dims>.csv  EinsteinMSD(msd_type=<dims>, fft=False) per lag (A^2)
  gmx_<traj>_rdf_<ref>.xvg    gmx rdf -bin 0.01 -rmax 1.2 (nm), -norm rdf
  gmx_<traj>_rdfnone_<ref>.xvg  the same with -norm none
  gmx_<traj>_rdfnd_<ref>.xvg  the same with -norm number_density
  gmx_<traj>_rdfcn_<ref>.xvg  the cumulative number RDF (-cn) of the -norm rdf run
  gmx_<traj>_gyrate_DEC.xvg   gmx gyrate of the decane (nm)
  gmx_<traj>_com_<group>.xvg  gmx traj -com -nopbc -fp (nm)

<traj> is md_xtc or md_trr. Every CSV starts with '#' lines that name the program, version and
parameters; numbers are written with 17 significant digits.
"""
import argparse
import os
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import MDAnalysis as mda  # noqa: E402
from MDAnalysis.analysis.msd import EinsteinMSD  # noqa: E402
from MDAnalysis.analysis.rdf import InterRDF  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

TRAJECTORIES = {"md_xtc": "md.xtc", "md_trr": "md.trr"}
# name: (sel1, sel2); the same selection strings work in molstep.
RDF_PAIRS = {
    "OO": ("name OW", "name OW"),
    "OH": ("name OW", "name HW1 HW2"),
    "CO": ("resname DEC", "name OW"),
    "all": ("all", "all"),
}
# InterRDF bins: 150 bins of 0.08 A up to 12 A. No edge falls on the rigid SPC/E O-H (1 A) or
# H-H (1.633 A) distances, which would put thousands of pairs on an edge.
RDF_RMAX = 12.0
RDF_BINS = 150
# gmx rdf: bins of 0.01 nm centred on 0, 0.01, ... (see README.md), up to 1.2 nm.
GMX_BIN = 0.01
GMX_RMAX = 1.2
# gmx rdf runs: file tag -> (-ref, [-sel ...]); columns of the xvg follow the -sel order.
GMX_RDF = {
    "OW": ("name OW", ["name OW", "name HW1 HW2"]),
    "DEC": ("resname DEC", ["name OW"]),
    "all": ("all", ["all"]),
}
MOMENT_SELECTIONS = {"DEC": "resname DEC", "OW": "name OW", "all": "all"}
MSD_DIMS = ["xyz", "xy"]


def save(path, names, columns, comments):
    data = np.column_stack(columns)
    text = ["# " + c for c in comments]
    text.append(",".join(names))
    for row in data:
        text.append(",".join(format(v, ".17g") for v in row))
    with open(path, "w") as f:
        f.write("\n".join(text) + "\n")


def mda_rdf(u, traj, out):
    for name, (s1, s2) in RDF_PAIRS.items():
        g1, g2 = u.select_atoms(s1), u.select_atoms(s2)
        r = InterRDF(g1, g2, nbins=RDF_BINS, range=(0.0, RDF_RMAX), norm="rdf")
        r.run()
        edges = r.results.edges
        save(os.path.join(out, f"mda_{traj}_rdf_{name}.csv"), ["r_lo", "r_hi", "count", "g"],
             [edges[:-1], edges[1:], r.results.count, r.results.rdf],
             [f"MDAnalysis {mda.__version__} InterRDF(g1, g2, nbins={RDF_BINS}, range=(0, {RDF_RMAX}), norm='rdf')",
              f"g1 = '{s1}' ({g1.n_atoms} atoms), g2 = '{s2}' ({g2.n_atoms} atoms), {r.n_frames} frames",
              f"mean volume {r.volume_cum / r.n_frames!r} A^3; count includes self pairs (distance 0, bin 0)"])


def mda_moments(u, traj, out):
    groups = {k: u.select_atoms(v) for k, v in MOMENT_SELECTIONS.items()}
    rows = {k: [] for k in groups}
    for ts in u.trajectory:
        for k, g in groups.items():
            com = g.center_of_mass()
            rows[k].append([ts.frame, ts.time, g.radius_of_gyration(), com[0], com[1], com[2]])
    for k, g in groups.items():
        a = np.array(rows[k])
        common = [f"MDAnalysis {mda.__version__}, selection '{MOMENT_SELECTIONS[k]}' ({g.n_atoms} atoms, "
                  f"total mass {g.total_mass()!r}), positions as stored (wrap=False)"]
        save(os.path.join(out, f"mda_{traj}_rg_{k}.csv"), ["frame", "time", "rg"], [a[:, 0], a[:, 1], a[:, 2]],
             common + ["rg = AtomGroup.radius_of_gyration() in A"])
        save(os.path.join(out, f"mda_{traj}_com_{k}.csv"), ["frame", "time", "x", "y", "z"],
             [a[:, 0], a[:, 1], a[:, 3], a[:, 4], a[:, 5]], common + ["AtomGroup.center_of_mass() in A"])


def mda_msd(out):
    u = mda.Universe(os.path.join(HERE, "ow.gro"), os.path.join(HERE, "ow_nojump.trr"))
    for dims in MSD_DIMS:
        m = EinsteinMSD(u, select="all", msd_type=dims, fft=False)
        m.run()
        lags = np.arange(m.n_frames)
        save(os.path.join(out, f"mda_ow_nojump_msd_{dims}.csv"), ["lag", "lagtime", "msd"],
             [lags, lags * u.trajectory.dt, m.results.timeseries],
             [f"MDAnalysis {mda.__version__} EinsteinMSD(select='all', msd_type='{dims}', fft=False) on ow_nojump.trr "
              f"({u.atoms.n_atoms} OW atoms, {m.n_frames} frames, unwrapped by gmx trjconv -pbc nojump)",
              "msd in A^2, averaged over all time origins and atoms"])


def gmx(args, stdin=None):
    env = dict(os.environ, GMX_MAXBACKUP="-1", OMP_NUM_THREADS="1")
    # Run in this folder with relative names, so the command lines that gmx writes into the
    # .xvg headers carry no machine-specific paths.
    args = [os.path.relpath(a, HERE) if os.path.isabs(a) else a for a in args]
    p = subprocess.run(["gmx", "-quiet", *args], input=stdin, text=True, capture_output=True, env=env, cwd=HERE)
    if p.returncode != 0:
        sys.exit(f"gmx {' '.join(args)} failed:\n{p.stderr[-3000:]}")


def gmx_peers(traj, path, out):
    tpr = os.path.join(HERE, "md.tpr")
    ndx = os.path.join(HERE, "index.ndx")
    # Positions as stored (-normpbc): distances use the minimum image anyway, and molstep and
    # MDAnalysis do not make molecules whole either.
    for tag, (ref, sels) in GMX_RDF.items():
        common = ["rdf", "-f", path, "-s", tpr, "-normpbc", "-bin", str(GMX_BIN), "-rmax", str(GMX_RMAX),
                  "-ref", ref, "-sel", *sels]
        gmx(common + ["-o", os.path.join(out, f"gmx_{traj}_rdf_{tag}.xvg"),
                      "-cn", os.path.join(out, f"gmx_{traj}_rdfcn_{tag}.xvg")])
        gmx(common + ["-norm", "none", "-o", os.path.join(out, f"gmx_{traj}_rdfnone_{tag}.xvg")])
        gmx(common + ["-norm", "number_density", "-o", os.path.join(out, f"gmx_{traj}_rdfnd_{tag}.xvg")])
    # The decane is whole in every frame (its centre of mass motion is removed in the run), so
    # gmx gyrate's making molecules whole changes nothing.
    gmx(["gyrate", "-f", path, "-s", tpr, "-n", ndx, "-o", os.path.join(out, f"gmx_{traj}_gyrate_DEC.xvg")],
        stdin="DEC\n")
    for group in ["DEC", "OW", "System"]:
        gmx(["traj", "-f", path, "-s", tpr, "-n", ndx, "-com", "-nopbc", "-fp",
             "-ox", os.path.join(out, f"gmx_{traj}_com_{group}.xvg")], stdin=f"{group}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=HERE, help="output folder (default: this folder)")
    ap.add_argument("--skip-gmx", action="store_true", help="only the MDAnalysis results")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    top = os.path.join(HERE, "system.gro")
    for traj, name in TRAJECTORIES.items():
        path = os.path.join(HERE, name)
        u = mda.Universe(top, path)
        mda_rdf(u, traj, args.out)
        mda_moments(u, traj, args.out)
        if not args.skip_gmx:
            gmx_peers(traj, path, args.out)
    mda_msd(args.out)
    # MDAnalysis caches frame offsets next to each trajectory (.md.xtc_offsets.npz, .lock).
    for name in os.listdir(HERE):
        if name.startswith(".") and ("_offsets." in name):
            os.remove(os.path.join(HERE, name))
    print(f"peer results written to {args.out}")


if __name__ == "__main__":
    main()
