#!/usr/bin/python3
"""Makes the MDAnalysis/ASE-written inputs and the peer references of molstep's DCD, XYZ,
LAMMPS dump, GRO, PDB and LAMMPS data readers (CI has neither MDAnalysis nor ASE).

    /usr/bin/python3 tests/data/traj/io_make_peers.py

Run io_make_lammps.sh first (it makes the LAMMPS files read here). This script
  1. writes inputs with the peers: dcd_mda_tric.dcd (MDAnalysis DCDWriter), xyz_ase_ext.xyz and
     xyz_ase_plain.xyz (ASE), gro_mda.gro and pdb_mda.pdb (MDAnalysis writers), and by hand
     (Python struct / text): the DCD variants dcd_be.dcd, dcd_marker8.dcd, dcd_fixed.dcd,
     dcd_xplor.dcd, dcd_charmm_matrix.dcd, and gro_hiprec.gro, pdb_hand.pdb;
  2. writes NAME.mda.txt / NAME.ase.txt: what MDAnalysis 2.4.2 / ASE 3.22.1 read from each file.

Reference text format (tests/io/traj_reference.hpp parses it):
    # comment lines
    natoms N
    columns NAME...            per-atom topology columns, then N lines of them (optional)
    frame I step S time T      per frame, then:
    dimensions a b c alpha beta gamma | dimensions none
    scalars key=value ...      (optional)
    atoms x [v] [f]            then N lines: x y z [vx vy vz] [fx fy fz]
Numbers are Python repr() of the values the peer returned (float32 values printed exactly).
"""
import os
import shutil
import struct
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import MDAnalysis as mda  # noqa: E402
from MDAnalysis.coordinates.DCD import DCDReader, DCDWriter  # noqa: E402
from MDAnalysis.coordinates.LAMMPS import DCDReader as LammpsDCDReader  # noqa: E402
import ase  # noqa: E402
import ase.io  # noqa: E402
from ase.calculators.singlepoint import SinglePointCalculator  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MDA = f"MDAnalysis {mda.__version__}"
ASE = f"ASE {ase.__version__}"


def num(v):
    return repr(float(v))


def frame_lines(i, step, time, dims, pos, vel=None, force=None, scalars=None):
    out = [f"frame {i} step {int(step)} time {num(time)}"]
    if dims is None or not np.any(np.asarray(dims)[:3] > 0):
        out.append("dimensions none")
    else:
        out.append("dimensions " + " ".join(num(v) for v in dims))
    if scalars:
        out.append("scalars " + " ".join(f"{k}={num(v)}" for k, v in scalars.items()))
    cols = ["x"] + (["v"] if vel is not None else []) + (["f"] if force is not None else [])
    out.append("atoms " + " ".join(cols))
    for k in range(len(pos)):
        row = list(pos[k]) + (list(vel[k]) if vel is not None else []) + (list(force[k]) if force is not None else [])
        out.append(" ".join(num(v) for v in row))
    return out


def write_ref(name, lines):
    with open(os.path.join(HERE, name), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("wrote", name)


def copy_tmp(tmp, name):
    # MDAnalysis writes offset caches next to trajectories; keep them out of the repository.
    dst = os.path.join(tmp, name)
    shutil.copy(os.path.join(HERE, name), dst)
    return dst


# ---------------------------------------------------------------- DCD

def make_mda_dcd(tmp):
    """4 frames of 20 atoms in a triclinic box that changes, written by MDAnalysis."""
    rng = np.random.default_rng(20261122)
    u = mda.Universe.empty(20, trajectory=True)
    path = os.path.join(tmp, "dcd_mda_tric.dcd")
    with DCDWriter(path, n_atoms=20, dt=2.0, remarks="molstep test: MDAnalysis DCDWriter") as w:
        for f in range(4):
            u.atoms.positions = rng.uniform(-5, 30, size=(20, 3)).astype(np.float32)
            u.dimensions = [20.0 + f, 22.5, 25.0 - 0.5 * f, 80.0 + f, 95.0, 110.0 - 2 * f]
            w.write(u.atoms)
    shutil.copy(path, os.path.join(HERE, "dcd_mda_tric.dcd"))
    print("wrote dcd_mda_tric.dcd")


def dcd_ref(tmp, name, lammps=False, script="io_make_peers.py"):
    path = copy_tmp(tmp, name)
    reader = LammpsDCDReader(path, timeunit="ps") if lammps else DCDReader(path)
    kind = "LAMMPS DCDReader timeunit=ps" if lammps else "DCDReader"
    lines = [f"# {MDA} ({kind}) reading {name} ({script})", f"natoms {reader.n_atoms}"]
    istart, nsavc = reader._file.header["istart"], reader._file.header["nsavc"]
    for ts in reader:
        dims = ts.dimensions
        lines += frame_lines(ts.frame, istart + ts.frame * nsavc, ts.time, dims, ts.positions)
    reader.close()
    write_ref(os.path.splitext(name)[0] + ".mda.txt", lines)


# Raw reading of a little-endian, 4-byte-marker CHARMM DCD into its parts, to write variants.
def parse_dcd(path):
    data = open(path, "rb").read()
    pos = 0

    def record():
        nonlocal pos
        (n,) = struct.unpack_from("<i", data, pos)
        body = data[pos + 4:pos + 4 + n]
        (m,) = struct.unpack_from("<i", data, pos + 4 + n)
        assert n == m
        pos += 8 + n
        return body

    header = record()
    title = record()
    natoms_rec = record()
    frames = []
    (natoms,) = struct.unpack("<i", natoms_rec)
    while pos < len(data):
        cell = record()
        xyz = [record(), record(), record()]
        frames.append((cell, xyz))
    return header, title, natoms, frames


def write_records(path, records, endian="<", marker="i"):
    with open(path, "wb") as fh:
        for body in records:
            fh.write(struct.pack(endian + marker, len(body)) + body + struct.pack(endian + marker, len(body)))


def swap_words(body, fmt):
    """Re-encodes a little-endian record of items `fmt` ('i', 'f' or 'd') as big-endian."""
    size = struct.calcsize(fmt)
    n = len(body) // size
    return struct.pack(f">{n}{fmt}", *struct.unpack(f"<{n}{fmt}", body))


def make_dcd_variants(tmp):
    header, title, natoms, frames = parse_dcd(os.path.join(HERE, "dcd_mda_tric.dcd"))
    natoms_rec = struct.pack("<i", natoms)

    # big-endian: every word swapped (header: CORD stays, ints and the float DELTA swapped)
    icntrl = list(struct.unpack("<20i", header[4:]))
    delta = struct.unpack("<f", header[40:44])[0]
    be_header = header[:4] + b"".join(
        struct.pack(">f", delta) if k == 9 else struct.pack(">i", v) for k, v in enumerate(icntrl))
    be_title = struct.pack(">i", struct.unpack("<i", title[:4])[0]) + title[4:]
    recs = [be_header, be_title, struct.pack(">i", natoms)]
    for cell, xyz in frames:
        recs.append(swap_words(cell, "d"))
        recs += [swap_words(r, "f") for r in xyz]
    write_records(os.path.join(HERE, "dcd_be.dcd"), recs, endian=">")

    # 8-byte record markers (old 64-bit gfortran), same content
    recs = [header, title, natoms_rec]
    for cell, xyz in frames:
        recs += [cell] + xyz
    write_records(os.path.join(HERE, "dcd_marker8.dcd"), recs, marker="q")

    # fixed atoms: atoms 3, 7 and 15 (1-based) fixed; later frames hold only the free atoms
    fixed = [3, 7, 15]
    free = [k for k in range(1, natoms + 1) if k not in fixed]
    hdr = bytearray(header)
    struct.pack_into("<i", hdr, 4 + 4 * 8, len(fixed))  # ICNTRL(9) = NAMNF
    recs = [bytes(hdr), title, natoms_rec, struct.pack(f"<{len(free)}i", *free)]
    for f, (cell, xyz) in enumerate(frames):
        recs.append(cell)
        for r in xyz:
            vals = struct.unpack(f"<{natoms}f", r)
            if f > 0:
                vals = [vals[k - 1] for k in free]
            recs.append(struct.pack(f"<{len(vals)}f", *vals))
    write_records(os.path.join(HERE, "dcd_fixed.dcd"), recs)

    # X-PLOR: ICNTRL(20) = 0, DELTA a double over ICNTRL(10..11), no unit cell records
    hdr = bytearray(header)
    struct.pack_into("<d", hdr, 40, float(delta))
    struct.pack_into("<i", hdr, 80, 0)
    recs = [bytes(hdr), title, natoms_rec]
    for cell, xyz in frames:
        recs += xyz
    write_records(os.path.join(HERE, "dcd_xplor.dcd"), recs)

    # CHARMM (c36 and later) unit cell: the symmetric box matrix [h11 h21 h22 h31 h32 h33] of
    # a cell whose lower-triangle has negative entries, which MDAnalysis recognises as a matrix
    recs = [header, title, natoms_rec]
    for f, (cell, xyz) in enumerate(frames):
        h = [30.0 + f, -4.0, 28.0, -3.0, 2.5, 26.0]
        recs += [struct.pack("<6d", *h)] + xyz
    write_records(os.path.join(HERE, "dcd_charmm_matrix.dcd"), recs)
    print("wrote dcd_be.dcd dcd_marker8.dcd dcd_fixed.dcd dcd_xplor.dcd dcd_charmm_matrix.dcd")


# ---------------------------------------------------------------- LAMMPS dumps

def dump_ref(tmp, name, convention, unwrap):
    path = copy_tmp(tmp, name)
    u = mda.Universe(path, format="LAMMPSDUMP", lammps_coordinate_convention=convention, unwrap_images=unwrap)
    order = np.argsort(u.atoms.ids)
    lines = [f"# {MDA} reading {name} (LAMMPSDUMP, lammps_coordinate_convention={convention}, "
             f"unwrap_images={unwrap}; io_make_peers.py)", f"natoms {u.atoms.n_atoms}", "columns type"]
    lines += [str(t) for t in u.atoms.types[order]]
    for ts in u.trajectory:
        vel = ts.velocities if ts.has_velocities else None
        force = ts.forces if ts.has_forces else None
        lines += frame_lines(ts.frame, ts.data["step"], ts.time, ts.dimensions, ts.positions, vel, force)
    write_ref(os.path.splitext(name)[0] + ".mda.txt", lines)


# ---------------------------------------------------------------- XYZ

def make_ase_xyz():
    rng = np.random.default_rng(7)
    symbols = ["O", "H", "H", "Cu", "Na", "Cl", "C", "N"]
    frames = []
    for f in range(3):
        a = ase.Atoms(symbols, positions=rng.uniform(0, 9, size=(8, 3)),
                      cell=[[9.0 + f, 0, 0], [1.5, 8.5, 0], [-0.75, 1.25, 10.0]], pbc=True)
        a.new_array("vel", rng.normal(size=(8, 3)))
        a.info["temperature"] = 300.0 + 12.5 * f
        a.info["step"] = 100 * f
        a.info["time"] = 0.25 * f
        a.info["label"] = "frame%d" % f
        a.calc = SinglePointCalculator(a, energy=-12.25 - f, forces=rng.normal(size=(8, 3)))
        frames.append(a)
    ase.io.write(os.path.join(HERE, "xyz_ase_ext.xyz"), frames, format="extxyz")
    plain = [ase.Atoms(["Ar", "Ar", "Kr"], positions=rng.uniform(-3, 3, size=(3, 3))) for _ in range(2)]
    ase.io.write(os.path.join(HERE, "xyz_ase_plain.xyz"), plain, format="xyz")
    print("wrote xyz_ase_ext.xyz xyz_ase_plain.xyz")


def xyz_ref(name, fmt):
    images = ase.io.read(os.path.join(HERE, name), index=":", format=fmt)
    lines = [f"# {ASE} reading {name} (format={fmt}; io_make_peers.py)", f"natoms {len(images[0])}",
             "columns element"]
    lines += images[0].get_chemical_symbols()
    for i, a in enumerate(images):
        dims = a.cell.cellpar() if a.cell.rank == 3 else None
        scalars = {k: v for k, v in a.info.items()
                   if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
                   and k not in ("step", "time")}
        if a.calc is not None and "energy" in a.calc.results:
            scalars["energy"] = a.calc.results["energy"]
        vel = a.arrays.get("vel")
        force = a.calc.results.get("forces") if a.calc is not None else None
        lines += frame_lines(i, a.info.get("step", 0), a.info.get("time", 0.0), dims, a.positions, vel, force,
                             scalars)
        if dims is not None:
            lines.append("box " + " ".join(num(v) for v in np.asarray(a.cell).ravel()))
    write_ref(os.path.splitext(name)[0] + ".ase.txt", lines)


# ---------------------------------------------------------------- GRO / PDB / data

NAMES = ["OW", "HW1", "HW2", "NA", "CL", "CA", "CB", "N", "HN", "SOD", "CLA", "MW", "C1", "O2", "FE", "ZN"]
RESNAMES = ["SOL", "SOL", "SOL", "NA", "CL", "ALA", "ALA", "ALA", "ALA", "SOD", "CLA", "TIP4", "LIG", "LIG", "HEM",
            "ZN"]


def make_structures(tmp):
    rng = np.random.default_rng(11)
    n = len(NAMES)
    u = mda.Universe.empty(n, n_residues=n, atom_resindex=np.arange(n), trajectory=True, velocities=True)
    u.add_TopologyAttr("names", NAMES)
    u.add_TopologyAttr("resnames", RESNAMES)
    u.add_TopologyAttr("resids", np.arange(1, n + 1) * 3)
    u.atoms.positions = rng.uniform(0, 40, size=(n, 3)).astype(np.float32)
    u.atoms.velocities = rng.normal(size=(n, 3)).astype(np.float32)
    u.dimensions = [41.0, 42.0, 43.0, 70.0, 80.0, 100.0]
    u.atoms.write(os.path.join(HERE, "gro_mda.gro"))
    # PDB: two models, the second moved, so that reading only the first can be checked
    u.add_TopologyAttr("elements", ["O", "H", "H", "Na", "Cl", "C", "C", "N", "H", "Na", "Cl", "", "C", "O", "Fe",
                                    "Zn"])
    path = os.path.join(tmp, "pdb_mda.pdb")
    with mda.Writer(path, n_atoms=n, multiframe=True) as w:
        w.write(u.atoms)
        u.atoms.positions += 5.0
        w.write(u.atoms)
    shutil.copy(path, os.path.join(HERE, "pdb_mda.pdb"))
    # GRO with 5 decimals (gmx editconf -ndec 5 style: %10.5f, velocities %10.6f)
    with open(os.path.join(HERE, "gro_hiprec.gro"), "w") as fh:
        fh.write("high precision test, t= 12.50000 step= 6250\n    3\n")
        rows = [(1, "SOL", "OW", 1, 0.12345, 1.23456, 2.34567, 0.101010, -0.202020, 0.303030),
                (1, "SOL", "HW1", 2, 10.5, -0.00001, 99.99999, 1.0, 2.0, -3.0),
                (2, "CL", "CL", 3, -1.25, 0.0, 3.5, 0.000001, 0.0, -0.5)]
        for r in rows:
            fh.write("%5d%-5s%5s%5d%10.5f%10.5f%10.5f%10.6f%10.6f%10.6f\n" % r)
        fh.write("   4.00000   5.00000   6.00000\n")
    # PDB by hand: HETATM, no element column, formal charges, the 1 1 1 placeholder CRYST1
    atom = "%-6s%5d %4s%1s%-4s%1s%4d%1s   %8.3f%8.3f%8.3f%6.2f%6.2f          %2s%-2s"
    lines = [
        "REMARK   hand-made for molstep tests",
        "CRYST1    1.000    1.000    1.000  90.00  90.00  90.00 P 1           1",
        atom % ("ATOM", 1, " N  ", " ", "ALA", "A", 1, " ", 11.104, 6.134, -6.504, 1, 0, " N", "1+"),
        atom % ("ATOM", 2, " CA ", " ", "ALA", "A", 1, " ", 11.639, 6.071, -5.147, 1, 0, " C", ""),
        atom % ("ATOM", 3, " OXT", " ", "ALA", "A", 1, " ", 12.0, 7.0, -4.0, 1, 0, " O", "1-"),
        atom % ("HETATM", 4, "ZN  ", " ", "ZN", "B", 100, " ", -1.5, 2.25, 3.125, 1, 0, "ZN", "2+"),
        (atom % ("HETATM", 5, "CL  ", " ", "CL", "D", 101, " ", 0.001, 0.002, 0.003, 1, 0, "", "")).rstrip(),
        (atom % ("HETATM", 6, " O  ", " ", "HOH", "C", 9999, " ", 20.0, -30.0, 40.0, 1, 0, "", "")).rstrip(),
        "END",
    ]
    with open(os.path.join(HERE, "pdb_hand.pdb"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("wrote gro_mda.gro pdb_mda.pdb gro_hiprec.gro pdb_hand.pdb")


def structure_ref(tmp, name, **kwargs):
    path = copy_tmp(tmp, name)
    u = mda.Universe(path, **kwargs)
    a = u.atoms
    cols = [("name", getattr(a, "names", None)), ("resname", getattr(a, "resnames", None)),
            ("resid", a.resids), ("type", getattr(a, "types", None)), ("mass", a.masses)]
    if hasattr(a, "elements"):
        cols.append(("element", a.elements))
    if hasattr(a, "charges"):
        cols.append(("charge", a.charges))
    if hasattr(a, "formalcharges"):
        cols.append(("formalcharge", a.formalcharges))
    cols = [(k, v) for k, v in cols if v is not None]
    extra = ", ".join(f"{k}={v}" for k, v in kwargs.items())
    lines = [f"# {MDA} reading {name} ({extra or 'default parser'}; io_make_peers.py)", f"natoms {a.n_atoms}",
             "columns " + " ".join(k for k, _ in cols)]
    for i in range(a.n_atoms):
        row = []
        for _, v in cols:
            x = v[i]
            row.append(num(x) if isinstance(x, (float, np.floating)) else (str(x) if str(x) != "" else "-"))
        lines.append(" ".join(row))
    ts = u.trajectory[0]
    vel = ts.velocities if ts.has_velocities else None
    lines += frame_lines(0, ts.data.get("step", 0), ts.time, ts.dimensions, ts.positions, vel)
    write_ref(os.path.splitext(name)[0] + ".mda.txt", lines)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        make_mda_dcd(tmp)
        make_dcd_variants(tmp)
        for name in ["dcd_mda_tric.dcd", "dcd_be.dcd", "dcd_fixed.dcd", "dcd_xplor.dcd", "dcd_charmm_matrix.dcd"]:
            dcd_ref(tmp, name)
        for name in ["dcd_lammps_ortho.dcd", "dcd_lammps_tri.dcd"]:
            dcd_ref(tmp, name, lammps=True)
        # MDAnalysis 2.4 adds image flags to scaled coordinates before scaling them and uses only
        # the box lengths for triclinic cells, so references use positions that need no images.
        dump_ref(tmp, "dump_ortho_x.lammpstrj", "unscaled", True)
        dump_ref(tmp, "dump_ortho_xu.lammpstrj", "unwrapped", False)
        dump_ref(tmp, "dump_ortho_xsu.lammpstrj", "scaled_unwrapped", False)
        dump_ref(tmp, "dump_tri_xu.lammpstrj", "unwrapped", False)
        make_ase_xyz()
        xyz_ref("xyz_ase_ext.xyz", "extxyz")
        xyz_ref("xyz_ase_plain.xyz", "xyz")
        make_structures(tmp)
        structure_ref(tmp, "gro_mda.gro")
        structure_ref(tmp, "pdb_mda.pdb")
        structure_ref(tmp, "pdb_hand.pdb")
        structure_ref(tmp, "data_charge.data", format="DATA", atom_style="id type charge x y z")
        structure_ref(tmp, "data_full_tri.data", format="DATA")
    return 0


if __name__ == "__main__":
    sys.exit(main())
