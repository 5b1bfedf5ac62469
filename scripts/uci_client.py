#!/usr/bin/env python3
"""Drive `kibitzer uci` from python-chess: play a short game against itself, run infinite
analysis with MultiPV 3 and stop it, ponder then ponderhit. Exits non-zero on any error.

    python3 scripts/uci_client.py [--engine target/release/kibitzer]
"""
import argparse
import sys
import time

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kibitzer")
    ap.add_argument("--plies", type=int, default=30)
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci([args.engine, "uci"])
    print("engine:", engine.id.get("name"))
    engine.configure({"Hash": 32, "Threads": 1, "UCI_ShowWDL": True})

    # 1. Play: clock-limited moves from both sides.
    board = chess.Board()
    clocks = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    while not board.is_game_over() and board.ply() < args.plies:
        t0 = time.time()
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=0.05, black_inc=0.05)
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        spent = time.time() - t0
        clocks[board.turn] += 0.05 - spent
        if clocks[board.turn] <= 0:
            sys.exit(f"lost on time at ply {board.ply()}")
        if result.move not in board.legal_moves:
            sys.exit(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    print(f"played {board.ply()} plies: {chess.Board().variation_san(board.move_stack)}")
    print(f"clocks left: white {clocks[chess.WHITE]:.2f}s black {clocks[chess.BLACK]:.2f}s")

    # 2. Infinite analysis with MultiPV 3, stopped after 2 seconds.
    pos = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    with engine.analysis(pos, multipv=3) as analysis:
        time.sleep(2.0)
        analysis.stop()
        best = analysis.wait()
        lines = {}
        for info in analysis.multipv:
            if "pv" in info:
                lines[info.get("multipv", 1)] = info
    print("analysis stopped, bestmove", best.move)
    for n in sorted(lines):
        info = lines[n]
        print(f"  line {n}: depth {info.get('depth')} score {info['score'].white()} "
              f"wdl {info.get('wdl')} pv {pos.variation_san(info['pv'][:6])}")
    if len(lines) != 3:
        sys.exit(f"expected 3 PV lines, got {len(lines)}")
    if best.move != chess.Move.from_uci("h5f7"):
        sys.exit(f"missed mate in one: {best.move}")

    # 3. Ponder, then ponderhit.
    board = chess.Board()
    board.push_uci("e2e4")
    result = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
    print("ponder search after", result.move, "pondering on", result.ponder)
    if result.ponder is not None:
        board.push(result.move)
        board.push(result.ponder)
        result = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
        print("next move", result.move)

    engine.quit()
    print("ok")


if __name__ == "__main__":
    main()
