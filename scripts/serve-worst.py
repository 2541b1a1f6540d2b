#!/usr/bin/env python3
"""The worst request each endpoint of `duel serve` allows: its peak memory and its time.

For each endpoint and game, a fresh `duel serve` (so that its peak resident memory, VmHWM, is
that request's) is sent the most expensive request its caps let through, and the script
prints the server's peak RSS before and after it and the request's wall time, as a Markdown
table for docs/BENCHMARKS.md. A second binary (--before) is measured in the same run, where it
answers the same request.

The requests:
  position, move, record, load  a body at the 64 KiB cap: the longest random game of the game
                                that fits (its record, for load)
  compare                       every algorithm, at the position and depth whose Minimax tree
                                is the largest under --max-compare-nodes (searched for)
  tree                          the same under --max-tree-nodes, Minimax
  search                        every thread, multipv 16, until the time cap (--max-time,
                                set here with --search-time)
  evals                         1,000 positions at the most nodes the caps allow, until the
                                time cap

Usage: scripts/serve-worst.py [--duel target/release/duel] [--before OLD_DUEL]
                              [--games chess,xiangqi,...] [--endpoints compare,tree,...]
                              [--search-time 20s] [--timeout SECONDS]
       scripts/serve-worst.py --latency [--before OLD_DUEL]
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

GAMES = ["tictactoe", "connect4", "gomoku", "gomoku:freestyle:22", "othello", "chess", "xiangqi"]
ENDPOINTS = ["position", "move", "record", "load", "compare", "tree", "search", "evals"]
BODY_CAP = 64 * 1024


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A fresh `duel serve` on a free port."""

    def __init__(self, duel, extra):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [duel, "serve", "--port", str(self.port)] + extra,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.proc.stdout.readline()
        self.base = f"http://127.0.0.1:{self.port}"

    def hwm_kib(self):
        """Peak resident memory so far, KiB (0 once the process is gone)."""
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        self.proc.kill()
        self.proc.wait()


def call(base, path, body=None, timeout=900):
    """(status, JSON or text); a stream of events gives its last event's data."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    if data:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            kind = res.headers.get("Content-Type", "")
            raw = res.read().decode()
            status = res.status
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode() or "{}")
    except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
        return 0, {"error": str(e)}
    if kind.startswith("text/event-stream"):
        last = [b for b in raw.split("\n\n") if "data:" in b][-1]
        data = last.split("data:", 1)[1].strip()
        return status, json.loads(data)
    return status, json.loads(raw)


def long_game(base, game, rng):
    """A random game, as long as the game allows and its body fits the cap."""
    moves = []
    while True:
        status, pos = call(base, "/api/position", {"game": game, "moves": moves})
        if status != 200 or pos["outcome"] or not pos["legal"]:
            return moves
        mv = rng.choice(pos["legal"])["move"]
        if len(json.dumps({"game": game, "moves": moves + [mv], "move": mv})) > BODY_CAP - 200:
            return moves
        moves.append(mv)


def widest(base, game, rng, endpoint):
    """The (moves, depth) whose request is the largest the caps let through, and its nodes."""
    best = ([], 1, 0)
    game_moves = long_game(base, game, rng)
    plies = sorted({0, 1, 2, 4, 8, 12, 16, 24, 32} & set(range(len(game_moves) + 1)))
    for ply in plies:
        moves = game_moves[:ply]
        for depth in range(1, 12):
            if endpoint == "compare":
                body = {"game": game, "moves": moves, "depth": depth, "algorithms": ["minimax"]}
            else:
                body = {"game": game, "moves": moves, "depth": depth, "algorithm": "minimax"}
            status, v = call(base, "/api/" + endpoint, body)
            if status != 200:
                break
            nodes = v["rows"][0]["nodes"] if endpoint == "compare" else v["nodes"]
            if nodes > best[2]:
                best = (moves, depth, nodes)
    return best


def request_for(endpoint, game, probe, rng, args):
    """The worst request of `endpoint` in `game`: (path, body, what)."""
    if endpoint in ("position", "move", "record"):
        moves = long_game(probe, game, rng)
        path = {"position": "/api/position", "move": "/api/move", "record": "/api/record"}
        body = {"game": game, "moves": moves[:-1] if endpoint == "move" else moves}
        if endpoint == "move":
            body["move"] = moves[-1] if moves else ""
        return path[endpoint], body, f"{len(moves)} moves"
    if endpoint == "load":
        moves = long_game(probe, game, rng)
        _, rec = call(probe, "/api/record", {"game": game, "moves": moves})
        return "/api/load", {"game": game, "text": rec["text"]}, f"a record of {len(moves)} moves"
    if endpoint in ("compare", "tree"):
        moves, depth, nodes = widest(probe, game, rng, endpoint)
        body = {"game": game, "moves": moves, "depth": depth}
        if endpoint == "tree":
            body["algorithm"] = "minimax"
        what = f"depth {depth} after {len(moves)} moves, {nodes:,} Minimax nodes"
        return "/api/" + endpoint, body, what
    if endpoint == "search":
        q = f"/api/search?game={game}&multipv=16&threads={os.cpu_count()}"
        return q, None, f"{os.cpu_count()} threads, multipv 16, until the time cap"
    if endpoint == "evals":
        moves = long_game(probe, game, rng)[:999]
        nodes = min(1_000_000, 500_000_000 // (len(moves) + 1))
        return "/api/evals", {"game": game, "moves": moves, "nodes": nodes}, (
            f"{len(moves) + 1} positions x {nodes:,} nodes, until the time cap")
    raise ValueError(endpoint)


def measure(duel, extra, path, body, timeout):
    server = Server(duel, extra)
    try:
        before = server.hwm_kib()
        t = time.monotonic()
        status, v = call(server.base, path, body, timeout)
        took = time.monotonic() - t
        peak = server.hwm_kib()
        alive = server.alive()
    finally:
        server.close()
    note = "" if status == 200 else f"{status} {v.get('error', '')[:60]}"
    if not alive:
        note = "the server died"
    return before, peak, took, note


def latency(name, duel):
    """100 position requests and 100 stops over one kept-alive connection: medians, and the
    resident memory after them."""
    import http.client
    server = Server(duel, [])
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        for path, body in [("/api/position", {"game": "chess", "moves": ["e2e4"]}),
                           ("/api/stop", {"id": 1})]:
            times = []
            for _ in range(100):
                t = time.perf_counter()
                conn.request("POST", path, body=json.dumps(body),
                             headers={"Content-Type": "application/json"})
                conn.getresponse().read()
                times.append(time.perf_counter() - t)
            times.sort()
            print(f"{name}: POST {path} x100, median {times[50] * 1000:.2f} ms")
        with open(f"/proc/{server.proc.pid}/status") as f:
            rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
        print(f"{name}: resident after them {rss / 1024:.0f} MB")
    finally:
        server.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duel", default="target/release/duel")
    ap.add_argument("--before", help="an older duel binary, measured on the same requests")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--endpoints", default=",".join(ENDPOINTS))
    ap.add_argument("--search-time", default="20s", help="--max-time for search and evals")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900, help="seconds to wait for an answer")
    ap.add_argument("--latency", action="store_true",
                    help="instead: 100 position requests and 100 stops on one connection")
    args = ap.parse_args()
    if args.latency:
        for name, duel in [("new", args.duel)] + ([("before", args.before)] if args.before else []):
            latency(name, duel)
        return 0
    extra = ["--max-time", args.search_time]
    probe = Server(args.duel, extra)
    binaries = [("new", args.duel)] + ([("before", args.before)] if args.before else [])
    print("| endpoint | game | request | binary | RSS at start | peak RSS | time | note |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for endpoint in args.endpoints.split(","):
            for game in args.games.split(","):
                rng = random.Random(args.seed)
                path, body, what = request_for(endpoint, game, probe.base, rng, args)
                for name, duel in binaries:
                    before, peak, took, note = measure(duel, extra, path, body, args.timeout)
                    print(f"| {endpoint} | {game} | {what} | {name} | {before / 1024:.0f} MB "
                          f"| {peak / 1024:.0f} MB | {took:.2f} s | {note} |", flush=True)
    finally:
        probe.close()


if __name__ == "__main__":
    sys.exit(main())
