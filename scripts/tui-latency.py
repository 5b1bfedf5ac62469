#!/usr/bin/env python3
"""Key-to-screen latency of the TUI while the engine analyses on all threads.

Starts `kibitzer analyse FEN` in a 200x60 tmux pane (with a throw-away config asking for
`--threads` search threads), starts infinite analysis, then presses `r` (flip) again and again
and polls `tmux capture-pane` until the top rank label of the board changes. Reports the median,
90th percentile and worst time from send-keys to the changed screen. tmux's own round trips are
included, so the figures are an upper bound.

    python3 scripts/tui-latency.py [--presses 40] [--threads 2] [--binary target/release/kibitzer]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
SESSION = "kibitzer-latency"


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def top_rank():
    """The rank label of the board's top row ('8' or '1'), or None while it is not drawn."""
    for line in tmux("capture-pane", "-p", "-t", SESSION).splitlines():
        stripped = line.lstrip()
        if stripped[:1] in ("1", "8") and line.startswith(" "):
            return stripped[0]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/kibitzer")
    ap.add_argument("--presses", type=int, default=40)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)

    with tempfile.TemporaryDirectory() as home:
        os.makedirs(os.path.join(home, "cfg", "kibitzer"))
        with open(os.path.join(home, "cfg", "kibitzer", "config.toml"), "w") as f:
            f.write(f"[engine]\nthreads = {args.threads}\n")
        env = f"env XDG_CONFIG_HOME={home}/cfg XDG_DATA_HOME={home}/data"
        tmux("kill-session", "-t", SESSION)
        tmux("new-session", "-d", "-s", SESSION, "-x", "200", "-y", "60",
             f"{env} {binary} analyse '{FEN}'")
        try:
            deadline = time.time() + 10
            while top_rank() is None:
                if time.time() > deadline:
                    sys.exit("the board never appeared")
                time.sleep(0.05)
            tmux("send-keys", "-t", SESSION, "Space")
            time.sleep(2)  # the search is now running on every thread
            samples = []
            for _ in range(args.presses):
                before = top_rank()
                start = time.perf_counter()
                tmux("send-keys", "-t", SESSION, "r")
                while top_rank() == before:
                    if time.perf_counter() - start > 5:
                        sys.exit("the board did not flip within 5 s")
                samples.append((time.perf_counter() - start) * 1000)
                time.sleep(random.uniform(0.1, 0.3))
        finally:
            tmux("send-keys", "-t", SESSION, "q")
            time.sleep(0.2)
            tmux("kill-session", "-t", SESSION)

    samples.sort()
    p90 = samples[int(0.9 * (len(samples) - 1))]
    print(f"{len(samples)} presses, {args.threads} search threads: median "
          f"{statistics.median(samples):.1f} ms, p90 {p90:.1f} ms, worst {samples[-1]:.1f} ms")


if __name__ == "__main__":
    main()
