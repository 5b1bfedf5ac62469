#!/usr/bin/env python3
"""Times `go movetime N` from the command to `bestmove` on a few positions (issue 20's bar:
0.95-1.05 s for N = 1000). Exit status 1 when a search falls outside 95-105% of N.

Usage: scripts/movetime-check.py [--engine target/release/kibitzer] [--movetime 1000]
"""
import argparse
import subprocess
import sys
import time

POSITIONS = [
    "startpos",
    "startpos moves e2e4 e7e5",
    "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "fen 8/8/8/4k3/8/3K4/3P4/8 w - - 0 1",
    "fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kibitzer")
    ap.add_argument("--movetime", type=int, default=1000)
    args = ap.parse_args()
    p = subprocess.Popen([args.engine, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        sys.exit(f"the engine stopped before '{prefix}'")

    send("uci")
    wait("uciok")
    ok = True
    for position in POSITIONS:
        send("position " + position)
        send("isready")
        wait("readyok")
        start = time.monotonic()
        send(f"go movetime {args.movetime}")
        best = wait("bestmove").split()
        took = time.monotonic() - start
        good = 0.95 <= took * 1000 / args.movetime <= 1.05 and len(best) > 1 and best[1] != "0000"
        ok &= good
        print(f"{'ok  ' if good else 'FAIL'} {took:.3f} s  {position}")
    send("quit")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
