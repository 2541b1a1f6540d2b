#!/usr/bin/env bash
# Builds NTest (GPL v3, Chris Welty and Vlad Petric, github.com/weltyc/ntest), the NBoard
# Othello engine duel is measured against (issue 45, "Othello strength"), from its public
# source, in a folder outside this repository: its code never enters duel. Needs git, g++
# (C++11) and an x86-64 CPU with SSE4.2/popcnt; upstream's build.sh wants cmake, so this
# compiles the same sources with the same flags directly.
#
# NTest runs with its own coefficients (JA) and no opening book: the parameters.txt written
# here turns the book off (upstream's enables a learning book) and sets contempt to 0
# (upstream's is 100). NTest reads everything from its working directory, so DIR/run holds the
# binary, its resources and `ntest-nboard`, which starts it there in NBoard mode (`x`).
# NBoard sets only `depth` (and `contempt`); NTest has no clock in that mode.
#
# Usage: scripts/build-ntest.sh [DIR]   (default: ~/engines/ntest)
# Then:  duel match --game othello --second DIR/run/ntest-nboard --second-protocol nboard \
#          --depth 8 --openings data/othello/xot-openings.txt
set -euo pipefail

dir=${1:-$HOME/engines/ntest}
if [ ! -d "$dir/.git" ]; then
  git clone --depth 1 https://github.com/weltyc/ntest "$dir"
fi
cd "$dir/src"
# src/CMakeLists.txt's flags and libraries, without its test and tool mains.
sources=$(ls ./*.cpp odk/*.cpp n64/*.cpp pattern/*.cpp core/*.cpp game/*.cpp |
  grep -v -e randomEvalGen.cpp -e bitExtractTestMain.cpp -e randomPlayMain.cpp)
# shellcheck disable=SC2086
g++ -D_M_AMD64 -m64 -msse4.2 -pthread -O3 -std=c++0x -w -o ntest $sources

mkdir -p ../run
cd ../run
cp ../src/ntest .
ln -sfn ../src/resource/coefficients coefficients
ln -sfn ../src/resource/resource resource
ln -sf ../src/resource/TestGames.ggf TestGames.ggf
# Cache MB and GHz; then computers 1 and 2: eval, coefficient set, search (overridden by
# `set depth`), contempts, random shifts, use book, negamax book, print flags.
cat >parameters.txt <<'EOF'
75 2.4
JA s26 0 0 0 0 0 0 -1 0
JA s26 0 0 0 0 0 0 -1 0
BookWriteFormat 2
EOF
cat >ntest-nboard <<'EOF'
#!/bin/sh
cd "$(dirname "$0")" && exec ./ntest x
EOF
chmod +x ntest-nboard

answer=$(printf 'nboard 2\nset depth 4\nping 1\nquit\n' | timeout 60 ./ntest-nboard)
grep -q '^pong 1' <<<"$answer" || { echo "NTest did not answer pong 1" >&2; exit 1; }
echo "built: $dir/run/ntest-nboard"
