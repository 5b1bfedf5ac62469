#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the PGN that `match.py --pgn` writes (each
move's comment ends in its time, `{ +0.12/18 0.41s }`): per engine, the clock left at the end of
its games (median and lowest), the time its first 20 moves took (median) and the mean time a
move. For comparing time management changes, where the Elo alone does not say why.

    python3 scripts/pgn-clock.py match.pgn --tc 8+0.08
"""
import argparse
import re
import statistics
import sys

TAG = re.compile(r'^\[(White|Black) "([^"]*)"\]', re.M)
# A game set up from a position with Black to move starts with Black's time.
BLACK_STARTS = re.compile(r'^\[FEN "\S+ b ', re.M)
MOVE_TIME = re.compile(r"\{[^}]*?([\d.]+)s \}")


def parse_tc(text):
    try:
        base, inc = text.split("+") if "+" in text else (text, "0")
        return float(base), float(inc)
    except ValueError:
        sys.exit(f"--tc: expected BASE+INC in seconds, got {text!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--tc", required=True, help="the match's BASE+INC in seconds")
    args = ap.parse_args()
    base, inc = parse_tc(args.tc)
    try:
        text = open(args.pgn, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"{args.pgn}: {e}")

    stats = {}
    for number, game in enumerate(text.split("[Event ")[1:], 1):
        names = dict(TAG.findall(game))
        if set(names) != {"White", "Black"}:
            sys.exit(f"{args.pgn}: game {number} has no White or Black tag")
        times = [float(t) for t in MOVE_TIME.findall(game)]
        order = ("Black", "White") if BLACK_STARTS.search(game) else ("White", "Black")
        for side, colour in enumerate(order):
            mine = times[side::2]
            s = stats.setdefault(names[colour], {"end": [], "first20": [], "moves": []})
            s["end"].append(base + inc * len(mine) - sum(mine))
            s["first20"].append(sum(mine[:20]))
            s["moves"].extend(mine)

    if not stats:
        sys.exit(f"{args.pgn}: no games")
    for name, s in stats.items():
        print(
            f"{name}: {len(s['end'])} games, clock left at the end median "
            f"{statistics.median(s['end']):.2f} s (lowest {min(s['end']):.2f}), first 20 moves "
            f"median {statistics.median(s['first20']):.2f} s, "
            f"{statistics.mean(s['moves']) if s['moves'] else 0:.3f} s a move"
        )


if __name__ == "__main__":
    main()
