#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the synthetic system and the MDAnalysis / NumPy reference results that
tests/analysis/test_queries_reference.cpp compares molstep's queries with.

Run from this directory with the Debian python3 that has MDAnalysis 2.4.2 and NumPy:
    /usr/bin/python3 make_mdanalysis_reference.py
Outputs (all plain text, numbers written with repr() so they read back exactly):
    system.txt        48 atoms, 12 frames, cubic box 10 A, dt 2 ps: per atom type, resid,
                      mass, charge; per frame and atom the unwrapped position (float32 values on
                      a 2^-16 A grid, as MDAnalysis stores them), the same wrapped into the box
                      (exactly), and a velocity
    rg.txt            per frame: Rg of all atoms and of type A (MDAnalysis radius_of_gyration)
    com.txt           per frame: centre of mass of all atoms (MDAnalysis center_of_mass)
    inertia.txt       per frame: Ixx Iyy Izz Ixy Ixz Iyz and the principal moments of all atoms
                      (MDAnalysis moment_of_inertia, numpy.linalg.eigvalsh)
    msd_xyz.txt, msd_xy.txt, msd_typeA.txt
                      per lag: lag time, MSD (MDAnalysis EinsteinMSD, fft=False) of the unwrapped
                      positions; the last line "# D slope" is numpy.polyfit over lags 2..5
                      (molstep's default window 0.1..0.5 of the longest lag 11), D = slope/(2 dims)
    rdf_all.txt, rdf_AB.txt
                      per bin: centre, count, g (MDAnalysis InterRDF, nbins 20, range 0..5) of the
                      wrapped positions, all-all and type A - type B
    vacf.txt          per lag: <v(t0).v(t0+tau)> (NumPy, direct average over atoms and origins)
"""
import math
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import MDAnalysis as mda  # noqa: E402
from MDAnalysis.analysis.msd import EinsteinMSD  # noqa: E402
from MDAnalysis.analysis.rdf import InterRDF  # noqa: E402
from MDAnalysis.coordinates.memory import MemoryReader  # noqa: E402

N, F, L, DT = 48, 12, 10.0, 2.0
rng = np.random.default_rng(20240607)
types = np.array(["A"] * 24 + ["B"] * 24)
resindex = np.arange(N) // 3
masses = rng.choice([1.008, 12.011, 15.999, 14.007], size=N)
charges = np.round(rng.normal(0.0, 0.4, size=N), 3)

start = rng.uniform(0.0, L, size=(1, N, 3))
steps = rng.normal(0.0, 0.35, size=(F - 1, N, 3))
# Positions on a grid of 2^-16 A: with |x| < 128 every such value, and the same value wrapped
# into the box, is exactly a float32, so wrapping loses nothing and nojump unwrapping of the
# wrapped positions reproduces the unwrapped ones exactly.
unwrapped = np.round((np.concatenate([start, start + np.cumsum(steps, axis=0)])) * 65536) / 65536
assert np.all(np.abs(unwrapped) < 128)
unwrapped = unwrapped.astype(np.float32)
u64 = unwrapped.astype(np.float64)
wrapped = (u64 - L * np.floor(u64 / L)).astype(np.float32)
assert np.array_equal(wrapped.astype(np.float64), u64 - L * np.floor(u64 / L))
assert np.all(wrapped >= 0) and np.all(wrapped < L)
velocities = rng.normal(0.0, 1.0, size=(F, N, 3))


def universe(coordinates):
    u = mda.Universe.empty(N, n_residues=N // 3, atom_resindex=resindex, trajectory=False)
    u.add_TopologyAttr("masses", masses)
    u.add_TopologyAttr("charges", charges)
    u.add_TopologyAttr("types", types)
    u.load_new(coordinates, format=MemoryReader, dimensions=np.array([L, L, L, 90, 90, 90], dtype=np.float32),
               dt=DT)
    return u


def r(x):
    return repr(float(x))


with open("system.txt", "w") as out:
    out.write(f"natoms {N} frames {F} box {r(L)} dt {r(DT)}\n")
    for i in range(N):
        out.write(f"{types[i]} {resindex[i] + 1} {r(masses[i])} {r(charges[i])}\n")
    for f in range(F):
        out.write(f"frame {r(f * DT)}\n")
        for i in range(N):
            out.write(" ".join(r(v) for v in (*unwrapped[f, i], *wrapped[f, i], *velocities[f, i])) + "\n")

uu = universe(unwrapped)
everything = uu.atoms
type_a = uu.select_atoms("type A")
with open("rg.txt", "w") as rg, open("com.txt", "w") as com, open("inertia.txt", "w") as inertia:
    for ts in uu.trajectory:
        rg.write(f"{r(everything.radius_of_gyration())} {r(type_a.radius_of_gyration())}\n")
        com.write(" ".join(r(v) for v in everything.center_of_mass()) + "\n")
        tensor = everything.moment_of_inertia()
        principal = np.sort(np.linalg.eigvalsh(tensor))
        values = [tensor[0, 0], tensor[1, 1], tensor[2, 2], tensor[0, 1], tensor[0, 2], tensor[1, 2], *principal]
        inertia.write(" ".join(r(v) for v in values) + "\n")

lags = np.arange(F)
window = slice(math.ceil(0.1 * (F - 1)), math.floor(0.5 * (F - 1)) + 1)
for name, select, msd_type in (("msd_xyz", "all", "xyz"), ("msd_xy", "all", "xy"), ("msd_typeA", "type A", "xyz")):
    m = EinsteinMSD(uu, select=select, msd_type=msd_type, fft=False).run()
    series = m.results.timeseries
    times = lags * DT
    slope = np.polyfit(times[window], series[window], 1)[0]
    with open(f"{name}.txt", "w") as out:
        for t, v in zip(times, series):
            out.write(f"{r(t)} {r(v)}\n")
        out.write(f"# D {r(slope / (2 * len(msd_type)))}\n")

uw = universe(wrapped)
for name, s1, s2 in (("rdf_all", "all", "all"), ("rdf_AB", "type A", "type B")):
    g1, g2 = uw.select_atoms(s1), uw.select_atoms(s2)
    rdf = InterRDF(g1, g2, nbins=20, range=(0.0, 5.0)).run()
    # Independent check of InterRDF's counts: float64 minimum-image distances of the same
    # float32 positions, self pairs included as InterRDF counts them.
    check = np.zeros(20)
    for f in range(F):
        d = wrapped[f][g2.indices][None, :, :].astype(np.float64) - wrapped[f][g1.indices][:, None, :]
        d -= L * np.round(d / L)
        dist = np.sqrt((d * d).sum(axis=-1)).ravel()
        check += np.histogram(dist, bins=20, range=(0.0, 5.0))[0]
    assert np.array_equal(check, rdf.results.count), (name, check, rdf.results.count)
    with open(f"{name}.txt", "w") as out:
        for b, c, g in zip(rdf.results.bins, rdf.results.count, rdf.results.rdf):
            out.write(f"{r(b)} {r(c)} {r(g)}\n")

with open("vacf.txt", "w") as out:
    for lag in range(F):
        dots = (velocities[: F - lag] * velocities[lag:]).sum(axis=-1)
        out.write(f"{r(lag * DT)} {r(dots.mean())}\n")
