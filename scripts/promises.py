#!/usr/bin/env python3
"""The engine's promises, measured (issue 46): Hash sets the memory, `stop` is answered at once,
Threads is bounded, and a long search keeps its memory flat.

Usage: scripts/promises.py ENGINE [--only hash,stop,threads,flat] [--stops N] [--flat-seconds S]

ENGINE is a duel release binary (`cargo build --release -p duel-cli`). Each part starts fresh
engines and prints a markdown table:

- hash: `duel uci --game G` for chess and Othello at Hash 1, 256 and 1024 MiB; VmRSS and VmHWM
  from /proc/PID/status after `isready` and after `go movetime 3000`, less those at Hash 1.
- stop: for every game over UCI, N times `go infinite`, a random wait of 1 to 500 ms, `stop`;
  the time from writing `stop` to reading `bestmove`. Likewise NBoard (`go` at depth 30, then
  `ping`, time to `pong`) and Gomocup (`BEGIN` with a long turn, then `END`, time to the
  process's exit: `END` is the protocol's only way to interrupt the brain). Every engine has
  answered once before its first sample, so no sample counts its start.
- threads: `setoption name Threads value N` for N from 0 to 1000; what the engine says, and
  how many threads the process has 0.5 s into `go movetime 1500`.
- flat: chess `go infinite` for S seconds (600 for the issue's ten minutes), VmRSS every 5 s.

Times are taken on this side of two pipes and a Python reader thread, so they overstate the
engine's own latency a little; on a loaded machine, by more.
"""

import argparse
import os
import queue
import random
import statistics
import subprocess
import threading
import time

UCI_GAMES = ["tictactoe", "connect4", "othello", "chess", "gomoku", "xiangqi"]
HASH_GAMES = ["chess", "othello"]
HASH_SIZES = [1, 256, 1024]
STOP_PROMISE_MS = 50.0

GGF = ("(;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O-----------------"
       "---------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")


class Engine:
    """A child process; its output lines are read on a thread and stamped when read."""

    def __init__(self, engine, args):
        self.p = subprocess.Popen([engine] + args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.perf_counter(), line.rstrip("\n")))
        self.q.put((time.perf_counter(), None))

    def send(self, *lines):
        """Writes the lines; returns the time just after the write."""
        self.p.stdin.write("".join(l + "\n" for l in lines))
        self.p.stdin.flush()
        return time.perf_counter()

    def until(self, pred, timeout=60.0):
        """Lines up to and including the first that satisfies `pred`, and its time stamp."""
        seen = []
        deadline = time.perf_counter() + timeout
        while True:
            try:
                t, line = self.q.get(timeout=max(deadline - time.perf_counter(), 0.001))
            except queue.Empty:
                raise TimeoutError(f"no answer in {timeout} s after {seen[-5:]}")
            if line is None:
                raise EOFError(f"engine ended after {seen[-5:]}")
            seen.append(line)
            if pred(line):
                return seen, t

    def status(self):
        """VmRSS, VmHWM (MiB) and Threads from /proc/PID/status."""
        out = {}
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0]) / 1024
                elif key == "Threads":
                    out[key] = int(value)
        return out

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()


def uci(engine, game):
    e = Engine(engine, ["uci", "--game", game])
    e.send("uci")
    lines, _ = e.until(lambda l: l == "uciok")
    return e, lines


def ready(e):
    e.send("isready")
    return e.until(lambda l: l == "readyok")[0]


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    print()


def measure_hash(engine):
    print("### Hash: resident size against the size asked\n")
    rows = []
    for game in HASH_GAMES:
        got = {}
        for mb in HASH_SIZES:
            e, _ = uci(engine, game)
            e.send(f"setoption name Hash value {mb}")
            said = [l for l in ready(e) if l.startswith("info string")]
            idle = e.status()
            e.send("position startpos", "go movetime 3000")
            e.until(lambda l: l.startswith("bestmove"), timeout=30)
            busy = e.status()
            e.close()
            got[mb] = (idle, busy, said)
        base_idle, base_busy, _ = got[HASH_SIZES[0]]
        for mb in HASH_SIZES:
            idle, busy, said = got[mb]
            extra = busy["VmRSS"] - base_busy["VmRSS"]
            asked = mb - HASH_SIZES[0]
            within = abs(extra - asked) <= 0.05 * max(asked, 1)
            rows.append([
                game, mb,
                f"{idle['VmRSS']:.1f} / {idle['VmHWM']:.1f}",
                f"{busy['VmRSS']:.1f} / {busy['VmHWM']:.1f}",
                f"{idle['VmRSS'] - base_idle['VmRSS']:+.1f}",
                f"{extra:+.1f} of {asked}",
                f"{busy['VmHWM'] - base_busy['VmHWM']:+.1f}",
                ("yes" if within else "**no**") + ("; " + "; ".join(said) if said else ""),
            ])
    table(["game", "Hash MiB", "after isready: RSS / HWM MiB", "after go movetime 3000: RSS / HWM",
           "RSS − base, idle", "RSS − base after search, of asked", "HWM − base", "within 5%"],
          rows)


def summary(ms):
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return [len(ms), f"{statistics.median(ms):.1f}", f"{p99:.1f}", f"{ms[-1]:.1f}",
            "yes" if ms[-1] <= STOP_PROMISE_MS else "**no**"]


def stop_uci(engine, game, n, rng):
    e, _ = uci(engine, game)
    ready(e)
    ms, refused = [], 0
    for _ in range(n):
        e.send("position startpos", "go infinite")
        time.sleep(rng.uniform(0.001, 0.5))
        t0 = e.send("stop")
        lines, t1 = e.until(lambda l: l.startswith("bestmove"), timeout=30)
        refused += sum(1 for l in lines if l.startswith("info string"))
        ms.append((t1 - t0) * 1000)
    e.close()
    return ms, refused


def stop_nboard(engine, n, rng):
    e = Engine(engine, ["nboard"])
    # Up and answering before the first sample, so that no sample counts the start.
    e.send("nboard 2", "set depth 30", "set game " + GGF, "ping 0")
    e.until(lambda l: l == "pong 0")
    ms = []
    for i in range(1, n + 1):
        e.send("go")
        time.sleep(rng.uniform(0.001, 0.5))
        t0 = e.send(f"ping {i}")
        _, t1 = e.until(lambda l: l == f"pong {i}", timeout=30)
        ms.append((t1 - t0) * 1000)
    e.close()
    return ms


def stop_gomocup(engine, n, rng):
    ms = []
    for _ in range(n):
        e = Engine(engine, ["gomocup"])
        e.send("START 15")
        e.until(lambda l: l == "OK")
        e.send("INFO timeout_turn 600000", "INFO timeout_match 0",
               "BOARD", "7,7,2", "8,8,1", "DONE")
        time.sleep(rng.uniform(0.001, 0.5))
        t0 = e.send("END")
        e.p.wait(timeout=30)
        ms.append((time.perf_counter() - t0) * 1000)
        e.close()
    return ms


def measure_stop(engine, n, seed):
    print(f"### stop: time from the command to the answer, {n} stops a row, "
          f"1–500 ms into the search\n")
    rng = random.Random(seed)
    rows = []
    for game in UCI_GAMES:
        ms, refused = stop_uci(engine, game, n, rng)
        rows.append([f"UCI {game}", "`stop` → `bestmove`"] + summary(ms)
                    + [refused])
    rows.append(["NBoard (Othello)", "`ping` → `pong`"] + summary(stop_nboard(engine, n, rng))
                + [0])
    g = max(n // 5, 1)
    rows.append(["Gomocup (Gomoku)", "`END` → exit"] + summary(stop_gomocup(engine, g, rng))
                + [0])
    table(["protocol", "answer", "stops", "median ms", "99th pct ms", "max ms",
           f"≤ {STOP_PROMISE_MS:.0f} ms", "refusals"], rows)


def measure_threads(engine):
    cores = os.cpu_count()
    print(f"### Threads: what `setoption` answers ({cores} cores here)\n")
    e, lines = uci(engine, "chess")
    e.close()
    declared = next((l for l in lines if l.startswith("option name Threads")), "none")
    print(f"Declared: `{declared}`\n")
    rows = []
    for n in sorted({0, -1, 1, cores, cores + 1, 64, 65, 1000}):
        e, _ = uci(engine, "chess")
        e.send(f"setoption name Threads value {n}")
        said = [l for l in ready(e) if l != "readyok"]
        e.send("position startpos", "go movetime 1500")
        time.sleep(0.5)
        during = e.status()["Threads"]
        e.until(lambda l: l.startswith("bestmove"), timeout=30)
        e.close()
        rows.append([n, "; ".join(f"`{l}`" for l in said) or "nothing", during])
    table(["Threads value", "engine says", "process threads during a search"], rows)


def measure_flat(engine, seconds, game):
    print(f"### Memory over a `go infinite` of {seconds} s ({game}, default Hash)\n")
    e, _ = uci(engine, game)
    ready(e)
    e.send("position startpos", "go infinite")
    start = time.perf_counter()
    samples = []
    while True:
        elapsed = time.perf_counter() - start
        samples.append((elapsed, e.status()))
        if elapsed >= seconds:
            break
        time.sleep(min(5.0, seconds - elapsed) or 0.001)
    e.send("stop")
    e.until(lambda l: l.startswith("bestmove"), timeout=30)
    e.close()
    rss = [s["VmRSS"] for _, s in samples]
    table(["samples", "first RSS MiB", "last RSS MiB", "max RSS MiB", "last − first MiB",
           "HWM at the end MiB"],
          [[len(samples), f"{rss[0]:.1f}", f"{rss[-1]:.1f}", f"{max(rss):.1f}",
            f"{rss[-1] - rss[0]:+.1f}", f"{samples[-1][1]['VmHWM']:.1f}"]])
    print("RSS by time: " + ", ".join(f"{t:.0f} s {s['VmRSS']:.1f}" for t, s in samples) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--only", default="hash,stop,threads,flat",
                    help="comma-separated parts: hash, stop, threads, flat")
    ap.add_argument("--stops", type=int, default=100, help="stops per game")
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--flat-seconds", type=float, default=60.0)
    ap.add_argument("--flat-game", default="chess")
    a = ap.parse_args()
    parts = a.only.split(",")
    if "hash" in parts:
        measure_hash(a.engine)
    if "stop" in parts:
        measure_stop(a.engine, a.stops, a.seed)
    if "threads" in parts:
        measure_threads(a.engine)
    if "flat" in parts:
        measure_flat(a.engine, a.flat_seconds, a.flat_game)


if __name__ == "__main__":
    main()
