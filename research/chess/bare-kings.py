#!/usr/bin/env python3
"""Does an engine mate a bare king? Plays random endings of a lone king against mating
material (queen, rook, two bishops of both colours, bishop and knight, rook and bishop), one
UCI engine on both sides at a node limit per move, until mate, a draw by rule, or the
fifty-move count; prints how many of each ending were mated and in how many plies.

The positions come from --seed alone, so two builds given the same seed play the same ones.
The lone king is never in check and never touches a piece at the start, so no piece is lost
at once; the side to move is random.

Needs python-chess (research/chess/install-python-tools.sh).

Usage: research/chess/bare-kings.py "ENGINE COMMAND" [--nodes 20000] [--seed 6] [--per-ending 20]
"""

import argparse
import random
import shlex
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: run research/chess/install-python-tools.sh")

ENDINGS = {
    "queen": [chess.QUEEN],
    "rook": [chess.ROOK],
    "two bishops": [chess.BISHOP, chess.BISHOP],
    "bishop and knight": [chess.BISHOP, chess.KNIGHT],
    "rook and bishop": [chess.ROOK, chess.BISHOP],
}


def colour(square):
    return (chess.square_file(square) + chess.square_rank(square)) % 2


def random_position(rng, pieces):
    while True:
        squares = rng.sample(range(64), 2 + len(pieces))
        board = chess.Board(None)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, piece in zip(squares[2:], pieces):
            board.set_piece_at(square, chess.Piece(piece, chess.WHITE))
        # Two bishops of one colour cannot force mate.
        if pieces.count(chess.BISHOP) == 2 and colour(squares[2]) == colour(squares[3]):
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        lone = board.king(chess.BLACK)
        touching = any(chess.square_distance(lone, s) == 1 for s in squares[2:])
        if board.is_valid() and not board.is_check() and not touching:
            return board


def play_out(engine, board, nodes):
    """Plays the ending to its end; returns the plies played if Black is mated, else None."""
    game = object()  # one game: the engine keeps its table from move to move
    plies = 0
    # A threefold repetition or fifty moves without a capture end it, as in a real game.
    while not board.is_game_over() and not board.is_repetition(3) and board.halfmove_clock < 100:
        result = engine.play(board, chess.engine.Limit(nodes=nodes), game=game)
        if result.move is None:
            break
        board.push(result.move)
        plies += 1
    return plies if board.is_checkmate() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", help='the UCI engine\'s command line, e.g. "duel uci"')
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--per-ending", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    mated_all = 0
    try:
        for name, pieces in ENDINGS.items():
            mated = []
            for _ in range(args.per_ending):
                plies = play_out(engine, random_position(rng, pieces), args.nodes)
                if plies is not None:
                    mated.append(plies)
            mean = sum(mated) / len(mated) if mated else 0
            print(f"{name}: {len(mated)} of {args.per_ending} mated, in {mean:.1f} plies on average",
                  flush=True)
            mated_all += len(mated)
    finally:
        engine.quit()
    print(f"all: {mated_all} of {args.per_ending * len(ENDINGS)} mated")


if __name__ == "__main__":
    main()
