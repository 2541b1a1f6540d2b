#!/usr/bin/env python3
"""Where does duel lose its games? Reads a PGN written by `duel match`, asks a reference UCI
engine (Stockfish by default) for the value of every position of each game duel lost, and
prints, per game, the move from which duel's position stayed lost (the reference's value
below -LOST cp for the rest of the game), the material on the board then, and the value just
before; then how many losses fall in the opening, the middlegame and the endgame.

A loss that starts with a sudden fall (a value near level, then far below) is a tactical miss;
a slow slide through -50, -100, -150 is being outplayed. The figures answer which the engine
needs more: search or evaluation.

Needs python-chess (research/chess/install-python-tools.sh) and the reference engine
(scripts/install-engines.sh stockfish).

Usage: research/chess/loss-phases.py GAMES.pgn [--engine /usr/games/stockfish] [--nodes 50000]
"""

import argparse
import sys

from chesstools import MATE  # first: it checks python-chess is installed

import chess
import chess.engine
import chess.pgn

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board):
    return sum(len(board.pieces(p, c)) * v for p, v in VALUES.items() for c in chess.COLORS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=50000, help="nodes per position")
    ap.add_argument("--lost", type=int, default=150, help="cp below which a position is lost")
    ap.add_argument("--opening", type=int, default=20, help="last move number of the opening")
    ap.add_argument("--endgame", type=int, default=30,
                    help="material (pawn 1, minor 3, rook 5, queen 9, both sides) at or below "
                         "which it is the endgame")
    ap.add_argument("--name", default="duel", help="duel's player name starts with this")
    a = ap.parse_args()

    try:
        pgn = open(a.pgn)
    except OSError as e:
        sys.exit(f"cannot read {a.pgn}: {e.strerror}")
    try:
        engine = chess.engine.SimpleEngine.popen_uci(a.engine)
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"cannot start the engine {a.engine}: {e}")
    engine.configure({"Threads": 1})
    limit = chess.engine.Limit(nodes=a.nodes)
    phases = {"opening": 0, "middlegame": 0, "endgame": 0}
    falls = []
    with pgn as f:
        while (game := chess.pgn.read_game(f)) is not None:
            duel_white = game.headers.get("White", "").startswith(a.name)
            result = game.headers.get("Result")
            if result not in ("1-0", "0-1") or (result == "1-0") == duel_white:
                continue
            duel = chess.WHITE if duel_white else chess.BLACK
            board = game.board()
            # (move number, material, value for duel) after each of duel's moves.
            after = []
            for move in game.mainline_moves():
                mover = board.turn
                number = board.fullmove_number
                board.push(move)
                if mover == duel:
                    info = engine.analyse(board, limit)
                    value = info["score"].pov(duel).score(mate_score=MATE)
                    after.append((number, material(board), value))
            start = next((i for i in range(len(after))
                          if all(v < -a.lost for _, _, v in after[i:])), None)
            if start is None:
                continue
            number, mat, value = after[start]
            before = after[start - 1][2] if start > 0 else 0
            phase = ("opening" if number <= a.opening
                     else "endgame" if mat <= a.endgame else "middlegame")
            phases[phase] += 1
            falls.append(before - value)
            print(f"round {game.headers.get('Round', '?')}: lost from move {number} "
                  f"({phase}, material {mat}): {before:+d} -> {value:+d} cp", flush=True)
    engine.quit()
    n = sum(phases.values())
    print(f"{n} losses: " + ", ".join(f"{k} {v}" for k, v in phases.items()))
    if falls:
        sudden = sum(1 for d in falls if d >= 200)
        print(f"lost by a fall of 200 cp or more in one move: {sudden}; "
              f"by a slide: {n - sudden}")


if __name__ == "__main__":
    main()
