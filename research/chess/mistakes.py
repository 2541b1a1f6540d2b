#!/usr/bin/env python3
"""Would more search have saved duel's bad moves? Reads PGNs written by `duel match`, has a
reference UCI engine (Stockfish by default) value, for each of duel's moves in the games duel
lost, the best move and the move duel played; the moves that cost THRESHOLD cp or more, from a
position neither won nor lost, are its mistakes. Then duel searches each mistake's position
afresh at each node count of --duel-nodes, and the reference values the move it picks.

If duel avoids most mistakes at ten times the nodes, depth is what it lacks (search, speed);
if it repeats them, its evaluation misjudges the position.

Needs python-chess (research/chess/install-python-tools.sh) and the reference engine
(scripts/install-engines.sh stockfish).

Usage: research/chess/mistakes.py GAMES.pgn... [--duel "duel uci"] [--duel-option EvalFile=F.nnue]
       [--games 60] [--last-move 45] [--nodes 150000] [--threshold 50]
       [--duel-nodes 100000,1000000]
"""

import argparse
import shlex

from chesstools import value  # first: it checks python-chess is installed

import chess
import chess.engine
import chess.pgn


def option(text):
    name, sep, val = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE")
    return name, val


def node_counts(text):
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected positive node counts, e.g. 100000,1000000"
        )
    return counts


def lost_games(paths):
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                duel_white = game.headers["White"].startswith("duel")
                result = game.headers["Result"]
                if result == ("0-1" if duel_white else "1-0"):
                    yield game, duel_white


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--duel", default="duel uci", help="the command that runs duel's UCI loop")
    ap.add_argument("--duel-option", type=option, action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--games", type=int, default=60, help="lost games read, at most")
    ap.add_argument("--last-move", type=int, default=45, help="moves after this are skipped")
    ap.add_argument("--nodes", type=int, default=150000, help="reference nodes per value")
    ap.add_argument("--threshold", type=int, default=50, help="cp a mistake costs, at least")
    ap.add_argument("--duel-nodes", type=node_counts, default=[100000, 1000000])
    args = ap.parse_args()

    ref = chess.engine.SimpleEngine.popen_uci(args.engine)
    ref.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.nodes)

    def judged(board, move):
        return value(ref.analyse(board, limit, root_moves=[move]))

    mistakes, seen = [], 0
    for i, (game, duel_white) in enumerate(lost_games(args.pgn)):
        if i == args.games:
            break
        board = game.board()
        for node in game.mainline():
            ours = (board.turn == chess.WHITE) == duel_white
            if ours and board.fullmove_number <= args.last_move:
                best_info = ref.analyse(board, limit)
                best, best_move = value(best_info), best_info["pv"][0]
                # Decided positions are not where a game is lost.
                if -300 < best < 600:
                    seen += 1
                    played = best if node.move == best_move else judged(board, node.move)
                    if best - played >= args.threshold:
                        mistakes.append((board.copy(), node.move, best_move, best, played))
            board.push(node.move)
    print(f"{seen} positions of duel's, {len(mistakes)} mistakes of {args.threshold} cp or more")

    duel = chess.engine.SimpleEngine.popen_uci(shlex.split(args.duel))
    duel.configure(dict(args.duel_option))
    for n in args.duel_nodes:
        same = avoided = total = 0
        for board, played_move, best_move, best, played in mistakes:
            move = duel.play(board, chess.engine.Limit(nodes=n)).move
            if move == played_move:
                loss = best - played
                same += 1
            else:
                loss = 0 if move == best_move else best - judged(board, move)
            avoided += loss < args.threshold // 2
            total += loss
        k = max(1, len(mistakes))
        print(
            f"{n} nodes: the same move {same}/{len(mistakes)}, the mistake avoided (a loss below "
            f"{args.threshold // 2} cp) {avoided}/{len(mistakes)}, mean loss {total / k:.0f} cp"
        )
    ref.quit()
    duel.quit()


if __name__ == "__main__":
    main()
