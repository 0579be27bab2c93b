#!/usr/bin/python3
"""molstep analyze against MDAnalysis and GROMACS, end to end, on the GROMACS trajectory in
tests/data/analysis_peers (united-atom decane in SPC/E water, 1720 atoms; see README.md there).

Run with the system Python that has MDAnalysis 2.4 and numpy:

    /usr/bin/python3 bench/analysis_peers.py --molstep BUILD/molstep [--rerun-peers] [--keep DIR]

It runs `molstep analyze` on md.xtc, md.trr and ow_nojump.trr; with --rerun-peers it also
recomputes every peer result (MDAnalysis, gmx rdf, gmx gyrate, gmx traj) through
tests/data/analysis_peers/run_peers.py into a scratch folder instead of using the stored ones.
It prints one row per quantity and peer (the worst over trajectories and selections; --full
adds a row per selection and trajectory): the largest raw relative difference, the largest
relative difference left after the documented allowances (below), and PASS/FAIL against the
issue's tolerances (MDAnalysis 1e-5, GROMACS 1e-4, relative; integer pair counts exactly).

Allowances, each exact and documented in README.md (never a wider tolerance):
  * float32 binning: MDAnalysis and GROMACS compute pair distances in single precision, so a
    pair within EDGE_EPS = 1e-5 A of a bin edge may land on either side. Such pairs are counted
    here from the trajectory (distances in double); a bin may differ by at most the ambiguous
    pairs on its two edges (converted to the quantity's units).
  * printed digits: gmx rdf writes 3 decimals, gmx gyrate 6 significant digits, gmx traj -fp 8;
    a value is only known to half a unit of its last digit.
The tests/analysis/test_peers.cpp GoogleTest makes the same comparisons.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
from MDAnalysis.lib.formats.libmdaxdr import TRRFile, XTCFile  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "analysis_peers")
EDGE_EPS = 1e-5  # A; bound on the single-precision distance error of the peers (README.md)
TOL_MDA = 1e-5
TOL_GMX = 1e-4

RDF_PAIRS = {  # name: (molstep sel1, sel2, gmx file tag, gmx column)
    "OO": ("O", "O", "OW", 1),
    "OH": ("O", "H", "OW", 2),
    "CO": ("DEC", "O", "DEC", 1),
    "all": ("all", "all", "all", 1),
}
SELECT = {"O": "name OW", "H": "name HW1 HW2", "DEC": "resname DEC"}
MDA_BINS, GMX_HALF_BINS, RMAX = 150, 240, 12.0  # molstep bins for the two peers' binnings
GMX_BIN_NM = 0.01
MOMENTS = {"DEC": "DEC", "OW": "O", "all": "all"}  # file tag: molstep selection
GMX_COM_GROUP = {"DEC": "DEC", "OW": "OW", "all": "System"}
TRAJS = {"md_xtc": "md.xtc", "md_trr": "md.trr"}


def read_csv(path):
    lines = [line for line in open(path) if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    return {n: data[:, i] for i, n in enumerate(names)}


def read_xvg(path):
    rows = [[float(v) for v in line.split()] for line in open(path) if line.strip() and line[0] not in "@#"]
    return np.array(rows)


def half_unit_g(values, digits):
    """Half a unit in the last place of %.{digits-1}g-style output (significant digits)."""
    v = np.abs(values)
    e = np.floor(np.log10(np.where(v > 0, v, 1.0)))
    return np.where(v > 0, 0.5 * 10.0 ** (e - (digits - 1)), 0.5 * 10.0 ** (-digits))


def molstep(binary, traj, top, queries, out):
    cmd = [binary, "analyze", os.path.join(DATA, traj), "--top", os.path.join(DATA, top), "--device", "cpu",
           "--out", out]
    for name, expr in SELECT.items():
        if top == "system.gro":
            cmd += ["--select", f"{name}={expr}"]
    for q in queries:
        cmd += ["--query", q]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"molstep failed: {' '.join(cmd)}\n{p.stderr}")
    return out


def trajectory_frames(path):
    cls = XTCFile if path.endswith(".xtc") else TRRFile
    with cls(path) as f:
        for fr in f:
            # molstep's reading: float nm -> double, times 10 (exact)
            yield fr.x.astype(np.float64) * 10.0, np.diag(fr.box.astype(np.float64)) * 10.0


def ambiguous_pairs(path, index_sets):
    """Per pair set: ordered pairs within EDGE_EPS of each edge k*w (k = 1..bins) for the
    MDAnalysis binning (w = RMAX/MDA_BINS) and the gmx half-bin binning (w = RMAX/GMX_HALF_BINS);
    also <1/V> over the frames."""
    result = {name: (np.zeros(MDA_BINS + 1), np.zeros(GMX_HALF_BINS + 1)) for name in index_sets}
    inv_volume, frames = 0.0, 0
    for x, box in trajectory_frames(path):
        inv_volume += 1.0 / np.prod(box)
        frames += 1
        for name, (a, b) in index_sets.items():
            same = a is b
            for start in range(0, len(a), 256):
                pa = x[a[start:start + 256]]
                d = x[b][None, :, :] - pa[:, None, :]
                d -= box * np.round(d / box)
                r = np.sqrt((d * d).sum(-1))
                if same:
                    # each unordered pair once, then counted twice (molstep counts ordered pairs)
                    rows = np.arange(start, start + len(pa))[:, None]
                    r = r[np.arange(len(b))[None, :] > rows]
                else:
                    r = r[r > 0]
                for counts, bins in zip(result[name], (MDA_BINS, GMX_HALF_BINS)):
                    w = RMAX / bins
                    k = np.rint(r / w)
                    hit = (np.abs(r - k * w) < EDGE_EPS) & (k >= 1) & (k <= bins)
                    np.add.at(counts, k[hit].astype(int), 2 if same else 1)
    return result, inv_volume / frames, frames


class Table:
    def __init__(self):
        self.rows = []

    def add(self, quantity, traj, peer, n, raw, residual, tol, note="", group=None):
        """group: the row of the summary table this row is folded into (default: quantity)."""
        self.rows.append((quantity, traj, peer, n, raw, residual, tol, note, group or quantity))

    @staticmethod
    def _print(head, rows):
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(str(c) for c in row) + " |")

    @staticmethod
    def _result(res, tol):
        return "PASS" if res <= tol else "FAIL"

    @staticmethod
    def _tol(tol):
        return "exact" if tol == 0 else f"{tol:.0e}"

    def print(self, full):
        """The summary (worst case per quantity and peer over trajectories and selections), and
        with `full` every row. Returns whether everything passed."""
        groups = {}
        for q, t, p, n, raw, res, tol, note, g in self.rows:
            key = (g, p, tol)
            e = groups.setdefault(key, {"n": 0, "raw": 0.0, "res": 0.0, "trajs": []})
            e["n"] += n
            e["raw"] = max(e["raw"], raw)
            e["res"] = max(e["res"], res)
            if t not in e["trajs"]:
                e["trajs"].append(t)
        self._print(("quantity", "peer", "trajectories", "values", "max rel diff", "beyond allowances", "tolerance",
                     "result"),
                    [(g, p, ", ".join(e["trajs"]), e["n"], f"{e['raw']:.1e}", f"{e['res']:.1e}", self._tol(tol),
                      self._result(e["res"], tol)) for (g, p, tol), e in groups.items()])
        if full:
            print()
            self._print(("quantity", "trajectory", "peer", "values", "max rel diff", "beyond allowances", "tolerance",
                         "result", "note"),
                        [(q, t, p, n, f"{raw:.2e}", f"{res:.2e}", self._tol(tol), self._result(res, tol), note)
                         for q, t, p, n, raw, res, tol, note, _ in self.rows])
        return all(res <= tol for _, _, _, _, _, res, tol, _, _ in self.rows)


def rel(a, b):
    return np.abs(a - b) / np.maximum(np.abs(b), 1e-300)


def check(values_m, values_p, allowance, tol):
    """Largest raw relative difference and largest relative excess over tol*|p| + allowance."""
    diff = np.abs(values_m - values_p)
    scale = np.maximum(np.abs(values_p), 1e-300)
    raw = float(np.max(diff / scale)) if len(diff) else 0.0
    excess = np.maximum(diff - allowance, 0.0) / scale
    return raw, float(np.max(excess)) if len(diff) else 0.0


def compare_trajectory(table, traj, path, ms_dir, peers, frames_expected):
    import MDAnalysis as mda  # for the selections only

    u = mda.Universe(os.path.join(DATA, "system.gro"))
    idx = {"all": u.atoms.indices}
    for name, expr in SELECT.items():
        idx[name] = u.select_atoms(expr).indices
    sets = {name: (idx[s1], idx[s1] if s1 == s2 else idx[s2]) for name, (s1, s2, _, _) in RDF_PAIRS.items()}
    amb, inv_volume, frames = ambiguous_pairs(path, sets)
    assert frames == frames_expected
    with open(os.path.join(ms_dir, "summary.json")) as f:
        summary = json.load(f)

    for name, (s1, s2, gtag, gcol) in RDF_PAIRS.items():
        n1, n2 = len(idx[s1]), len(idx[s2])
        overlap = len(np.intersect1d(idx[s1], idx[s2]))
        amb_m, amb_g = amb[name]
        # MDAnalysis InterRDF: same bins; its count has the self pairs in bin 0 (docs: rdf.cpp
        # comment, summary 'self_pairs_excluded_per_frame').
        m = read_csv(os.path.join(ms_dir, f"mda_rdf_{name}.csv"))
        p = read_csv(os.path.join(peers, f"mda_{traj}_rdf_{name}.csv"))
        assert np.array_equal(m["r_lo"], p["r_lo"]) and np.array_equal(m["r_hi"], p["r_hi"])
        count = m["count"].copy()
        count[0] += overlap * frames
        allow = amb_m[:-1] + amb_m[1:]
        use = (p["count"] > 0) | (count > 0)
        # integer pair counts: equal but for the ambiguous pairs (tolerance 0)
        raw, res = check(count[use], p["count"][use], allow[use], 0.0)
        moved = int(np.sum(count != p["count"]))
        table.add(f"rdf {name} pair counts", traj, "MDAnalysis InterRDF", int(use.sum()), raw, res, 0.0,
                  f"{moved} bins differ, by {int(np.abs(count - p['count']).sum())} pairs in all; "
                  f"{int(amb_m[1:].sum())} ordered pairs lie within {EDGE_EPS:g} A of an edge",
                  group="rdf pair counts (OO, OH, CO, all)")
        g = m["g"].copy()
        # bin 0 as InterRDF has it (self pairs included): the summary's mdanalysis_g0
        g[0] = summary["queries"][f"mda_rdf_{name}"]["results"]["mdanalysis_g0"]
        # per-count normalisation, then g itself with the per-pair allowance
        per_pair = np.where(p["count"] > 0, p["g"] / np.maximum(p["count"], 1), 0)
        raw, res = check(g[use], p["g"][use], allow[use] * per_pair[use], TOL_MDA)
        table.add(f"rdf {name} g(r)", traj, "MDAnalysis InterRDF", int(use.sum()), raw, res, TOL_MDA,
                  group="rdf g(r) (OO, OH, CO, all)")

        # gmx rdf: bins of 0.01 nm centred on i*0.01 nm (bin 0 is [0, 0.005)); from molstep's
        # 0.05 A half bins: C_0 = c_0, C_i = c_{2i-1} + c_{2i}. Normalised by <n_ref>, the bin
        # volume 4/3 pi ((i+1/2)^3 - (i-1/2)^3) w^3 and <n_sel / V> (rdf.cpp, GROMACS 2022).
        h = read_csv(os.path.join(ms_dir, f"gmx_rdf_{name}.csv"))["count"]
        nb = GMX_HALF_BINS // 2
        C = np.concatenate([[h[0]], h[1:2 * nb - 1:2] + h[2:2 * nb:2]])
        A = np.concatenate([[amb_g[1]], amb_g[1:2 * nb - 1:2] + amb_g[3:2 * nb + 1:2]])
        w = GMX_BIN_NM * 10.0  # A
        i = np.arange(nb)
        outer = (i + 0.5) * w
        inner = np.where(i == 0, 0.0, (i - 0.5) * w)
        vbin = 4.0 / 3.0 * math.pi * (outer ** 3 - inner ** 3)  # A^3
        per_ref = C / (frames * n1)
        density = n2 * inv_volume  # A^-3
        conv = {
            "rdf": (f"gmx_{traj}_rdf_{gtag}.xvg", per_ref / (vbin * density), 1.0 / (frames * n1 * vbin * density), 3),
            "number_density": (f"gmx_{traj}_rdfnd_{gtag}.xvg", per_ref / vbin * 1000.0,
                               1000.0 / (frames * n1 * vbin), 3),
            "none": (f"gmx_{traj}_rdfnone_{gtag}.xvg", per_ref / GMX_BIN_NM, 1.0 / (frames * n1 * GMX_BIN_NM), 3),
        }
        for norm, (fname, vm, per_pair_g, decimals) in conv.items():
            x = read_xvg(os.path.join(peers, fname))
            assert len(x) == nb and np.allclose(x[:, 0], i * GMX_BIN_NM, atol=1e-6)
            vp = x[:, gcol]
            use = (vp != 0) | (vm > 0.5 * 10.0 ** -decimals)
            allow = A * per_pair_g + 0.5 * 10.0 ** -decimals
            raw, res = check(vm[use], vp[use], allow[use], TOL_GMX)
            table.add(f"rdf {name} -norm {norm}", traj, "gmx rdf", int(use.sum()), raw, res, TOL_GMX,
                      f"printed with {decimals} decimals", group=f"rdf -norm {norm} (OO, OH, CO, all)")
        # -cn: at x = (i+1) w the mean number of sel atoms closer than (i+1) w to a ref atom.
        x = read_xvg(os.path.join(peers, f"gmx_{traj}_rdfcn_{gtag}.xvg"))
        cum = np.cumsum(h[0:2 * nb:2] + h[1:2 * nb:2]) / (frames * n1)
        allow = amb_g[2:2 * nb + 1:2] / (frames * n1) + 0.0005
        use = (x[:, gcol] != 0) | (cum > 0.0005)
        raw, res = check(cum[use], x[use, gcol], allow[use], TOL_GMX)
        table.add(f"rdf {name} -cn", traj, "gmx rdf", int(use.sum()), raw, res, TOL_GMX, "printed with 3 decimals",
                  group="rdf -cn (OO, OH, CO, all)")

    for tag, sel in MOMENTS.items():
        rg = read_csv(os.path.join(ms_dir, f"rg_{tag}.csv"))
        com = read_csv(os.path.join(ms_dir, f"com_{tag}.csv"))
        prg = read_csv(os.path.join(peers, f"mda_{traj}_rg_{tag}.csv"))
        pcom = read_csv(os.path.join(peers, f"mda_{traj}_com_{tag}.csv"))
        assert len(rg["rg"]) == frames and np.array_equal(rg["time"], prg["time"])
        raw, res = check(rg["rg"], prg["rg"], 0.0, TOL_MDA)
        table.add(f"rg {tag}", traj, "MDAnalysis", frames, raw, res, TOL_MDA, group="rg (DEC, OW, all)")
        m = np.concatenate([com[c] for c in "xyz"])
        p = np.concatenate([pcom[c] for c in "xyz"])
        raw, res = check(m, p, 0.0, TOL_MDA)
        table.add(f"com {tag}", traj, "MDAnalysis", 3 * frames, raw, res, TOL_MDA, group="com (DEC, OW, all)")
        g = read_xvg(os.path.join(peers, f"gmx_{traj}_com_{GMX_COM_GROUP[tag]}.xvg"))
        p = np.concatenate([g[:, 1], g[:, 2], g[:, 3]]) * 10.0
        raw, res = check(m, p, half_unit_g(p, 8), TOL_GMX)
        table.add(f"com {tag}", traj, "gmx traj -com -nopbc -fp", 3 * frames, raw, res, TOL_GMX, "8 digits printed",
                  group="com (DEC, OW, all)")
        if tag == "DEC":
            g = read_xvg(os.path.join(peers, f"gmx_{traj}_gyrate_DEC.xvg"))
            m = np.concatenate([rg[c] for c in ("rg", "rg_x", "rg_y", "rg_z")])
            p = np.concatenate([g[:, k] for k in (1, 2, 3, 4)]) * 10.0
            raw, res = check(m, p, half_unit_g(p, 6), TOL_GMX)
            table.add("rg, rg_x, rg_y, rg_z DEC", traj, "gmx gyrate", 4 * frames, raw, res, TOL_GMX,
                      "6 digits printed", group="rg, rg_x, rg_y, rg_z (DEC)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--molstep", default=os.environ.get("MOLSTEP", os.path.join(ROOT, "build", "molstep")))
    ap.add_argument("--rerun-peers", action="store_true", help="recompute the peer results instead of using the stored ones")
    ap.add_argument("--keep", help="folder for molstep's (and rerun peers') output (default: a temporary one)")
    ap.add_argument("--full", action="store_true", help="also print every row (each selection and trajectory)")
    args = ap.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="molstep-peers-")
    os.makedirs(work, exist_ok=True)
    peers = DATA
    if args.rerun_peers:
        peers = os.path.join(work, "peers")
        subprocess.run([sys.executable, os.path.join(DATA, "run_peers.py"), "--out", peers], check=True)

    queries = []
    for name, (s1, s2, _, _) in RDF_PAIRS.items():
        queries.append(f"rdf:sel1={s1},sel2={s2},rmax={RMAX:g},bins={MDA_BINS},label=mda_rdf_{name}")
        queries.append(f"rdf:sel1={s1},sel2={s2},rmax={RMAX:g},bins={GMX_HALF_BINS},label=gmx_rdf_{name}")
    for tag, sel in MOMENTS.items():
        queries += [f"rg:sel={sel},label=rg_{tag}", f"com:sel={sel},label=com_{tag}"]
    table = Table()
    for traj, name in TRAJS.items():
        q = list(queries)
        if traj == "md_xtc":
            q += ["msd:sel=O,unwrap=nojump,dims=xyz,label=msd_xyz", "msd:sel=O,unwrap=nojump,dims=xy,label=msd_xy"]
        out = molstep(args.molstep, name, "system.gro", q, os.path.join(work, traj))
        compare_trajectory(table, traj, os.path.join(DATA, name), out, peers, 51 if traj == "md_xtc" else 11)
    out = molstep(args.molstep, "ow_nojump.trr", "ow.gro",
                  ["msd:sel=all,unwrap=none,dims=xyz,label=msd_xyz", "msd:sel=all,unwrap=none,dims=xy,label=msd_xy"],
                  os.path.join(work, "ow_nojump"))
    for dims in ("xyz", "xy"):
        p = read_csv(os.path.join(peers, f"mda_ow_nojump_msd_{dims}.csv"))["msd"][1:]
        m = read_csv(os.path.join(work, "md_xtc", f"msd_{dims}.csv"))["msd"][1:]
        raw, res = check(m, p, 0.0, TOL_MDA)
        table.add(f"msd OW {dims}", "md_xtc", "MDAnalysis EinsteinMSD on trjconv -pbc nojump", len(p),
                  raw, res, TOL_MDA, group="msd OW, unwrap=nojump (xyz, xy)")
        m = read_csv(os.path.join(out, f"msd_{dims}.csv"))["msd"][1:]
        raw, res = check(m, p, 0.0, TOL_MDA)
        table.add(f"msd OW {dims}", "ow_nojump_trr", "MDAnalysis EinsteinMSD", len(p), raw, res, TOL_MDA,
                  group="msd OW, unwrap=none (xyz, xy)")
    ok = table.print(args.full)
    print(f"\nmolstep output in {work}; peers from {peers}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
