#!/usr/bin/env python3
"""Mean, median and largest time per move of each player of a `duel match --game othello`
GGF file (`--pgn`), from the `//seconds` the arena writes after each move under a clock.

Usage: scripts/ggf-move-times.py GAMES.ggf

The first engine plays Black in the first game and the colours swap every game, as the arena
schedules them (each opening twice).
"""
import re
import statistics
import sys

games = [line for line in open(sys.argv[1]) if line.startswith("(;")]
first, second = [], []
for i, game in enumerate(games):
    first_is_black = i % 2 == 0
    for side, seconds in re.findall(r"([BW])\[[A-Za-z0-9]+//([0-9.]+)\]", game):
        (first if (side == "B") == first_is_black else second).append(float(seconds))
for name, times in (("first", first), ("second", second)):
    if not times:
        print(f"{name}: no timed moves")
        continue
    print(
        f"{name}: {len(times)} moves, mean {statistics.mean(times):.3f} s, "
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s"
    )
