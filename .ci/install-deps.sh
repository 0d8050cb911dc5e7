#!/usr/bin/env bash
# Installs every Debian package Cairn needs to build, test, run the demo and benchmark.
# A no-op when all are present; uses sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libcglm-dev                       # engine: math
  libfyaml-dev                      # cairn_io: YAML
  libassimp-dev                     # cairn_io: mesh files (OBJ, glTF, PLY, STL)
  libcriterion-dev                  # tests
  libsdl2-dev libepoxy-dev libgl-dev libstb-dev   # viewer
  xvfb xauth libgl1-mesa-dri        # viewer without a display (screenshot under Xvfb + Mesa)
  libbullet-dev libccd-dev          # benchmarks: peers measured in the same run
  valgrind clang-format
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
