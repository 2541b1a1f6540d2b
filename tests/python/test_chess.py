"""`duel uci` driven by python-chess (`chess.engine`), as scripts, lichess-bot and many
GUIs' back ends drive UCI engines: a short game at a node and a depth limit, each move
legal (python-chess checks it) and the head of the last line the engine printed before it."""

import chess
import chess.engine
import pytest


@pytest.fixture
def engine(duel_bin):
    e = chess.engine.SimpleEngine.popen_uci([duel_bin, "uci"], timeout=30)
    try:
        yield e
    finally:
        e.quit()


def searched(engine, board, limit):
    """Runs one search; (the move played, the principal variation of the last `info` line
    that had one)."""
    with engine.analysis(board, limit) as analysis:
        lines = [info["pv"] for info in analysis if "pv" in info]
        best = analysis.wait()
    assert lines, f"no info line with a pv in {board.fen()}"
    return best.move, lines[-1]


@pytest.mark.parametrize(
    "limit",
    [chess.engine.Limit(nodes=4000), chess.engine.Limit(depth=5)],
    ids=["nodes", "depth"],
)
def test_a_short_game_each_move_heads_the_last_line(engine, limit):
    assert engine.id["name"].startswith("duel")
    assert "Hash" in engine.options and "UCI_Variant" in engine.options
    engine.configure({"Hash": 16})
    board = chess.Board()
    for _ in range(16):
        move, pv = searched(engine, board, limit)
        assert move is not None and move in board.legal_moves, (move, board.fen())
        assert pv[0] == move, (move, pv, board.fen())
        board.push(move)
    # And to the end of a game: a mate in two, then the mated side has no move.
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    while not board.is_game_over():
        move, pv = searched(engine, board, limit)
        assert pv[0] == move, (move, pv, board.fen())
        board.push(move)
    assert board.is_checkmate() and len(board.move_stack) <= 3, board.move_stack
    result = engine.play(board, limit)
    assert result.move is None, result

