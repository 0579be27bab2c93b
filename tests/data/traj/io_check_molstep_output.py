#!/usr/bin/python3
"""Has MDAnalysis and ASE read what molstep's DCD and XYZ writers wrote, and stores what they
read as references (the tests then check that molstep reads the same, and that the writers
still write these bytes).

    MOLSTEP_WRITE_IO_REFERENCES=1 build/tests/molstep_tests \
        --gtest_filter='DcdWriter.OutputMatches*:XyzWriter.OutputMatches*'   # writes the files
    /usr/bin/python3 tests/data/traj/io_check_molstep_output.py            # writes the references

Writes dcd_molstep.mda.txt (MDAnalysis DCDReader) and xyz_molstep.ase.txt (ASE extxyz), in the
format described in io_make_peers.py, and checks that MDAnalysis reads the DCD's steps,
times, positions and boxes as the test wrote them (VMD reads DCD files with the same
readdcd.h code MDAnalysis uses).
"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import io_make_peers as peers  # noqa: E402

from MDAnalysis.coordinates.DCD import DCDReader  # noqa: E402


def check_dcd(tmp):
    path = peers.copy_tmp(tmp, "dcd_molstep.dcd")
    r = DCDReader(path)
    assert r.n_atoms == 12 and r.n_frames == 3, (r.n_atoms, r.n_frames)
    for k, ts in enumerate(r):
        step = 100 + 10 * k
        assert abs(ts.time - 0.002 * step) < 1e-7, ts.time
        i = np.arange(12)
        want = np.stack([0.5 * i + 0.1 * k - 3.25, np.sin(i + k) * 7.0, 1.0 / (1.0 + i) + 12.0], axis=1)
        assert np.array_equal(ts.positions, want.astype(np.float32)), k
    r.close()
    r = DCDReader(path)
    dims = [ts.dimensions for ts in r]
    assert np.allclose(dims[0], [20, 22.5, 25, 80, 95, 110], atol=1e-4), dims[0]
    assert np.allclose(dims[1], [30, 31, 32.5, 90, 90, 90]), dims[1]
    assert dims[2] is None or not np.any(dims[2][:3] > 0), dims[2]
    r.close()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_dcd(tmp)
        peers.dcd_ref(tmp, "dcd_molstep.dcd", script="io_check_molstep_output.py")
    peers.xyz_ref("xyz_molstep.xyz", "extxyz")
    print("MDAnalysis and ASE read molstep's DCD and XYZ output as written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
