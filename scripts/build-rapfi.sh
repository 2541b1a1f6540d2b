#!/usr/bin/env bash
# Builds Rapfi (GPL v3, dhbloo, github.com/dhbloo/rapfi), the Gomocup brain duel's Gomoku is
# measured against (docs/BENCHMARKS.md, "Gomoku against Rapfi"), from its public source, in a
# folder outside this repository: its code never enters duel. Needs git, g++ and cmake (from
# pip when Debian's is missing: `python3 -m pip install cmake`).
#
# Rapfi runs with no config file and no network: its built-in classical evaluation, as every
# figure in docs/BENCHMARKS.md was measured. The binary is linked as DIR/pbrain-rapfi, the
# name Piskvork and `duel match` look for.
#
# Usage: scripts/build-rapfi.sh [DIR]   (default: ~/engines/rapfi; the figures used 3aedf3a)
# Then:  PATH=DIR:$PATH duel match --game gomoku --second pbrain-rapfi --tc 1/move
set -euo pipefail

dir=${1:-$HOME/engines/rapfi}
if [ ! -d "$dir/.git" ]; then
  git clone https://github.com/dhbloo/rapfi "$dir"
fi
cd "$dir"
command -v cmake >/dev/null || { echo "cmake missing: python3 -m pip install cmake" >&2; exit 1; }
cmake -S Rapfi -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2
bin=$(find build -maxdepth 2 -type f -name 'pbrain-rapfi*' -perm -u+x | head -1)
[ -n "$bin" ] || { echo "no pbrain-rapfi binary under $dir/build" >&2; exit 1; }
ln -sfn "$PWD/$bin" pbrain-rapfi
echo "built: $dir/pbrain-rapfi"
