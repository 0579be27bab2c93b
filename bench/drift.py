#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Energy drift of a run from its thermo JSON lines (molstep's LOG.thermo.jsonl).

    bench/drift.py LOG.thermo.jsonl [...]

Prints, per file, the largest |E(t) - E(0)| / |E(0)| and the relative change over the run.
"""
import json
import sys

for path in sys.argv[1:]:
    rows = [json.loads(line) for line in open(path)]
    e0 = rows[0]["etotal"]
    worst = max(abs(r["etotal"] - e0) / abs(e0) for r in rows)
    print(json.dumps({"file": path, "steps": rows[-1]["step"] - rows[0]["step"], "etotal_start": e0,
                      "max_relative_drift": worst, "final_relative_change": (rows[-1]["etotal"] - e0) / abs(e0)}))
