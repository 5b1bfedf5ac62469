#!/usr/bin/env python3
"""How often an engine's multi-PV lines are shorter than the depth they are reported at: each
engine searches four positions (an open game, the start, a queen's gambit middlegame, a rook
endgame) for --movetime ms at MultiPV 5, and every exact, non-mate line it reports is counted.

    python3 scripts/pv-lengths.py target/release/kibitzer /usr/games/stockfish [--movetime 1500]

A line ends before its depth where a node on it was searched shallower than the iteration
(reductions at PV nodes, a re-search a ply shallower) unless the engine completes it, as ours does
at MultiPV; mate lines end at the mate and are left out, and a line that ends the game or repeats
a position is complete.
"""
import argparse
import subprocess

import chess
import chess.engine

POSITIONS = [
    "r1bqkb1r/ppp2ppp/2n2n2/3Pp1N1/2B5/8/PPPP1PPP/RNBQK2R b KQkq - 0 5",
    chess.STARTING_FEN,
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25",
]


def command(path):
    """Our engine speaks UCI after its `uci` argument; others from the start."""
    return [path, "uci"] if "kibitzer" in path else [path]


def ends_game(board, pv):
    """Whether the line ends the game, or repeats a position, which engines score as a draw."""
    end = board.copy()
    for move in pv:
        end.push(move)
    return end.is_game_over(claim_draw=True) or end.is_repetition(2)


def count(path, movetime):
    engine = chess.engine.SimpleEngine.popen_uci(command(path), stderr=subprocess.DEVNULL)
    engine.configure({"Hash": 16})
    lines = short = worst = 0
    for fen in POSITIONS:
        board = chess.Board(fen)
        with engine.analysis(board, chess.engine.Limit(time=movetime / 1000), multipv=5,
                             game=object()) as analysis:
            for info in analysis:
                if "pv" not in info or "depth" not in info or "score" not in info:
                    continue
                if info.get("lowerbound") or info.get("upperbound") or info["score"].is_mate():
                    continue
                lines += 1
                missing = info["depth"] - len(info["pv"])
                if missing > 0 and not ends_game(board, info["pv"]):
                    short += 1
                    worst = max(worst, missing)
    engine.quit()
    return lines, short, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engines", nargs="+")
    parser.add_argument("--movetime", type=int, default=1500)
    args = parser.parse_args()
    for path in args.engines:
        lines, short, worst = count(path, args.movetime)
        print(f"{path}: {short} of {lines} lines shorter than their depth, by {worst} plies at most")


if __name__ == "__main__":
    main()
