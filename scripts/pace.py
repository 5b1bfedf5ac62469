#!/usr/bin/env python3
"""How long the interface's opponent thinks on each move: games of kibitzer against itself at a
time control (5+3 by default) from the start position, each side asked as the interface asks it
(its clock, plus a cap of a human's average move: the base shared over 40 moves plus the
increment, `TimeControl::human_pace`), the book first (OwnBook, as play mode). Prints every game's
longest move and the distribution over all moves.

    python3 scripts/pace.py [--engine target/release/kibitzer] [--games 10] [--tc 5+3]
                            [--concurrency 2] [--bar 12]

Exits 1 if any move took longer than --bar seconds. Games are adjudicated (a score of 1000 cp or
more for 8 plies; within 10 cp for 20 plies after move 40) since their ends are the short moves.
"""
import argparse
import concurrent.futures
import statistics
import sys
import time

import chess
import chess.engine


def time_control(text):
    """The interface's MINUTES+SECONDS, in seconds."""
    minutes, _, inc = text.partition("+")
    return float(minutes) * 60, float(inc or 0)


def pace(base, inc):
    return base / 40 + inc


def play(args):
    base, inc = time_control(args.tc)
    cap = pace(base, inc)
    board = chess.Board()
    engines = [chess.engine.SimpleEngine.popen_uci([args.engine, "uci"]) for _ in range(2)]
    try:
        for e in engines:
            e.configure({"OwnBook": True, "Hash": 64})
        clocks = [base, base]
        thinks, scores = [], []
        # The games differ by the book's weighted random choice.
        while not board.is_game_over(claim_draw=True):
            side = 0 if board.turn == chess.WHITE else 1
            limit = chess.engine.Limit(
                white_clock=clocks[0], black_clock=clocks[1],
                white_inc=inc, black_inc=inc, time=cap)
            start = time.monotonic()
            result = engines[side].play(board, limit, info=chess.engine.INFO_SCORE)
            spent = time.monotonic() - start
            clocks[side] = clocks[side] - spent + inc
            if clocks[side] < 0:
                return thinks, f"{'White' if side == 0 else 'Black'} lost on time", board
            thinks.append((board.fullmove_number, side, spent))
            board.push(result.move)
            score = result.info.get("score")
            scores.append(score.white().score(mate_score=100_000) if score else None)
            verdict = adjudicate(board, scores)
            if verdict:
                return thinks, verdict, board
        return thinks, board.result(claim_draw=True), board
    finally:
        for e in engines:
            e.quit()


def adjudicate(board, scores):
    last = [s for s in scores[-20:] if s is not None]
    if len(scores) >= 8 and all(s is not None and abs(s) >= 1000 for s in scores[-8:]):
        return "1-0 (adjudicated)" if scores[-1] > 0 else "0-1 (adjudicated)"
    if board.fullmove_number > 40 and len(last) == 20 and all(abs(s) <= 10 for s in last):
        return "1/2-1/2 (adjudicated)"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kibitzer")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--tc", default="5+3")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--bar", type=float, default=12.0)
    args = ap.parse_args()
    base, inc = time_control(args.tc)
    print(f"{args.games} games at {args.tc}, cap {pace(base, inc):.1f} s a move", flush=True)
    everything = []
    with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
        games = pool.map(lambda _: play(args), range(args.games))
        for n, (thinks, result, board) in enumerate(games, 1):
            longest = max(thinks, key=lambda t: t[2])
            colour = "White" if longest[1] == 0 else "Black"
            print(f"game {n}: {result} after {board.fullmove_number} moves; longest move "
                  f"{longest[2]:.2f} s ({colour}, move {longest[0]})", flush=True)
            everything += [t[2] for t in thinks]
    thought = sorted(everything)
    over = [t for t in thought if t > args.bar]
    p95 = thought[int(0.95 * (len(thought) - 1))]
    print(f"{len(thought)} moves: mean {statistics.mean(thought):.2f} s, 95th percentile "
          f"{p95:.2f} s, longest {thought[-1]:.2f} s; {len(over)} over {args.bar:g} s")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
