"""`duel gomocup` driven by pygomo (PyPI `pygomo-lib`), a client library for Gomocup
brains written against Rapfi: a whole game between two duel brains, the search's MESSAGE
lines read by pygomo's parser (Rapfi's layout), STOP answered in step, and Yixin Board's
extensions (YXBOARD, YXNBEST, YXSHOWFORBID, YXHASHCLEAR, YXSHOWINFO, YXBLOCK)."""

import threading
import time
from contextlib import contextmanager

from pygomo import BoardPosition, EngineClient, Move
from pygomo.board import BitBoard, RenjuBitBoard


@contextmanager
def brain(duel_bin, *infos):
    """A started brain on a 15x15 board, the `INFO` lines sent; ended at the end."""
    e = EngineClient(duel_bin, args=["gomocup", "--hash", "8"])
    e.connect()
    try:
        assert e.start(15, timeout=30)
        for key, value in infos:
            e.execute("INFO", key, value)
        yield e
    finally:
        e.quit()


def quiet(e, wait=0.3):
    """Whatever the brain says within `wait` seconds: its lines by pygomo's channel, the
    channels with none left out."""
    time.sleep(wait)
    got = {c: e.router.get_all(c) for c in e.router.channels}
    return {c: lines for c, lines in got.items() if lines}


def exchange(e, line, channel, timeout=30.0):
    """Sends a raw line and returns the next line of `channel`."""
    e.send_raw(line)
    got = e.receive_raw(channel, timeout=timeout)
    assert got, f"{line}: nothing on {channel}: {quiet(e)}"
    return got


def test_a_whole_game_between_two_brains(duel_bin):
    limits = [("TIMEOUT_TURN", 5000), ("MAX_NODE", 3000)]
    with brain(duel_bin, *limits) as black, brain(duel_bin, *limits) as white:
        board = BitBoard()
        searched = 0
        result = black.begin(timeout=60)
        movers = [black, white]
        for ply in range(15 * 15):
            assert result is not None, f"no move at ply {ply}"
            mv = result.move
            assert board.place(mv), f"{mv} is taken or off the board at ply {ply}"
            # Every iteration's MESSAGE reads with Rapfi's layout: depth, nodes and speed (a
            # win the solver sees at once takes no node, as Rapfi's moves without a search).
            assert result.all_info, f"no MESSAGE at ply {ply}"
            last = result.search_info
            assert last.depth >= 1, last
            # Only a mate (the solver's, before the search) may come without a node; a search
            # may prove a mate too, and then it counts as searched.
            if last.nodes >= 1:
                assert last.nps >= 1, last
                searched += 1
            else:
                assert last.eval.is_mate(), last
            # The move played heads the last line shown.
            assert last.pv and last.pv[0] == mv, (mv, last)
            if board.check_win(mv):
                break
            result = movers[(ply + 1) % 2].turn(mv, timeout=60)
        else:
            raise AssertionError("the board filled up")
        assert board.move_count >= 9 and searched >= board.move_count // 2, searched


def test_stop_answers_the_move_at_once_and_in_step(duel_bin):
    with brain(duel_bin, ("TIMEOUT_TURN", 60000)) as e:
        got = {}
        thinking = threading.Thread(target=lambda: got.update(r=e.turn("h8", timeout=30)))
        thinking.start()
        time.sleep(0.5)
        t0 = time.time()
        e.stop()
        thinking.join(timeout=30)
        assert time.time() - t0 < 5, time.time() - t0
        assert got["r"] is not None and on_a_free_point(got["r"].move, ["h8"])
        # A STOP (or YXSTOP) after the move stops nothing and says nothing: the next answer is
        # the next command's.
        e.send_raw("STOP")
        e.send_raw("YXSTOP")
        assert e.about(timeout=10).startswith('name="duel"')
        assert quiet(e) == {}


def on_a_free_point(move, taken):
    """Whether `move` is on the 15x15 board and not one of `taken` (`h8`...)."""
    return 0 <= move.col < 15 and 0 <= move.row < 15 and str(move) not in taken


def position(*stones):
    """A BoardPosition from (point, field) pairs."""
    p = BoardPosition()
    for point, field in stones:
        p.add_move(Move(point), field)
    return p


def test_yixin_board_extensions(duel_bin):
    with brain(duel_bin, ("TIMEOUT_TURN", 30000), ("MAX_NODE", 4000)) as e:
        stones = position(("h8", 1), ("i9", 2), ("i8", 1), ("g9", 2))
        # YXBOARD: the position, and no answer.
        e.board(stones, start_thinking=False)
        assert quiet(e) == {}
        # YXNBEST: three lines per iteration, best first, different first moves; the answer
        # is the best, and it is played (it can be taken back).
        result = e.nbest(3, timeout=60)
        assert result is not None
        lines = result.all_info
        # The move played heads the last best line shown.
        best = [l for l in lines if l.multipv == 1][-1]
        assert best.pv[0] == result.move, (result.move, best)
        # One line more when the node limit cut an iteration that found a better move.
        if len(lines) % 3 == 1:
            lines = lines[:-1]
        assert len(lines) >= 3 and len(lines) % 3 == 0, lines
        for i in range(0, len(lines), 3):
            three = lines[i : i + 3]
            assert [l.multipv for l in three] == [1, 2, 3], three
            assert len({str(l.pv[0]) for l in three}) == 3, three
            assert all(l.depth == three[0].depth and l.nodes > 0 for l in three), three
        assert e.takeback(result.move, timeout=10)
        # YXBLOCK: the best point is searched no more; YXBLOCKRESET frees it.
        e.send_raw("YXBLOCK")
        e.send_raw(result.move.to_numeric())
        e.send_raw("DONE")
        e.board(stones, start_thinking=False)
        other = e.nbest(1, timeout=60)
        assert other is not None and other.move != result.move
        e.send_raw("YXBLOCKRESET")
        # YXHASHCLEAR and YXSHOWINFO answer in MESSAGE lines.
        e.router.clear("message")
        assert "cleared" in exchange(e, "YXHASHCLEAR", "message")
        assert exchange(e, "YXSHOWINFO", "message").startswith("MESSAGE duel ")
        threads = e.receive_raw("message", timeout=10)
        assert threads.startswith("MESSAGE INFO MAX_THREAD_NUM "), threads
        # Bad arguments: ERROR; Yixin commands duel does not answer: UNKNOWN.
        assert "at least 1" in exchange(e, "YXNBEST 0", "error")
        assert exchange(e, "YXBALANCEONE 0", "output").startswith("UNKNOWN")


def test_forbidden_points_agree_with_pygomo_renju_board(duel_bin):
    with brain(duel_bin) as e:
        e.execute("INFO", "RULE", 4)
        assert e.restart(timeout=10)
        # Black (the brain, to move) has h8 g8 and i6 i7: i8 would be a double three.
        moves = ["g8", "a1", "h8", "c1", "i6", "e1", "i7", "g1"]
        stones = position(*[(m, 1 if i % 2 == 0 else 2) for i, m in enumerate(moves)])
        e.board(stones, start_thinking=False)
        forbid = exchange(e, "YXSHOWFORBID", "output")
        assert forbid == "FORBID 0807.", forbid
        # pygomo's own renju board finds the same points.
        renju = RenjuBitBoard()
        for m in moves:
            renju.place(Move(m))
        theirs = [
            f"{m.col:02}{m.row:02}" for m in renju.get_legal_moves() if renju.is_forbidden(m)
        ]
        assert forbid == "FORBID " + "".join(theirs) + ".", theirs
