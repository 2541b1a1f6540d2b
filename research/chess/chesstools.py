"""What the python-chess scripts beside this file share: the check that python-chess is
installed, a reference engine's value of a position, and the value `duel match` writes in its
PGN comments. Each script imports it before python-chess, so a missing package is named with
its fix instead of an ImportError."""

import re
import sys

try:
    import chess  # noqa: F401 (imported for the scripts that import this module first)
    import chess.engine  # noqa: F401
    import chess.pgn  # noqa: F401
except ImportError:
    sys.exit("python-chess is missing: run research/chess/install-python-tools.sh")

# A mate's value in cp: far above any material value, small enough to average.
MATE = 3000


def value(info):
    """An engine analysis's value for the side to move, in cp, mates as ±MATE."""
    return info["score"].relative.score(mate_score=MATE)


def comment_value(comment):
    """The mover's value in pawns from a `duel match` PGN comment (`+1.23/14 0.25s`, or
    `+M5/...` for a mate, taken as ±99), or None when the comment has none."""
    text = comment.strip()
    if m := re.match(r"([+-]?\d+(?:\.\d+)?)/", text):
        return float(m.group(1))
    if m := re.match(r"([+-]?)M\d+/", text):
        return -99.0 if m.group(1) == "-" else 99.0
    return None
