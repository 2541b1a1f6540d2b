#!/usr/bin/env python3
"""Mean, median and largest time per move of each player of a `duel match --game othello`
GGF file (`--pgn`), from the `//seconds` the arena writes after each move under a clock.

Usage: scripts/ggf-move-times.py GAMES.ggf

Players are told apart by their names (`PB`, `PW`); records without names (`PB[?]`, written
before the arena named the players) count the first engine as Black in the file's first
game and the colours as swapping every game, which holds for one game at a time only.
"""
import re
import statistics
import sys

games = [line for line in open(sys.argv[1]) if line.startswith("(;")]
times = {}
for i, game in enumerate(games):
    black = re.search(r"PB\[((?:\\.|[^\]\\])*)\]", game)
    white = re.search(r"PW\[((?:\\.|[^\]\\])*)\]", game)
    names = (black.group(1) if black else "?", white.group(1) if white else "?")
    if names == ("?", "?"):
        names = ("first", "second") if i % 2 == 0 else ("second", "first")
    for side, seconds in re.findall(r"([BW])\[[A-Za-z0-9]+//([0-9.]+)\]", game):
        times.setdefault(names[side == "W"], []).append(float(seconds))
for name, ts in sorted(times.items()):
    print(
        f"{name}: {len(ts)} moves, mean {statistics.mean(ts):.3f} s, "
        f"median {statistics.median(ts):.3f} s, max {max(ts):.3f} s"
    )
