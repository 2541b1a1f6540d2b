#!/usr/bin/env python3
"""How do the two engines of a `duel match` spend their clocks? Reads the PGNs the match wrote
(each move's comment ends with the seconds it took) and prints, per ten moves of the game, each
engine's mean time a move and the median time left on its clock after it.

An engine that spends its clock early plays its openings deeper and its endings on the
increment; one that saves it does the opposite. Against Stockfish's limited play the question
is where duel's time goes against where the games are lost (research/chess/loss-phases.py).

The clock is rebuilt from the comments: the base time, less each move's time, plus the
increment after each move. Moves without a time (the opening the match plays for both) are
skipped.

Needs python-chess (research/chess/install-python-tools.sh).

Usage: research/chess/clock-phases.py GAMES.pgn... [--base 10] [--increment 0.1] [--engine duel]
"""

import argparse
import collections
import re
import statistics
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: run research/chess/install-python-tools.sh")

TIME = re.compile(r"([\d.]+)s$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--base", type=float, default=10.0, help="seconds on each clock at the start")
    ap.add_argument("--increment", type=float, default=0.1, help="seconds added after each move")
    ap.add_argument(
        "--engine", default="duel", help="the first engine: the player whose name starts so"
    )
    args = ap.parse_args()
    spent = collections.defaultdict(lambda: ([], []))
    left = collections.defaultdict(lambda: ([], []))
    for path in args.pgn:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                ours_white = game.headers.get("White", "").startswith(args.engine)
                clock = [args.base, args.base]
                board = game.board()
                for node in game.mainline():
                    side = 0 if (board.turn == chess.WHITE) == ours_white else 1
                    moves = board.fullmove_number
                    board.push(node.move)
                    m = TIME.search(node.comment.strip())
                    if not m:
                        continue
                    t = float(m.group(1))
                    clock[side] += args.increment - t
                    decade = min(moves // 10 * 10, 100)
                    spent[decade][side].append(t)
                    left[decade][side].append(clock[side])
    if not spent:
        sys.exit("no timed moves in the PGNs")
    print(f"{'moves':>9}  {args.engine + ' s/move':>12} {'clock':>6}  {'other s/move':>12} {'clock':>6}  moves")
    for decade in sorted(spent):
        mine, theirs = spent[decade]
        row = f"{decade:3d}-{decade + 9 if decade < 100 else '':<5}"
        for times, clocks in zip((mine, theirs), left[decade]):
            if times:
                row += f"  {statistics.mean(times):12.3f} {statistics.median(clocks):6.2f}"
            else:
                row += f"  {'':>12} {'':>6}"
        print(f"{row}  {len(mine)}")


if __name__ == "__main__":
    main()
