#!/usr/bin/env python3
"""Writes tests/fixtures/syzygy_moves.txt: python-chess's DTZ after every legal move of the
200 positions of syzygy-reference.epd, so that the Rust test needs no python.

Run from the repository root: python3 scripts/gen_tb_fixture.py [SHARED_DIR]
Each output line: fen<TAB>root dtz<TAB>moves, moves = space-separated uci:dtz, where dtz is
chess.syzygy's probe_dtz of the position after the move (from its side to move), or
"mate" when that position is checkmate.
"""
import os
import sys

import chess
import chess.syzygy

SHARED = sys.argv[1] if len(sys.argv) > 1 else "../shared"
OUT = "tests/fixtures/syzygy_moves.txt"


def main():
    tables = chess.syzygy.open_tablebase(os.path.join(SHARED, "syzygy"))
    lines = []
    with open(os.path.join(SHARED, "epd", "endgame", "syzygy-reference.epd")) as f:
        for line in f:
            if not line.strip():
                continue
            board = chess.Board(" ".join(line.split()[:4]) + " 0 1")
            moves = []
            for move in board.legal_moves:
                board.push(move)
                dtz = "mate" if board.is_checkmate() else str(tables.probe_dtz(board))
                board.pop()
                moves.append(f"{move.uci()}:{dtz}")
            lines.append(f"{board.fen()}\t{tables.probe_dtz(board)}\t{' '.join(moves)}\n")
    with open(OUT, "w") as out:
        out.writelines(lines)
    print(f"{OUT}: {len(lines)} positions, {sum(l.count(':') for l in lines)} moves")


if __name__ == "__main__":
    main()
