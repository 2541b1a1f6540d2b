"""`duel ucci` and `duel uci` for xiangqi, driven by cchess (PyPI), the library that Python
xiangqi GUIs and scripts use to run UCCI engines and Pikafish: a whole short game in each
protocol and dialect, every move checked by cchess's own board, and a refused position
answered with the protocol's no-move.

cchess starts an engine from a program's path alone, as many xiangqi GUIs do, so each
command line runs through a two-line launcher (the `launcher` fixture)."""

import re
import time
from contextlib import contextmanager

from cchess.board import ChessBoard
from cchess.engine import UcciEngine, UciEngine

# Red's two chariots against Black's general and advisor, Black to move: mate in a few moves.
ENDGAME = "3k5/4a4/9/9/9/9/9/9/9/RR2K4 b - - 0 1"


@contextmanager
def engine(kind, path):
    """A cchess engine started and ready; quit and reaped at the end."""
    e = kind()
    assert e.load(path), path
    try:
        assert e.wait_for_ready(timeout=30), f"{path}: no {e.ok_resp()}"
        yield e
    finally:
        e.running = False  # cchess's reader thread would spin on the closed pipe
        try:
            e.quit()
        finally:
            e.process.kill()
            e.process.wait(timeout=10)


def answer(e, timeout=60.0):
    """Reads the engine's lines until its move or its no-move: (that action, the info lines)."""
    end = time.time() + timeout
    infos = []
    while time.time() < end:
        a = e.get_action()
        if a is None:
            time.sleep(0.005)
            continue
        if a["action"] in ("bestmove", "dead", "draw"):
            return a, infos
        infos.append(a)
    raise AssertionError(f"no answer within {timeout}s")


def fairy_to_iccs(move):
    """Fairy-Stockfish's ranks (1-10) as ICCS's (0-9)."""
    return re.sub(r"\d+", lambda m: str(int(m.group()) - 1), move)


def play_out(e, go, to_iccs=lambda m: m, max_plies=30):
    """Plays ENDGAME to its end, the engine moving for both sides from the FEN cchess writes;
    returns the moves, ICCS."""
    board = ChessBoard(ENDGAME)
    played = []
    for _ in range(max_plies):
        e.go_from(board.to_full_fen(), go)
        a, infos = answer(e)
        if a["action"] == "dead":
            # No move: the side to move is mated (or stalemated, which loses too).
            assert board.no_moves(), f"{played}: {a['raw_msg']}"
            return played
        assert a["action"] == "bestmove", a
        assert any(i["action"] == "info_move" for i in infos), infos
        mv = to_iccs(a["move"])
        move = board.move_iccs(mv)
        assert move is not None, f"{mv} is no move in {board.to_full_fen()} after {played}"
        played.append(mv)
        board.next_turn()
    raise AssertionError(f"no end after {played}")


def refused(e, moves):
    """`go` after a position the engine must refuse: (its answer, the info lines before)."""
    e._send_cmd(f"position startpos moves {moves}")
    e._send_cmd("go depth 3")
    return answer(e)


def test_ucci_plays_a_game_and_refuses_a_position(launcher):
    with engine(UcciEngine, launcher("ucci")) as e:
        played = play_out(e, {"depth": 4})
        assert 2 <= len(played) <= 12, played
        # h3 is empty at the start in ICCS: the position is refused, and go has no move.
        a, infos = refused(e, "h3e3")
        assert a["action"] == "dead" and a["raw_msg"] == "nobestmove", a
        assert any("position refused" in i["raw_msg"] for i in infos), infos


def test_uci_in_pikafish_dialect_plays_a_game_and_refuses_a_position(launcher):
    with engine(UciEngine, launcher("uci", "--dialect", "pikafish")) as e:
        # Pikafish announces no UCI_Variant, and neither does its dialect.
        assert not any("UCI_Variant" in o for o in e.options), e.options
        played = play_out(e, {"nodes": 5000})
        assert 2 <= len(played) <= 12, played
        # Pikafish's no-move, which cchess reads as such.
        a, _ = refused(e, "h3e3")
        assert a["action"] == "dead" and a["raw_msg"] == "bestmove (none)", a


def test_uci_in_fairy_stockfish_dialect_plays_a_game_and_refuses_a_position(launcher):
    with engine(UciEngine, launcher("uci", "--game", "xiangqi")) as e:
        # A Fairy-Stockfish GUI names the game and counts ranks from 1: cchess does not, so
        # the test turns the engine's moves into ICCS as such a GUI does.
        assert any(o.startswith("option name UCI_Variant ") for o in e.options), e.options
        e.set_option("UCI_Variant", "xiangqi")
        played = play_out(e, {"depth": 4}, to_iccs=fairy_to_iccs)
        assert 2 <= len(played) <= 12, played
        # h2 in Fairy-Stockfish's count is ICCS's h1, empty at the start.
        a, _ = refused(e, "h2e2")
        assert a["raw_msg"] == "bestmove 0000", a
