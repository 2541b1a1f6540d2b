#!/usr/bin/env bash
# The long matches of issue 46: duel against itself over each protocol, GAMES games (1,000 by
# default) at a fast control, two games at a time, and every fault the arena can name counted
# against the engine that made it: losses on time, illegal moves, crashes and hangs (an engine
# silent 20 s past its flag), garbage answers. The aim is zero of each. Hours of CPU, so not
# CI: run it on an otherwise idle machine (two games at a time give each game a core), and
# copy the last line of each protocol into docs/BENCHMARKS.md.
#
#   scripts/long-matches.sh [GAMES] [PROTOCOL...]   protocols: uci nboard ucci gomocup (all)
#
# Environment: DUEL (the binary, default target/release/duel, built first), OUT (the folder for
# each protocol's log, results JSON and game records, default /tmp/duel-long), TC (default
# 1+0.01: one second a game and 10 ms a move, the control where time management is tightest).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
shift || true
protocols=("$@")
[ ${#protocols[@]} -gt 0 ] || protocols=(uci nboard ucci gomocup)
out=${OUT:-/tmp/duel-long}
tc=${TC:-1+0.01}
if [ -z "${DUEL:-}" ]; then
    cargo build --release -q -p duel-cli
    DUEL=$PWD/target/release/duel
fi
mkdir -p "$out"
for p in "${protocols[@]}"; do
    # Othello's random eight-ply openings that search keeps level are few (104 for 1,000
    # games): XOT's 10,784 lines give every pair of games its own.
    openings=()
    case $p in
        uci) game=chess ;;
        nboard) game=othello; openings=(--openings data/othello/xot-openings.txt) ;;
        ucci) game=xiangqi ;;
        gomocup) game=gomoku ;;
        *) echo "unknown protocol '$p' (uci, nboard, ucci or gomocup)" >&2; exit 2 ;;
    esac
    start=$(date +%s)
    "$DUEL" match --game "$game" \
        --first "$DUEL $p" --first-protocol "$p" \
        --second "$DUEL $p" --second-protocol "$p" \
        --tc "$tc" --games "$games" --concurrency 2 --seed "$games" "${openings[@]}" \
        --results "$out/$p.json" --pgn "$out/$p.record" > "$out/$p.log"
    took=$(( $(date +%s) - start ))
    python3 - "$out/$p.json" "$p" "$game" "$tc" "$took" <<'EOF'
import json, sys
path, protocol, game, tc, took = sys.argv[1:]
games = json.load(open(path))["games"]
kinds = {"time": "losses on time", "illegal": "illegal moves", "crash": "crashes or hangs",
         "garbage": "garbage answers"}
counts = {k: 0 for k in kinds}
for g in games:
    if g.get("fault"):
        counts[g["fault"]] += 1
faults = ", ".join(f"{counts[k]} {words}" for k, words in kinds.items())
print(f"{protocol} ({game}, {tc}, duel against itself, 2 at a time): {len(games)} games "
      f"in {int(took) // 60} min; {faults}")
EOF
done
