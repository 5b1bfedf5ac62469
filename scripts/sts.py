#!/usr/bin/env python3
"""Run the Strategic Test Suite (STS 1-15, 1,500 positions) through any UCI engine at a fixed time
per position and print the points per theme (each position scores its c8/c9 points, 10 for the
best move), so that two engines' positional judgement can be compared theme by theme.

    python3 scripts/sts.py --engine "target/release/kibitzer uci" [--time 0.2] [--out scores.tsv]
"""
import argparse
import collections
import shlex
import sys
import time

import chess
import chess.engine


def points(ops):
    """The moves (UCI) that score and their points, from the c9 and c8 fields."""
    moves = ops.get("c9", "").split()
    pts = [int(p) for p in ops.get("c8", "").split()]
    return dict(zip(moves, pts))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kibitzer uci", help="command line")
    ap.add_argument("--epd", default="../shared/epd/positional/sts.epd")
    ap.add_argument("--time", type=float, default=0.2, help="seconds per position")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--out", help="also write theme<TAB>points<TAB>positions lines here")
    args = ap.parse_args()

    with open(args.epd, "rb") as f:
        lines = [l.replace(b"\0", b"").decode("utf-8", "replace").strip() for l in f]
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    if "Hash" in engine.options:
        engine.configure({"Hash": args.hash})
    score = collections.Counter()
    count = collections.Counter()
    names = {}
    start = time.time()
    for n, line in enumerate(lines, 1):
        if not line:
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as e:
            print(f"{args.epd}: skipping line {n}: {e}", file=sys.stderr)
            continue
        # "STS(v3.0) Knight Outposts/Repositioning/Centralization.042": the version names the
        # theme (one position spells the name differently).
        version, _, name = ops.get("id", "?").partition(")")
        theme = names.setdefault(version, name.strip().rsplit(".", 1)[0])
        engine.protocol.send_line("ucinewgame")
        result = engine.play(board, chess.engine.Limit(time=args.time))
        score[theme] += points(ops).get(result.move.uci(), 0)
        count[theme] += 1
    engine.quit()
    total = sum(score.values())
    for theme in count:
        print(f"{theme:<45} {score[theme]:>5} / {10 * count[theme]}")
    print(f"total {total} / {10 * sum(count.values())} at {args.time}s per position in {time.time() - start:.0f}s")
    if args.out:
        with open(args.out, "w") as f:
            for theme in count:
                f.write(f"{theme}\t{score[theme]}\t{count[theme]}\n")


if __name__ == "__main__":
    main()
