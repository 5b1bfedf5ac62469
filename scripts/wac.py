#!/usr/bin/env python3
"""Run an EPD test suite (default: Win At Chess) through `kibitzer uci` at a fixed time per
position and report how many best moves (bm) were found and avoid-moves (am) avoided.

    python3 scripts/wac.py [--time 1.0] [--epd ../shared/epd/tactics/wac.epd] [--engine target/release/kibitzer]
"""
import argparse
import sys
import time

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kibitzer")
    ap.add_argument("--epd", default="../shared/epd/tactics/wac.epd")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    args = ap.parse_args()

    with open(args.epd, "rb") as f:
        lines = [l.replace(b"\0", b"").decode("utf-8", "replace").strip() for l in f]
    lines = [l for l in lines if l]
    if args.limit:
        lines = lines[: args.limit]

    engine = chess.engine.SimpleEngine.popen_uci([args.engine, "uci"])
    engine.configure({"Hash": args.hash, "Threads": args.threads})
    solved, failed = 0, []
    start = time.time()
    for n, line in enumerate(lines, 1):
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as e:
            print(f"skipping line {n}: {e}", file=sys.stderr)
            continue
        engine.protocol.send_line("ucinewgame")
        result = engine.play(board, chess.engine.Limit(time=args.time))
        good = True
        if "bm" in ops:
            good = result.move in ops["bm"]
        if "am" in ops:
            good = good and result.move not in ops["am"]
        if good:
            solved += 1
        else:
            failed.append(ops.get("id", str(n)))
        print(f"{n:>3} {'ok  ' if good else 'FAIL'} {board.san(result.move):<8} {ops.get('id', '')}", flush=True)
    engine.quit()
    print(f"solved {solved}/{len(lines)} at {args.time}s per position in {time.time() - start:.0f}s")
    if failed:
        print("failed: " + " ".join(failed))


if __name__ == "__main__":
    main()
