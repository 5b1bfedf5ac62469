#!/usr/bin/env python3
"""A UCI engine that plays on a share of its clock, for time-odds matches: it passes everything
through and tells the engine, at each `go`, the clock it would have at BASE x share + INC x share:
its real time less the (1 - share) of the base and of the increments it has received in this
game, and the increments scaled (movetime too).

What doubling the thinking time is worth, the yardstick for two threads against one:

    python3 ../shared/tools/match.py --e1 target/release/kibitzer --e1-arg uci \
        --e2 python3 --e2-arg scripts/time-odds.py --e2-arg=--share --e2-arg 0.5 \
        --e2-arg target/release/kibitzer --e2-arg uci --tc 20+0.2 ...

The match's clock is the full one for both sides; the proxied engine spends as if it had its
share, so it never loses on time for the odds. A game starts at `ucinewgame`: the first `go` after
it gives the base, and each later `go` follows one more increment.
"""
import argparse
import subprocess
import sys
import threading

CLOCK_FIELDS = ("wtime", "btime", "winc", "binc", "movetime")


class Game:
    """What the proxy knows of the game in progress: whose turn, the base, the moves made."""

    def __init__(self, share):
        self.share = share
        self.base = None
        self.moves_made = 0
        self.white_to_move = True

    def position(self, line):
        words = line.split()
        white = not (len(words) > 3 and words[1] == "fen" and words[3] == "b")
        moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
        self.white_to_move = white == (moves % 2 == 0)

    def go(self, line):
        words = line.split()
        values = {}
        for field, value in zip(words[1:], words[2:]):
            if field in CLOCK_FIELDS:
                try:
                    values[field] = int(value)
                except ValueError:
                    pass  # not a number: the engine answers it as it would have
        # All told at the share, but our own time: the real one less what the share never gave.
        told = {field: value * self.share for field, value in values.items()}
        ours = "wtime" if self.white_to_move else "btime"
        our_inc = values.get("winc" if self.white_to_move else "binc", 0)
        if ours in values:
            if self.base is None:
                self.base = values[ours]
            given = self.base + self.moves_made * our_inc
            told[ours] = values[ours] - (1 - self.share) * given
        self.moves_made += 1
        for i in range(1, len(words) - 1):
            if words[i] in told:
                words[i + 1] = str(max(1, round(told[words[i]])))
        return " ".join(words)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--share", type=float, required=True, help="share of the clock, 0-1")
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="the engine and its arguments")
    args = parser.parse_args()
    if not args.engine or not 0 < args.share <= 1:
        parser.error("an engine and a share in (0, 1] are needed")
    engine = subprocess.Popen(args.engine, stdin=subprocess.PIPE, stdout=sys.stdout, text=True)

    game = Game(args.share)

    def forward():
        nonlocal game
        for line in sys.stdin:
            if line.startswith("ucinewgame"):
                game = Game(args.share)
            elif line.startswith("position"):
                game.position(line)
            elif line.startswith("go"):
                line = game.go(line) + "\n"
            engine.stdin.write(line)
            engine.stdin.flush()
        engine.stdin.close()

    threading.Thread(target=forward, daemon=True).start()
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
