#!/usr/bin/env python3
"""Games duel did not win from a position its opponent itself judged lost: reads the PGNs of a
`duel match` against Stockfish (each move's comment starts with the mover's value in pawns,
`+1.23/14 0.25s`, or `+M5/...` for a mate) and counts, by how far the opponent's own value
once put duel ahead, duel's wins, draws and losses; then lists the draws and losses past
--list pawns with the ply of the opponent's best value for duel and how the game ended.

A stronger opponent's value is the better judge of who stood better: a draw from +2 by its
reckoning is a win duel let go (a missed perpetual check, a fortress, the fifty-move rule),
a different fault from a game lost in the opening.

Needs python-chess (research/chess/install-python-tools.sh).

Usage: research/chess/missed-wins.py GAMES.pgn... [--engine duel] [--list 2.0]
"""

import argparse
import collections

from chesstools import comment_value  # first: it checks python-chess is installed

import chess.pgn

ap = argparse.ArgumentParser()
ap.add_argument("pgn", nargs="+")
ap.add_argument("--engine", default="duel", help="the name duel's games give it (a prefix)")
ap.add_argument("--list", type=float, default=2.0, help="list draws and losses from this far ahead")
args = ap.parse_args()

games = []
for path in args.pgn:
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            duel_white = g.headers.get("White", "").startswith(args.engine)
            result = g.headers.get("Result", "*")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue  # unfinished: neither a win let go nor kept
            score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            if not duel_white and result != "1/2-1/2":
                score = 1 - score
            best, best_ply, ply, node = None, 0, 0, g
            while node.variations:
                node = node.variations[0]
                ply += 1
                if (ply % 2 == 1) == duel_white:
                    continue  # duel's own move: only the opponent's value counts
                mover = comment_value(node.comment)
                if mover is None:
                    continue
                v = -mover
                if best is None or v > best:
                    best, best_ply = v, ply
            if best is not None:
                games.append((score, best, best_ply, ply, g.headers.get("Termination", "?"), path,
                              g.headers.get("Round", "?")))

names = {1.0: "won", 0.5: "drawn", 0.0: "lost"}
print(f"{len(games)} games; by the opponent's best value for duel during the game:")
for at in (1.0, 1.5, 2.0, 3.0):
    c = collections.Counter(s for s, b, *_ in games if b >= at)
    print(f"  +{at:.1f} or more: {c[1.0]} won, {c[0.5]} drawn, {c[0.0]} lost")
print(f"drawn or lost from +{args.list:.1f} or more:")
for s, b, bp, n, term, path, rnd in games:
    if b >= args.list and s < 1:
        print(f"  {path} round {rnd}: {names[s]} ({term}, ply {n}); +{b:.2f} at ply {bp}")
