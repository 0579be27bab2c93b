#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run GPUMD (and, with --molstep, molstep) on the problems make_inputs.py wrote; print one JSON
line per run with atom-steps/s.

    python3 bench/gpumd/run_gpumd.py --gpumd .peers/gpumd/src/gpumd [--work .peers/gpumd/work]
                                     [--only lj_n20,eam_u3] [--repeats 1]
                                     [--molstep build/molstep [--molstep-device cuda]]
                                     [--json results.jsonl]

GPUMD is started with no arguments in each problem folder (it reads run.in and model.xyz from
the current directory; stdout goes to gpumd.log there). Rates: `atom_steps_per_s` uses GPUMD's
own "Time used for this run" (its MD loop, after the first force evaluation and neighbour
build, like LAMMPS's and molstep's "Loop time"); `atom_steps_per_s_wall` uses the wall clock of
the whole process (start-up, reading, replicate, GPU allocation included). GPUMD's printed
"Speed of this run" is kept as `gpumd_speed`.

With --molstep, molstep runs `md in.molstep` in the same folder right after GPUMD, repetitions
interleaved (log in molstep.log); its rate comes from its "Loop time" line. Problems that share a
molstep deck (eam_zhou_nN and eam_u3_nN) run molstep once. After each problem a line with
`"kind": "ratio"` gives molstep/GPUMD on the best repetition of each.

The GPUMD binary is taken by path (--gpumd or $GPUMD_BIN); nothing here builds or fetches it.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_WORK = ROOT / ".peers" / "gpumd" / "work"
BUILD_HINT = ('build it on the GPU machine with: make -C .peers/gpumd/src -j16 gpumd '
              'CFLAGS="-std=c++17 -O3 -arch=sm_90" (see bench/gpumd/README.md)')

RUN_TIME = re.compile(r"Time used for this run = ([0-9.eE+-]+) second")
RUN_SPEED = re.compile(r"Speed of this run = ([0-9.eE+-]+) atom\*step/second")
NATOMS = re.compile(r"Number of atoms is (\d+)\.")
NSTEPS = re.compile(r"^Run (\d+) steps\.", re.M)
LOOP = re.compile(r"Loop time of ([0-9.eE+-]+) s on (.+?) for (\d+) steps with (\d+) atoms")


def emit(record, out):
    line = json.dumps(record)
    print(line, flush=True)
    if out:
        out.write(line + "\n")
        out.flush()


def gpu_name():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def executable(path, what):
    if not path:
        sys.exit(f"error: no {what} binary given. {BUILD_HINT if what == 'GPUMD' else ''}".rstrip())
    p = Path(path)
    if not p.is_file():
        sys.exit(f"error: {what} binary not found: {p}" + (f"\n{BUILD_HINT}" if what == "GPUMD" else ""))
    if not os.access(p, os.X_OK):
        sys.exit(f"error: {what} binary is not executable: {p}")
    return p.resolve()


def last_thermo(folder):
    """Last row of GPUMD's thermo.out (columns T KE PE ...): temperature and KE+PE (eV, whole system)."""
    f = folder / "thermo.out"
    if not f.is_file():
        return None
    rows = [r.split() for r in f.read_text().splitlines() if r.strip() and not r.lstrip().startswith("#")]
    if not rows:
        return None
    try:
        t, k, u = (float(x) for x in rows[-1][:3])
    except ValueError:
        return None
    return dict(T=t, K_plus_U_eV=k + u, finite=all(math.isfinite(v) for v in (t, k, u)))


def run_gpumd(gpumd, folder, info, timeout):
    for stale in ("thermo.out",):
        (folder / stale).unlink(missing_ok=True)
    t0 = time.perf_counter()
    try:
        r = subprocess.run([str(gpumd)], cwd=folder, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        (folder / "gpumd.log").write_text((e.stdout or b"").decode(errors="replace")
                                          if isinstance(e.stdout, bytes) else (e.stdout or ""))
        return dict(ok=False, error=f"timed out after {timeout} s")
    wall = time.perf_counter() - t0
    (folder / "gpumd.log").write_text(r.stdout + ("\n--- stderr ---\n" + r.stderr if r.stderr else ""))
    rec = dict(wall_s=wall, returncode=r.returncode)
    m_t, m_s = RUN_TIME.findall(r.stdout), RUN_SPEED.findall(r.stdout)
    if r.returncode != 0 or not m_t or "Finished running GPUMD" not in r.stdout:
        tail = (r.stdout[-1500:] + r.stderr[-1500:]).strip()
        rec.update(ok=False, error=f"GPUMD failed (exit {r.returncode}); see {folder / 'gpumd.log'}",
                   tail=tail)
        return rec
    atoms = NATOMS.findall(r.stdout)
    steps = NSTEPS.findall(r.stdout)
    atoms = int(atoms[-1]) if atoms else info["atoms"]
    steps = int(steps[-1]) if steps else info["steps"]
    loop = float(m_t[-1])
    rec.update(ok=True, atoms=atoms, steps=steps, loop_s=loop,
               atom_steps_per_s=atoms * steps / loop,
               atom_steps_per_s_wall=atoms * steps / wall,
               gpumd_speed=float(m_s[-1]) if m_s else None,
               thermo_end=last_thermo(folder))
    if atoms != info["atoms"] or steps != info["steps"]:
        rec["warning"] = f"expected {info['atoms']} atoms and {info['steps']} steps"
    return rec


def run_molstep(molstep, device, folder, info, timeout):
    cmd = [str(molstep), "md", "in.molstep", "--log", "none", "--device", device]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(ok=False, error=f"timed out after {timeout} s")
    wall = time.perf_counter() - t0
    (folder / "molstep.log").write_text(r.stdout + ("\n--- stderr ---\n" + r.stderr if r.stderr else ""))
    m = LOOP.findall(r.stdout)
    if r.returncode != 0 or not m:
        return dict(ok=False, wall_s=wall, returncode=r.returncode,
                    error=f"molstep failed (exit {r.returncode}); see {folder / 'molstep.log'}",
                    tail=(r.stdout[-1500:] + r.stderr[-1500:]).strip())
    loop, where, steps, atoms = m[-1]
    loop, steps, atoms = float(loop), int(steps), int(atoms)
    return dict(ok=True, wall_s=wall, atoms=atoms, steps=steps, loop_s=loop, on=where,
                atom_steps_per_s=atoms * steps / loop, atom_steps_per_s_wall=atoms * steps / wall,
                command=" ".join(cmd))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpumd", default=os.environ.get("GPUMD_BIN"), help="GPUMD binary (or $GPUMD_BIN)")
    p.add_argument("--work", default=str(DEFAULT_WORK), help="folder written by make_inputs.py")
    p.add_argument("--only", default="", help="comma-separated substrings of problem names to run")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--molstep", default="", help="also run molstep (binary path) on the same problems")
    p.add_argument("--molstep-device", default="cuda", choices=["cuda", "cpu", "auto"])
    p.add_argument("--timeout", type=int, default=1800, help="seconds per run")
    p.add_argument("--json", default="", help="also append the JSON lines to this file")
    args = p.parse_args()

    gpumd = executable(args.gpumd, "GPUMD")
    molstep = executable(args.molstep, "molstep") if args.molstep else None
    work = Path(args.work).resolve()
    manifest = work / "manifest.json"
    if not manifest.is_file():
        sys.exit(f"error: {manifest} not found; run bench/gpumd/make_inputs.py --work {work} first")
    names = json.loads(manifest.read_text())["problems"]
    if args.only:
        keys = [k for k in args.only.split(",") if k]
        names = [n for n in names if any(k in n for k in keys)]
    if not names:
        sys.exit("error: no problems selected")

    out = open(args.json, "a") if args.json else None
    commit_file = ROOT / ".peers" / "gpumd" / "COMMIT"
    emit(dict(kind="header", gpumd=str(gpumd), molstep=str(molstep) if molstep else None,
              gpumd_commit=commit_file.read_text().strip() if commit_file.is_file() else None,
              gpu=gpu_name(), work=str(work), problems=names, repeats=args.repeats,
              date=time.strftime("%Y-%m-%d %H:%M:%S")), out)

    failures = 0
    molstep_done = {}  # molstep_key -> list of records (shared deck: run once)
    for name in names:
        folder = work / name
        info = json.loads((folder / "problem.json").read_text())
        base = dict(problem=name, family=info["family"], n=info["n"])
        best = {"gpumd": None, "molstep": None}
        key = info["molstep_key"]
        run_m = molstep is not None and key not in molstep_done
        for rep in range(args.repeats):
            rec = run_gpumd(gpumd, folder, info, args.timeout)
            emit(dict(kind="run", code="gpumd", repeat=rep, **base, **rec), out)
            if rec.get("ok"):
                if best["gpumd"] is None or rec["atom_steps_per_s"] > best["gpumd"]:
                    best["gpumd"] = rec["atom_steps_per_s"]
            else:
                failures += 1
            if run_m:
                mrec = run_molstep(molstep, args.molstep_device, folder, info, args.timeout)
                emit(dict(kind="run", code="molstep", repeat=rep, molstep_key=key, **base, **mrec), out)
                molstep_done.setdefault(key, []).append(mrec)
                if not mrec.get("ok"):
                    failures += 1
        if molstep is not None:
            rates = [r["atom_steps_per_s"] for r in molstep_done.get(key, []) if r.get("ok")]
            best["molstep"] = max(rates) if rates else None
            if best["gpumd"] and best["molstep"]:
                emit(dict(kind="ratio", **base, molstep_key=key, same_potential=info["same_potential"],
                          gpumd_best=best["gpumd"], molstep_best=best["molstep"],
                          molstep_over_gpumd=best["molstep"] / best["gpumd"]), out)
    if out:
        out.close()
    if failures:
        sys.exit(f"error: {failures} run(s) failed (see the JSON lines above and the *.log files)")


if __name__ == "__main__":
    main()
