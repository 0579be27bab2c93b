#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages molstep builds with, if any is missing (apt-get; needs root or sudo).
set -euo pipefail
# OpenMPI: frame-parallel analysis (molstep analyze under mpirun) is built and tested with it.
packages=(g++ cmake ninja-build libgtest-dev libfmt-dev libcli11-dev nlohmann-json3-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
