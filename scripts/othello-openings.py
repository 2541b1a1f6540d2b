#!/usr/bin/env python3
"""Every Othello position N plies from the start, one per class under the board's eight
symmetries, each as the move line that reaches it (the greatest such line, so each starts
with f5): openings for `duel match --game othello --openings FILE`.

Usage: scripts/othello-openings.py N > FILE
"""
import sys

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27  # a1..h8, X black (to move)
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def moves(board, me):
    """(square, flipped squares) of each legal move of `me`."""
    them = "O" if me == "X" else "X"
    found = []
    for sq in range(64):
        if board[sq] != "-":
            continue
        x, y = sq % 8, sq // 8
        flips = []
        for dx, dy in DIRECTIONS:
            cx, cy, run = x + dx, y + dy, []
            while 0 <= cx < 8 and 0 <= cy < 8 and board[cy * 8 + cx] == them:
                run.append(cy * 8 + cx)
                cx, cy = cx + dx, cy + dy
            if run and 0 <= cx < 8 and 0 <= cy < 8 and board[cy * 8 + cx] == me:
                flips += run
        if flips:
            found.append((sq, flips))
    return found


def canonical(board):
    """The least of the board's eight images."""
    images = []
    for t in range(8):
        image = ["-"] * 64
        for sq in range(64):
            x, y = sq % 8, sq // 8
            if t & 1:
                y = 7 - y
            if t & 2:
                x = 7 - x
            if t & 4:
                x, y = y, x
            image[y * 8 + x] = board[sq]
        images.append("".join(image))
    return min(images)


def main():
    plies = int(sys.argv[1])
    level = {canonical(START) + "X": (START, "X", "")}
    for _ in range(plies):
        following = {}
        for board, me, line in level.values():
            them = "O" if me == "X" else "X"
            for sq, flips in moves(board, me):
                after = list(board)
                after[sq] = me
                for f in flips:
                    after[f] = me
                after = "".join(after)
                key = canonical(after) + them
                text = line + "abcdefgh"[sq % 8] + str(sq // 8 + 1)
                if key not in following or text > following[key][2]:
                    following[key] = (after, them, text)
        level = following
    for line in sorted(v[2] for v in level.values()):
        print(line)


main()
