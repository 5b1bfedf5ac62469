#!/usr/bin/env python3
"""A UCI engine told only a share of its clock, for time-odds matches: it passes everything
through and scales the times in each `go` (wtime, btime, winc, binc, movetime) by --share.

What doubling the thinking time is worth, the yardstick for two threads against one:

    python3 ../shared/tools/match.py --e1 target/release/kibitzer --e1-arg uci \
        --e2 python3 --e2-arg scripts/time-odds.py --e2-arg=--share --e2-arg 0.5 \
        --e2-arg target/release/kibitzer --e2-arg uci --tc 20+0.2 ...

The match's clock is the full one for both sides; the proxied engine spends as if it had the
share of it, so it never loses on time for the odds.
"""
import argparse
import subprocess
import sys
import threading

SCALED = {"wtime", "btime", "winc", "binc", "movetime"}


def scale_go(line, share):
    words = line.split()
    for i in range(1, len(words) - 1):
        if words[i] in SCALED:
            try:
                words[i + 1] = str(max(1, int(int(words[i + 1]) * share)))
            except ValueError:
                pass  # not a number: the engine answers it as it would have
    return " ".join(words)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, required=True, help="share of the clock, 0-1")
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="the engine and its arguments")
    args = parser.parse_args()
    if not args.engine or not 0 < args.share <= 1:
        parser.error("an engine and a share in (0, 1] are needed")
    engine = subprocess.Popen(args.engine, stdin=subprocess.PIPE, stdout=sys.stdout, text=True)

    def forward():
        for line in sys.stdin:
            if line.startswith("go"):
                line = scale_go(line, args.share) + "\n"
            engine.stdin.write(line)
            engine.stdin.flush()
        engine.stdin.close()

    threading.Thread(target=forward, daemon=True).start()
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
