#!/usr/bin/python3
"""RDF benchmark: molstep analyze (CPU) against MDAnalysis InterRDF, same file, same bins.

Runs both on one XTC (by default the 108,000-atom, 100-frame liquid-argon trajectory that
bench/in.argon.xtc writes), checks that g(r) agrees, and prints the time ratio. Also times ten
queries in one pass against the same ten queries run one pass each.

  /usr/bin/python3 bench/analysis_vs_mdanalysis.py --molstep build/molstep [--traj FILE.xtc]
      [--rmax 8.5] [--bins 200] [--sel all] [--mda-frames N] [--skip-mda] [--threads T]

MDAnalysis is Debian's python3-mdanalysis (import under /usr/bin/python3). --mda-frames runs
MDAnalysis on the first N frames only and scales its time to the whole file (said in the output).
Both wall and CPU time (user + system) are reported: on a busy machine, CPU time with --threads 1
is the fairer per-core comparison (MDAnalysis's InterRDF runs on one core).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, **kw):
    """Wall seconds of a command."""
    return run_timed(cmd, **kw)[0]


def run_timed(cmd, **kw):
    """Wall and CPU (user + system) seconds of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def read_csv(path):
    rows = [l for l in open(path) if not l.startswith("#")]
    head = rows[0].strip().split(",")
    data = np.array([[float(v) for v in r.strip().split(",")] for r in rows[1:]])
    return {h: data[:, k] for k, h in enumerate(head)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--molstep", required=True)
    ap.add_argument("--traj")
    ap.add_argument("--rmax", type=float, default=8.5)
    ap.add_argument("--bins", type=int, default=200)
    ap.add_argument("--sel", default="all")
    ap.add_argument("--mda-frames", type=int, default=0)
    ap.add_argument("--skip-mda", action="store_true")
    ap.add_argument("--skip-ten", action="store_true", help="skip the ten-queries comparison")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--workdir", default=tempfile.mkdtemp(prefix="molstep-bench-"))
    a = ap.parse_args()
    work = a.workdir
    traj = a.traj
    if not traj:
        traj = os.path.join(work, "argon.xtc")
        if not os.path.exists(traj):
            print(f"writing {traj} with bench/in.argon.xtc ...", flush=True)
            run([a.molstep, "md", os.path.join(HERE, "in.argon.xtc"), "--var", "out", traj, "--log", "none",
                 "--quiet", "--device", "cpu"], cwd=work)
    out = os.path.join(work, "rdf")
    sel = a.sel
    spec = f"rdf:sel1={sel},sel2={sel},rmax={a.rmax},bins={a.bins}"
    t_ms, cpu_ms = run_timed([a.molstep, "analyze", traj, "-q", spec, "--device", "cpu", "--threads", str(a.threads),
                              "--out", out], stdout=subprocess.DEVNULL)
    ours = read_csv(os.path.join(out, "rdf.csv"))
    summary = json.load(open(os.path.join(out, "summary.json")))
    frames = summary["frames"]
    natoms = summary["atoms"]
    print(f"molstep analyze (cpu, {a.threads} threads): {frames} frames of {natoms} atoms, rdf {a.bins} bins to "
          f"{a.rmax} A: {t_ms:.2f} s wall, {cpu_ms:.2f} s CPU")
    result = {"atoms": natoms, "frames": frames, "bins": a.bins, "rmax": a.rmax, "molstep_s": t_ms,
              "molstep_cpu_s": cpu_ms, "threads": a.threads}
    if not a.skip_mda:
        import MDAnalysis as mda
        from MDAnalysis.analysis.rdf import InterRDF
        # An XTC has no topology: give MDAnalysis an empty one with the right atom count.
        u = mda.Universe.empty(natoms, trajectory=True)
        u.load_new(traj, format="XTC")
        g = u.select_atoms("all")
        stop = a.mda_frames if a.mda_frames else None
        t0 = time.perf_counter()
        c0 = time.process_time()
        r = InterRDF(g, g, nbins=a.bins, range=(0.0, a.rmax)).run(stop=stop)
        t_mda = time.perf_counter() - t0
        cpu_mda = time.process_time() - c0
        n_mda = r.n_frames
        scaled = t_mda * frames / n_mda
        note = "" if n_mda == frames else f" ({n_mda} frames measured, scaled to {frames})"
        print(f"MDAnalysis {mda.__version__} InterRDF: {t_mda:.2f} s wall, {cpu_mda:.2f} s CPU{note}")
        # MDAnalysis pairs each atom with itself in bin 0; molstep does not (docs/analysis.md).
        if n_mda == frames:
            diff = np.abs(r.results.rdf[1:] - ours["g"][1:])
            rel = np.max(diff / np.maximum(np.abs(r.results.rdf[1:]), 1e-300), where=r.results.rdf[1:] > 0,
                         initial=0.0)
            print(f"g(r) bins 1..{a.bins - 1}: max relative difference {rel:.3g}")
            result["max_rel_diff_g"] = float(rel)
        cpu_scaled = cpu_mda * frames / n_mda
        result.update({"mdanalysis_s": scaled, "mdanalysis_cpu_s": cpu_scaled, "mdanalysis_frames_measured": n_mda,
                       "speedup": scaled / t_ms, "speedup_cpu_time": cpu_scaled / cpu_ms})
        print(f"speedup molstep / MDAnalysis: {scaled / t_ms:.1f}x wall, {cpu_scaled / cpu_ms:.1f}x CPU time")
    if a.skip_ten:
        print(json.dumps(result))
        return 0
    # Ten queries in one pass against ten passes of one query each.
    ten = ["mass", "charge", "com", "rg", "inertia", "dipole", "density:axis=z,bins=100",
           f"rdf:rmax={a.rmax},bins={a.bins}", "msd", "sdh:width=0.5,pbc=yes" if natoms <= 20000 else
           f"rdf:rmax={a.rmax / 2},bins={a.bins},label=rdf_short"]
    cmd = [a.molstep, "analyze", traj, "--device", "cpu", "--threads", str(a.threads)]
    one = run(cmd + sum((["-q", q] for q in ten), []) + ["--out", os.path.join(work, "one")], stdout=subprocess.DEVNULL)
    many = sum(run(cmd + ["-q", q, "--out", os.path.join(work, f"many{k}")], stdout=subprocess.DEVNULL)
               for k, q in enumerate(ten))
    print(f"ten queries: one pass {one:.2f} s, ten passes {many:.2f} s, ratio {many / one:.2f}")
    result.update({"ten_queries_one_pass_s": one, "ten_queries_ten_passes_s": many, "ten_query_ratio": many / one})
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
