#!/usr/bin/env python3
"""Writes tests/fixtures/polyglot_probes.txt: the reference answers of python-chess's
chess.polyglot for positions from real games, so that the Rust test needs no python.

Run from the repository root: python3 scripts/gen_polyglot_fixture.py [SHARED_DIR]
Each output line: book<TAB>fen<TAB>entries, entries = space-separated uci:weight:learn
in file order (weight-0 entries included, illegal ones dropped, as find_all does).
"""
import glob
import os
import random
import sys

import chess
import chess.pgn
import chess.polyglot

SHARED = sys.argv[1] if len(sys.argv) > 1 else "../shared"
OUT = "tests/fixtures/polyglot_probes.txt"
TOTAL = 1000
IN_BOOK = 700


def game_positions():
    """Every mainline position of every standard or Chess960 game in the shared PGN files."""
    for path in sorted(glob.glob(os.path.join(SHARED, "pgn", "*", "*.pgn"))):
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                if type(board) is not chess.Board:
                    continue
                yield board.copy()
                for move in game.mainline_moves():
                    board.push(move)
                    yield board.copy()


def entries(reader, board):
    return " ".join(
        f"{board.uci(e.move)}:{e.weight}:{e.learn}"
        for e in reader.find_all(board, minimum_weight=0)
    )


# The Lasker trap, which lasker-trap.bin covers for Black, ending in the underpromotion fxg1=N+.
LASKER_TRAP = "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+"


def main():
    lines = []
    with chess.polyglot.open_reader(os.path.join(SHARED, "books", "performance.bin")) as reader:
        seen, in_book, out_of_book = set(), [], []
        for board in game_positions():
            fen = board.fen()
            if fen in seen:
                continue
            seen.add(fen)
            found = entries(reader, board)
            (in_book if found else out_of_book).append((fen, found))
        rng = random.Random(20261122)
        rng.shuffle(out_of_book)
        picked = in_book[:IN_BOOK]
        picked += out_of_book[: TOTAL - len(picked)]
        lines += [f"performance.bin\t{fen}\t{found}" for fen, found in picked]
    with chess.polyglot.open_reader(os.path.join(SHARED, "books", "lasker-trap.bin")) as reader:
        board = chess.Board()
        for san in LASKER_TRAP.split():
            lines.append(f"lasker-trap.bin\t{board.fen()}\t{entries(reader, board)}")
            board.push_san(san)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    n_in = sum(1 for line in lines if line.split("\t")[2])
    print(f"{OUT}: {len(lines)} positions, {n_in} with book moves")


if __name__ == "__main__":
    main()
