#!/usr/bin/env python3
"""Write held-out start positions for final strength checks: the end positions of the named
opening lines in ../shared/openings/eco (8 to 16 plies), leaving out any position that is in
../shared/openings/openings.epd (the development set) and, with --stockfish, any that Stockfish
scores beyond --max-cp at a shallow depth.

    python3 scripts/heldout-openings.py --out heldout.epd [--stockfish /usr/games/stockfish]
"""
import argparse
import csv
import glob
import io
import os

import chess
import chess.engine
import chess.pgn


def key(board):
    return " ".join(board.fen().split()[:4])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--out", required=True)
    ap.add_argument("--min-plies", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=16)
    ap.add_argument("--stockfish")
    ap.add_argument("--max-cp", type=int, default=80)
    args = ap.parse_args()

    development = set()
    with open(os.path.join(args.shared, "openings", "openings.epd")) as f:
        for line in f:
            if line.strip():
                development.add(" ".join(line.split()[:4]))

    seen, positions = set(), []
    for path in sorted(glob.glob(os.path.join(args.shared, "openings", "eco", "*.tsv"))):
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                game = chess.pgn.read_game(io.StringIO(row["pgn"]))
                board = game.end().board()
                plies = len(board.move_stack)
                k = key(board)
                if args.min_plies <= plies <= args.max_plies and k not in development and k not in seen:
                    seen.add(k)
                    positions.append(board)

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish) if args.stockfish else None
    kept = 0
    with open(args.out, "w") as out:
        for board in positions:
            if engine:
                score = engine.analyse(board, chess.engine.Limit(depth=10))["score"].white()
                if score.is_mate() or abs(score.score()) > args.max_cp:
                    continue
            out.write(board.epd() + "\n")
            kept += 1
    if engine:
        engine.quit()
    print(f"{kept} positions written to {args.out} ({len(positions)} candidates)")


if __name__ == "__main__":
    main()
