#!/usr/bin/env python3
"""The moves with which duel let a won game go, as an EPD suite: reads the PGNs of `duel match`
games against Stockfish, takes the games duel drew or lost after the opponent's own value (the
comment on each of its moves, `+1.23/14 0.25s`) once put duel FROM pawns ahead, and has a
reference engine at full strength value each of duel's moves from there on. A move that takes
a position the reference values at WON cp or more down to KEPT cp or less is a win let go.

Each such position is written as an EPD line whose `bm` holds every move the reference's
MultiPV search values at WON cp or more (so any way of keeping the win counts), and whose `am`
holds the move duel played:

    r4rk1/... w - - bm Qd2 Qe1; am Rf7; id "sf2400-s3.pgn round 12 ply 57";

`duel suite let-go.epd --nodes N` then counts, at a fixed node count that the load on the
machine cannot move, how many of these wins a build keeps: a test for search changes aimed at
converting won positions (perpetual checks seen in time, counter-attacks not pruned away).

Needs python-chess (research/chess/install-python-tools.sh) and the reference engine
(scripts/install-engines.sh stockfish).

Usage: research/chess/let-go.py GAMES.pgn... [--out let-go.epd] [--from 2.0] [--won 150] [--kept 50]
       [--nodes 300000] [--multipv 8] [--engine /usr/games/stockfish]
"""

import argparse

from chesstools import comment_value, value  # first: it checks python-chess is installed

import chess
import chess.engine
import chess.pgn


def games_let_go(paths, engine_name, from_pawns):
    """(path, game, duel_white, first ply at which the opponent's value put duel ahead by
    from_pawns) for each finished game duel did not win."""
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                duel_white = game.headers.get("White", "").startswith(engine_name)
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                if result == ("1-0" if duel_white else "0-1"):
                    continue
                for ply, node in enumerate(game.mainline(), start=1):
                    if (ply % 2 == 1) == duel_white:
                        continue
                    v = comment_value(node.comment)
                    if v is not None and -v >= from_pawns:
                        yield path, game, duel_white, ply
                        break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--out", default="let-go.epd")
    ap.add_argument("--name", default="duel", help="the name duel's games give it (a prefix)")
    ap.add_argument("--from", dest="from_pawns", type=float, default=2.0,
                    help="the opponent's value for duel, in pawns, that marks a game as won")
    ap.add_argument("--won", type=int, default=150, help="cp the reference calls won")
    ap.add_argument("--kept", type=int, default=50, help="cp or less after duel's move: let go")
    ap.add_argument("--nodes", type=int, default=300000, help="reference nodes per value")
    ap.add_argument("--multipv", type=int, default=8, help="moves valued for the bm list")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    args = ap.parse_args()

    ref = chess.engine.SimpleEngine.popen_uci(args.engine)
    ref.configure({"Threads": 1, "Hash": 64})
    # Each game a new one for the reference (`game=`: python-chess sends ucinewgame when it
    # changes), so no game's table steers another's values.
    limit = chess.engine.Limit(nodes=args.nodes)
    lines, games, judged = [], 0, 0
    for path, game, duel_white, start in games_let_go(args.pgn, args.name, args.from_pawns):
        games += 1
        board = game.board()
        for ply, node in enumerate(game.mainline(), start=1):
            ours = (board.turn == chess.WHITE) == duel_white
            if ours and ply > start:
                judged += 1
                info = ref.analyse(board, limit, game=game)
                best, best_move = value(info), info["pv"][0]
                if best >= args.won and node.move != best_move:
                    played = value(ref.analyse(board, limit, root_moves=[node.move], game=game))
                    if played <= args.kept:
                        infos = ref.analyse(board, limit, multipv=args.multipv, game=game)
                        keep = [i["pv"][0] for i in infos if value(i) >= args.won]
                        keep = keep or [best_move]
                        if node.move not in keep:
                            bm = " ".join(board.san(m) for m in keep)
                            name = path.rsplit("/", 1)[-1]
                            tag = f"{name} round {game.headers.get('Round', '?')} ply {ply}"
                            lines.append(f"{board.epd()} bm {bm}; am {board.san(node.move)}; "
                                         f"c0 \"{best} -> {played}\"; id \"{tag}\";")
                            print(lines[-1], flush=True)
            board.push(node.move)
    ref.quit()
    with open(args.out, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{games} games let go, {judged} of duel's moves valued, {len(lines)} wins let go "
          f"written to {args.out}")


if __name__ == "__main__":
    main()
