#!/usr/bin/env bash
# What a refactor must not change, in one text: the bench signature, `duel analyze` of every
# game's start at 200,000 nodes (depth, score, nodes and line of each iteration, the best
# move), and a whole game of the engine against itself at 3,000 nodes a move in every game.
# Times and speeds are left out. Run it before and after; `diff` the two outputs.
#
#   scripts/refactor-fingerprint.sh [target/release/duel] > before.txt
set -euo pipefail
duel=${1:-target/release/duel}
"$duel" bench | grep '^Total nodes'
for game in tictactoe connect4 gomoku othello chess xiangqi; do
    echo "== analyze $game --nodes 200000"
    # depth, score, nodes, then the line (columns 4 and 5 are nodes/s and ms).
    "$duel" analyze "$game" --nodes 200000 | awk '$1 ~ /^[0-9]+$/ { $4 = ""; $5 = ""; print; next }
        /^best move/ { sub(/ in [0-9.]+ ms/, ""); print }'
    echo "== play $game --as none --nodes 3000"
    # The game's record where it has one (its Date left out), else every board drawn.
    record=$(mktemp -u)
    if "$duel" play "$game" --as none --nodes 3000 --record "$record" >/dev/null 2>&1; then
        grep -v '^\[Date ' "$record"
        rm -f "$record"
    else
        "$duel" play "$game" --as none --nodes 3000 | sed -E 's/, [0-9]+ ms\)/)/'
    fi
done
