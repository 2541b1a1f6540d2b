#!/usr/bin/env python3
"""Slow clients against `duel serve` with few files: can a normal request still get in?

Starts `duel serve` under `ulimit -n 64`, opens 100 connections that each send half a request
line and then nothing, then makes one normal request and times its answer; a second later it
counts the trickling connections the server still holds.

Usage: scripts/serve-slow-clients.py [DUEL ...]   (default target/release/duel)
"""

import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(duel):
    port = free_port()
    server = subprocess.Popen(
        ["bash", "-c", f"ulimit -n 64; exec {duel} serve --port {port}"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()
    try:
        slow = []
        for _ in range(100):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/games HTTP/1.1\r\nX-Slow: ")
            slow.append(s)
        t = time.time()
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(60)
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        try:
            head = s.recv(15).decode()
            print(f"{duel}: the normal request answered after {time.time() - t:.1f} s: {head}")
        except OSError:
            print(f"{duel}: the normal request had no answer in {time.time() - t:.0f} s")
        time.sleep(1)
        held = 0
        for c in slow:
            c.setblocking(False)
            try:
                held += c.recv(16) != b""
            except BlockingIOError:
                held += 1
            except OSError:
                pass
        print(f"{duel}: trickling connections still held: {held} of 100")
    finally:
        server.kill()


for duel in sys.argv[1:] or ["target/release/duel"]:
    run(duel)
