#!/usr/bin/env python3
"""How much worse than the best move, by a reference engine's judgment, are the moves duel
chooses? Samples positions from match PGNs (at most two a game, after --min-ply, with at most
--material points of pieces a side when given: knight and bishop 3, rook 5, queen 9), lets each
duel configuration choose a move at --nodes with a fresh table, and has the reference (Stockfish
by default, full strength) value the best move and the chosen one at --ref-nodes. Prints each
configuration's mean loss in cp (each loss capped at 300, so one lost mate does not swamp the
mean) and how often it threw away 100 cp or more of a position worth +100 or more.

Unlike research/chess/mistakes.py, which looks again at the moves that lost games, the positions
here are a sample, not a selection of failures, so configurations can be compared on them.
A fixed node count makes the choice independent of the load on the machine. It compares
evaluations, not searches: the shipped net lost 13.6, 14.6 and 14.8 cp a move at 200,000,
400,000 and 1,000,000 nodes on the same sample (docs/BENCHMARKS.md), where twice the time is
worth about 60 Elo in a match.

Needs python-chess (research/chess/install-python-tools.sh) and the reference engine
(scripts/install-engines.sh stockfish).

Usage: research/chess/move-loss.py GAMES.pgn... --config net --config strong:Evaluator=strong
       [--duel "duel uci"] [--positions 240] [--min-ply 40] [--material 8] [--nodes 200000]
       [--ref-nodes 300000] [--seed 7] [--engine /usr/games/stockfish]
"""

import argparse
import random
import shlex

from chesstools import value  # first: it checks python-chess is installed

import chess
import chess.engine
import chess.pgn

CAP = 300
POINTS = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def config(text):
    """NAME or NAME:OPTION=VALUE,OPTION=VALUE."""
    name, _, rest = text.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, sep, val = item.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"{item!r}: expected OPTION=VALUE")
        options[key] = val
    if not name:
        raise argparse.ArgumentTypeError(f"{text!r}: a configuration needs a name")
    return name, options


def material(board, color):
    return sum(len(board.pieces(p, color)) * v for p, v in POINTS.items())


def sample(paths, min_ply, most, count, rng):
    positions = []
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board, here = game.board(), []
                for ply, node in enumerate(game.mainline(), start=1):
                    if ply > min_ply and not board.is_game_over() and (
                        most is None
                        or max(material(board, c) for c in chess.COLORS) <= most
                    ):
                        here.append(board.fen())
                    board.push(node.move)
                rng.shuffle(here)
                positions += here[:2]
    rng.shuffle(positions)
    return positions[:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--config", type=config, action="append", required=True,
                    help="NAME[:OPTION=VALUE,...], a duel configuration (repeatable)")
    ap.add_argument("--duel", default="duel uci", help="the command that runs duel's UCI loop")
    ap.add_argument("--positions", type=int, default=240)
    ap.add_argument("--min-ply", type=int, default=40)
    ap.add_argument("--material", type=int, default=None,
                    help="at most this many points of pieces a side (8: endgames)")
    ap.add_argument("--nodes", type=int, default=200000, help="duel's nodes per move")
    ap.add_argument("--ref-nodes", type=int, default=300000, help="reference nodes per value")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    args = ap.parse_args()

    positions = sample(args.pgn, args.min_ply, args.material, args.positions,
                       random.Random(args.seed))
    print(f"{len(positions)} positions", flush=True)
    ref = chess.engine.SimpleEngine.popen_uci(args.engine)
    ref.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.ref_nodes)
    duels = {}
    for name, options in args.config:
        duels[name] = chess.engine.SimpleEngine.popen_uci(shlex.split(args.duel))
        duels[name].configure(options)
    losses = {name: [] for name in duels}
    drops = dict.fromkeys(duels, 0)
    for fen in positions:
        board = chess.Board(fen)
        info = ref.analyse(board, limit)
        best, best_move = value(info), info["pv"][0]
        for name, duel in duels.items():
            # A new game for every position (python-chess sends ucinewgame when `game` changes):
            # a fresh table, as in `duel suite`.
            move = duel.play(board, chess.engine.Limit(nodes=args.nodes), game=fen).move
            chosen = best if move == best_move else value(
                ref.analyse(board, limit, root_moves=[move]))
            losses[name].append(min(CAP, max(0, best - chosen)))
            drops[name] += best >= 100 and chosen <= best - 100
    for name in duels:
        n = max(1, len(losses[name]))
        print(f"{name}: mean loss {sum(losses[name]) / n:.1f} cp, "
              f"{drops[name]} drops of 100 cp or more from +100 or more")
    ref.quit()
    for duel in duels.values():
        duel.quit()


if __name__ == "__main__":
    main()
