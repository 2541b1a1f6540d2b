#!/usr/bin/env python3
"""Positions labelled by another UCI engine's searches, as `FEN;?;value` lines for
`duel-train chess-nnue` (value: the engine's centipawns for White, mates at ±2000).

A measurement for the team's decision on where the net's labels may come from (nets/README.md,
"Labels from another engine"): the nets shipped so far learnt from duel's own searches only.

Games start with 6 to 10 uniformly random plies, then follow the engine's best move (one move
in twenty at random, for variety) until the value passes ±1000 or 300 plies. Each position not
in check whose best move is quiet is kept, as `duel-train chess-gen` keeps them, and half of
the positions, at random, also send a neighbour 1 to 3 random plies away to the engine, kept
the same way. The values are the engine's own centipawns: rescale them to duel's (the run of
nets/README.md used 0.8) and drop any line whose halfmove clock is past 99 before training.

Needs python-chess (research/chess/install-python-tools.sh) and the engine
(scripts/install-engines.sh stockfish).

Usage: research/chess/engine-labels.py OUT SEED NODES [ENGINE]   (appends to OUT until stopped)
"""

import random
import sys
import time

import chess
import chess.engine

out_path, seed, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
engine_path = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish"
rng = random.Random(seed)
eng = chess.engine.SimpleEngine.popen_uci(engine_path)
eng.configure({"Threads": 1, "Hash": 16})


def white_cp(info):
    sc = info.get("score")
    if sc is None:
        return None
    return int(max(-2000, min(2000, sc.white().score(mate_score=2000))))


def quiet(board, mv):
    return not board.is_capture(mv) and mv.promotion is None


def label(board):
    return eng.analyse(
        board,
        chess.engine.Limit(nodes=nodes),
        info=chess.engine.INFO_SCORE | chess.engine.INFO_PV,
    )


out = open(out_path, "a")
n = 0
t0 = time.time()
while True:
    b = chess.Board()
    for _ in range(rng.randint(6, 10)):
        ms = list(b.legal_moves)
        if not ms:
            break
        b.push(rng.choice(ms))
    if b.is_game_over():
        continue
    ply = 0
    while not b.is_game_over(claim_draw=True) and ply < 300:
        info = label(b)
        pv = info.get("pv") or []
        best = pv[0] if pv else None
        v = white_cp(info)
        if best is None or v is None:
            break
        if not b.is_check() and quiet(b, best):
            out.write(f"{b.fen()};?;{v}\n")
            n += 1
        if rng.random() < 0.5:
            nb = b.copy(stack=False)
            for _ in range(rng.randint(1, 3)):
                ms = list(nb.legal_moves)
                if not ms:
                    break
                nb.push(rng.choice(ms))
            if not nb.is_game_over() and not nb.is_check():
                i2 = label(nb)
                pv2 = i2.get("pv") or []
                v2 = white_cp(i2)
                if pv2 and v2 is not None and quiet(nb, pv2[0]):
                    out.write(f"{nb.fen()};?;{v2}\n")
                    n += 1
        if abs(v) >= 1000:
            break
        mv = best if rng.random() > 0.05 else rng.choice(list(b.legal_moves))
        b.push(mv)
        ply += 1
    out.flush()
    el = time.time() - t0
    print(f"{n} positions, {n / el:.0f}/s", file=sys.stderr, flush=True)
