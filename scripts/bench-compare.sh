#!/usr/bin/env bash
# Compares the speed of duel builds on `duel bench GAME` when single runs are too noisy to
# trust (a virtual machine here spreads them ±15%): runs the builds alternately N times and
# prints each build's minimum and median time, and the median of the per-round time ratio
# of every build to the first. The builds must search the same nodes (a no-functional-change
# comparison); the node counts are checked.
#
# Usage: scripts/bench-compare.sh N GAME BUILD...   e.g. scripts/bench-compare.sh 20 chess /tmp/base target/release/duel
set -euo pipefail
n=$1 game=$2
shift 2
out=$(mktemp)
for _ in $(seq "$n"); do
  for b in "$@"; do
    line=$("$b" bench "$game" 2>&1 | grep "^$game: nodes")
    echo "$b $(sed 's/.*nodes \([0-9]*\), time \([0-9.]*\) ms.*/\1 \2/' <<<"$line")"
  done
done >"$out"
if [ "$(awk '{print $2}' "$out" | sort -u | wc -l)" -ne 1 ]; then
  echo "the builds searched different node counts: not a speed comparison" >&2
  awk '{print $1, $2}' "$out" | sort -u >&2
  exit 1
fi
python3 - "$out" "$@" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
builds = sys.argv[2:]
times = {b: [float(t) for (x, _, t) in rows if x == b] for b in builds}
for b in builds:
    t = times[b]
    line = f"{b}: min {min(t):.1f} ms, median {statistics.median(t):.1f} ms over {len(t)} runs"
    if b != builds[0]:
        ratios = [x / y for x, y in zip(t, times[builds[0]])]
        line += f", median paired ratio to {builds[0]} {statistics.median(ratios):.3f}"
    print(line)
PY
rm -f "$out"
