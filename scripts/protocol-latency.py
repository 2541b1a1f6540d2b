#!/usr/bin/env python3
"""How long a protocol engine takes to answer `isready`, `stop` and `ping` while it works.

Usage: scripts/protocol-latency.py ENGINE [--samples N] [--timeout S]

ENGINE is a duel binary (e.g. target/release/duel). For each kind of work (UCI: `go infinite`,
a bare `go`, `go movetime 5000`, `go perft 7`, `bench`; NBoard: `go`, `hint 4`, `analyze` at
depth 20), a fresh engine is started, the work begins, and 0.2 s later the command is sent,
alone or after another command that needs the engine (UCI: `ucinewgame`; NBoard: `hint 3`),
which is what made the loops deaf before; the time to its answer is measured. Prints the median and the largest of N samples per row; an
answer that never comes counts as the timeout.
"""

import argparse
import queue
import statistics
import subprocess
import threading
import time

GGF = ("(;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O-----------------"
       "---------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")


def sample(engine, args, setup, work, ask, answer, timeout):
    """Seconds from `ask` (one or more lines) to the first line starting with `answer`."""
    p = subprocess.Popen([engine] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.rstrip()) for l in p.stdout],
                     daemon=True).start()
    for line in setup + [work]:
        p.stdin.write(line + "\n")
    p.stdin.flush()
    time.sleep(0.2)
    start = time.perf_counter()
    p.stdin.write(ask + "\n")
    p.stdin.flush()
    waited = timeout
    while True:
        left = timeout - (time.perf_counter() - start)
        try:
            line = lines.get(timeout=max(left, 0.001))
        except queue.Empty:
            break
        if line.startswith(answer):
            waited = time.perf_counter() - start
            break
    p.kill()
    p.wait()
    return waited


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=5.0)
    a = ap.parse_args()
    rows = []
    for work in ["go infinite", "go", "go movetime 5000", "go perft 7", "bench"]:
        stopped = "info string" if work in ("go perft 7", "bench") else "bestmove"
        for ask, answer in [("isready", "readyok"), ("stop", stopped),
                            ("ucinewgame\nisready", "readyok")]:
            rows.append((["uci"], ["position startpos"], work, ask, answer))
    for work in ["go", "hint 4", "analyze"]:
        for ask in ["ping 7", "hint 3\nping 7"]:
            rows.append((["nboard"], ["nboard 2", "set depth 20", "set game " + GGF], work,
                         ask, "pong 7"))
    for args, setup, work, ask, answer in rows:
        t = [sample(a.engine, args, setup, work, ask, answer, a.timeout)
             for _ in range(a.samples)]
        print(f"{args[0]:6} {work:16} {ask.replace(chr(10), ', '):20} median {statistics.median(t) * 1000:8.1f} ms"
              f"  max {max(t) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
