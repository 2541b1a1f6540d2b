#!/usr/bin/env bash
# Builds ElephantEye 3.31 (LGPL, www.xqbase.com), the UCCI xiangqi engine duel is measured
# against (docs/BENCHMARKS.md "Xiangqi: equal-time matches"), from its public source, in a
# folder outside this repository: its code never enters duel. Needs git and g++.
#
# Usage: scripts/build-elephanteye.sh [DIR]   (default: ~/engines/eleeye)
# Then:  duel match --game xiangqi --second DIR/eleeye/eleeye --second-option usebook=false
set -euo pipefail

dir=${1:-$HOME/engines/eleeye}
if [ ! -d "$dir/.git" ]; then
  git clone --depth 1 https://github.com/xqbase/eleeye "$dir"
fi
cd "$dir/eleeye"
# The upstream makefile.sh's command, warnings silenced; -O2 where it says -O4.
g++ -DNDEBUG -O2 -w -o eleeye ../base/pipe.cpp ucci.cpp pregen.cpp position.cpp genmoves.cpp \
  hash.cpp book.cpp movesort.cpp preeval.cpp evaluate.cpp search.cpp eleeye.cpp
answer=$(printf 'ucci\nquit\n' | ./eleeye)
grep -q ucciok <<<"$answer" || { echo "ElephantEye did not answer ucciok" >&2; exit 1; }
echo "built: $dir/eleeye/eleeye"
