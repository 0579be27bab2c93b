#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Quick start, part 1: installs what is missing, builds, and runs the demo deck (a 4,000-atom
# Lennard-Jones melt, examples/melt/in.melt) in build/demo/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
mkdir -p "$root/build/demo"
cd "$root/build/demo"
"$root/build/molstep" md "$root/examples/melt/in.melt"
echo "demo output: $root/build/demo (log.molstep, log.molstep.thermo.jsonl, melt.dump)"
