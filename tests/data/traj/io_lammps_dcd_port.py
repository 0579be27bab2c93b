#!/usr/bin/python3
"""Writes the DCD file LAMMPS's `dump ID all dcd N FILE` would write, from a full-precision
custom dump of the same run (`dump ID all custom N SRC id x y z ix iy iz` with
`dump_modify ID sort id format float %.17g`).

    io_lammps_dcd_port.py SRC.lammpstrj OUT.dcd DT NEVERY [unwrap]

A port of LAMMPS src/EXTRA-DUMP/dump_dcd.cpp (write_dcd_header, write_header, pack,
write_frame), because the Debian LAMMPS binary has no EXTRA-DUMP package:
  * header record: 84, "CORD", NFILE (patched to the frame count), START = first timestep,
    SKIP = NEVERY, NSTEP (patched to the last timestep), 5 zeros, DELTA = dt as float32, 1 (unit
    cell flag), 8 zeros, 24 (CHARMM version), 84;
  * title record: 164, 2, "Written by LAMMPS" and "REMARKS Created ..." each blank-padded to 80
    (the date is fixed here so the file is reproducible), 164; then 4, natoms, 4;
  * per frame: 48, [a, cos(gamma), b, cos(beta), cos(alpha), c] from the h matrix (LAMMPS's own
    formulas), 48; X, Y, Z as float32 records of natoms*4 bytes, atoms sorted by id;
    `unwrap` adds the image flags as dump_modify unwrap yes does.
The h matrix is rebuilt from the dump's box bounds (xprd = xhi - xlo, with the bounding box of
a triclinic cell undone as in LAMMPS's Howto_triclinic), which can differ from LAMMPS's
internal value in the last bit.
"""
import math
import struct
import sys


def frames(path):
    with open(path) as fh:
        lines = iter(fh.read().splitlines())
    for line in lines:
        assert line.startswith("ITEM: TIMESTEP"), line
        step = int(next(lines))
        assert next(lines).startswith("ITEM: NUMBER OF ATOMS")
        n = int(next(lines))
        head = next(lines)
        assert head.startswith("ITEM: BOX BOUNDS")
        b = [[float(v) for v in next(lines).split()] for _ in range(3)]
        if "xy" in head.split():
            xy, xz, yz = b[0][2], b[1][2], b[2][2]
            xlo = b[0][0] - min(0.0, xy, xz, xy + xz)
            xhi = b[0][1] - max(0.0, xy, xz, xy + xz)
            ylo = b[1][0] - min(0.0, yz)
            yhi = b[1][1] - max(0.0, yz)
            triclinic = True
        else:
            xy = xz = yz = 0.0
            xlo, xhi, ylo, yhi = b[0][0], b[0][1], b[1][0], b[1][1]
            triclinic = False
        zlo, zhi = b[2][0], b[2][1]
        h = [xhi - xlo, yhi - ylo, zhi - zlo, yz, xz, xy]
        cols = next(lines).split()[2:]
        rows = [next(lines).split() for _ in range(n)]
        ix = {c: i for i, c in enumerate(cols)}
        atoms = []
        for r in rows:
            atoms.append((int(r[ix["id"]]), [float(r[ix[c]]) for c in "xyz"], [int(r[ix[c]]) for c in ("ix", "iy", "iz")]))
        atoms.sort()
        yield step, triclinic, h, atoms


def i32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def main():
    src, out, dt, nevery = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    unwrap = len(sys.argv) > 5 and sys.argv[5] == "unwrap"
    data = list(frames(src))
    natoms = len(data[0][3])
    first_step = data[0][0]
    buf = bytearray()
    buf += i32(84) + b"CORD" + i32(0) + i32(first_step) + i32(nevery) + i32(first_step)
    buf += i32(0) * 5 + struct.pack("<f", dt) + i32(1) + i32(0) * 8 + i32(24) + i32(84)
    buf += i32(164) + i32(2)
    buf += "Written by LAMMPS".ljust(80).encode()
    buf += "REMARKS Created 22 November,2026 at 15:00".ljust(80).encode()
    buf += i32(164) + i32(4) + i32(natoms) + i32(4)
    for step, triclinic, h, atoms in data:
        if triclinic:
            alen = h[0]
            blen = math.sqrt(h[5] * h[5] + h[1] * h[1])
            clen = math.sqrt(h[4] * h[4] + h[3] * h[3] + h[2] * h[2])
            dim = [alen, (h[0] * h[5]) / alen / blen, blen, (h[0] * h[4]) / alen / clen,
                   (h[5] * h[4] + h[1] * h[3]) / blen / clen, clen]
        else:
            dim = [h[0], 0.0, h[1], 0.0, 0.0, h[2]]
        buf += i32(48) + struct.pack("<6d", *dim) + i32(48)
        xyz = [[], [], []]
        for _, r, im in atoms:
            if unwrap:
                if triclinic:
                    r = [r[0] + im[0] * h[0] + im[1] * h[5] + im[2] * h[4],
                         r[1] + im[1] * h[1] + im[2] * h[3],
                         r[2] + im[2] * h[2]]
                else:
                    r = [r[0] + im[0] * h[0], r[1] + im[1] * h[1], r[2] + im[2] * h[2]]
            for d in range(3):
                xyz[d].append(r[d])
        for d in range(3):
            buf += i32(4 * natoms) + struct.pack(f"<{natoms}f", *xyz[d]) + i32(4 * natoms)
    # NFILE and NSTEP as write_frame() leaves them after the last frame
    buf[8:12] = i32(len(data))
    buf[20:24] = i32(data[-1][0])
    with open(out, "wb") as fh:
        fh.write(bytes(buf))


if __name__ == "__main__":
    main()
