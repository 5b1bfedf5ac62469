#!/usr/bin/env python3
"""How long a UCI engine thinks on its first move out of book: each of the first N positions of
an EPD file, set at a given move number, searched as the first move of a new game on a full
clock. For comparing the time allocation with another engine's (SEARCH.md, "Time use at
blitz").

    python3 scripts/first-move-time.py --base 300 --inc 3 -- target/release/kibitzer uci
    python3 scripts/first-move-time.py --base 300 --inc 3 -- /usr/games/stockfish
"""
import argparse
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("needs python-chess: pip install chess")


def read_positions(path, count, move):
    boards = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if len(fields) < 4 or line.startswith("#"):
                continue
            # EPD: four FEN fields, then operations; the clocks come from --move.
            fen = " ".join(fields[:4]) + f" 0 {move}"
            try:
                boards.append(chess.Board(fen))
            except ValueError as e:
                sys.exit(f"{path}:{n}: {e}")
            if len(boards) == count:
                break
    if not boards:
        sys.exit(f"{path}: no positions")
    return boards


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=float, default=300, help="clock in seconds (default 300)")
    ap.add_argument("--inc", type=float, default=3, help="increment in seconds (default 3)")
    ap.add_argument("--epd", default="../shared/openings/openings.epd")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--move", type=int, default=8, help="move number the positions are set at")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("engine", nargs="+", help="the engine's command and arguments")
    args = ap.parse_args()
    base, inc = args.base, args.inc
    boards = read_positions(args.epd, args.positions, args.move)

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        engine.configure({"Hash": args.hash})
        limit = chess.engine.Limit(
            white_clock=base, black_clock=base, white_inc=inc, black_inc=inc
        )
        spent = []
        for board in boards:
            started = time.monotonic()
            # A new game object each time: the engine is told `ucinewgame`.
            engine.play(board, limit, game=object())
            spent.append(time.monotonic() - started)
            print(f"{spent[-1]:6.2f} s  {100 * spent[-1] / base:4.1f}% of the clock  {board.fen()}")
        print(f"mean {sum(spent) / len(spent):.2f} s over {len(spent)} positions")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
