#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start, part 1: installs what is missing, builds, and runs the demo deck (a 4,000-atom
# Lennard-Jones melt, examples/melt/in.melt) in build/demo/, then analyzes its trajectory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
mkdir -p "$root/build/demo"
cd "$root/build/demo"
"$root/build/molstep" md "$root/examples/melt/in.melt"
# The melt's trajectory, read once for four queries (g(r), gyration, MSD, distance histogram).
"$root/build/molstep" analyze melt.xtc --device cpu -q rdf:rmax=4,bins=80 -q rg -q msd -q sdh:width=0.1 --plot --out analysis
echo "demo output: $root/build/demo (log.molstep, log.molstep.thermo.jsonl, melt.dump, melt.xtc, analysis/)"
