#!/usr/bin/python3
"""Extract thermo tables from a LAMMPS log file (standard library only).

Library use:
    import parse_log
    runs = parse_log.parse_log("log.lj.hp.100")   # list of runs
    runs[0]["columns"]  -> ["Step", "Temp", ...]
    runs[0]["rows"]     -> [[0, 1.44, ...], ...]
    parse_log.read_version("log.lj.100") -> "29 Sep 2021 - Update 2"
    parse_log.read_warnings("log.gen.mix") -> ["WARNING: ...", ...]

Command line:
    python3 parse_log.py LOG [--deck DECK] [--command CMD] [-o OUT.json]
writes {"deck", "command", "lammps_version", "columns", "rows", "warnings"}
as JSON (to OUT.json, or stdout).  If the log holds several runs with the
same columns, their rows are concatenated; a log with no run (e.g. a deck
that only does write_data) gives empty "columns" and "rows".

Thermo tables are recognised as: a header line whose first word is "Step"
(one-line-per-step thermo styles only, i.e. "one" and "custom" with step
first; "multi"/"yaml" are not supported), followed by lines of numbers with
the same count as the header, ended by the "Loop time of" line.  Lines in
between that are not all-numeric (warnings, etc.) are skipped.  Numbers are
parsed with int() for Step, float() otherwise, and json writes floats with repr(), so the
printed digits round-trip exactly.
"""

import json
import re
import sys

__all__ = ["parse_log", "read_version", "read_warnings", "log_to_json", "dumps"]


def _number(tok):
    try:
        return int(tok)
    except ValueError:
        return float(tok)


def _numeric_row(tokens, columns):
    """Step (and other integer counters) as int, everything else as float."""
    try:
        return [_number(t) if c in _INT_COLUMNS else float(t)
                for t, c in zip(tokens, columns)]
    except ValueError:
        return None


_INT_COLUMNS = {"Step", "Elapsed", "Atoms"}


def parse_log(path):
    """Return a list of runs: [{"columns": [...], "rows": [[...], ...]}, ...]."""
    runs = []
    current = None
    with open(path, "r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            tokens = line.split()
            if not tokens:
                continue
            if current is None:
                if tokens[0] == "Step" and len(tokens) > 1:
                    current = {"columns": tokens, "rows": []}
                continue
            if line.startswith("Loop time of"):
                runs.append(current)
                current = None
                continue
            if len(tokens) != len(current["columns"]):
                continue
            row = _numeric_row(tokens, current["columns"])
            if row is not None:
                current["rows"].append(row)
    if current is not None:  # truncated log (no "Loop time" line)
        runs.append(current)
    return runs


def read_version(path):
    """Version string from the first line, e.g. '29 Sep 2021 - Update 2'."""
    with open(path, "r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = re.match(r"\s*LAMMPS \((.*)\)\s*$", line)
            if m:
                return m.group(1)
    return None


def read_warnings(path):
    with open(path, "r", encoding="utf-8", errors="replace") as fh:
        return [l.strip() for l in fh if l.lstrip().startswith("WARNING")]


def log_to_json(path, deck=None, command=None):
    runs = parse_log(path)
    columns, rows = [], []
    for run in runs:
        if not columns:
            columns = run["columns"]
        elif run["columns"] != columns:
            raise ValueError("%s: runs with different thermo columns" % path)
        rows.extend(run["rows"])
    return {
        "deck": deck,
        "command": command,
        "lammps_version": read_version(path),
        "columns": columns,
        "rows": rows,
        "warnings": read_warnings(path),
    }


def dumps(doc):
    """JSON text with one thermo row per line (compact but diff-friendly)."""
    parts = []
    for key, val in doc.items():
        if key == "rows":
            body = ",\n  ".join(json.dumps(r) for r in val)
            parts.append('"rows": [\n  %s\n ]' % body if val else '"rows": []')
        else:
            parts.append("%s: %s" % (json.dumps(key), json.dumps(val)))
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def _main(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--deck")
    ap.add_argument("--command")
    ap.add_argument("-o", "--output")
    a = ap.parse_args(argv)
    doc = log_to_json(a.log, a.deck, a.command)
    text = dumps(doc)
    if a.output:
        with open(a.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
