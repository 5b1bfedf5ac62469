#!/usr/bin/env python3
"""Writes the self-play games of `kibitzer datagen` files (KBGAMES1) as PGN: a corpus of
diverse games (every game from its own opening, no two alike) for measuring the game database,
whose bench file of scripts/make-big-pgn.sh repeats 200 games.

    python3 scripts/selfplay-pgn.py FILE.kbg... > games.pgn

Needs python-chess. Moves are our 16-bit codes: from (6 bits), to (6 bits), flags (4 bits;
castling is the king taking its own rook, a promotion's low two flag bits are N, B, R, Q).
"""

import struct
import sys

import chess
import chess.pgn

RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}


def decode(board, raw):
    src, dst, flags = raw & 63, (raw >> 6) & 63, raw >> 12
    if flags == 2:  # castling: the king goes two files towards the rook
        file = 6 if chess.square_file(dst) > chess.square_file(src) else 2
        dst = chess.square(file, chess.square_rank(src))
    promotion = (flags & 3) + 2 if flags & 8 else None
    move = chess.Move(src, dst, promotion)
    if move not in board.legal_moves:
        raise ValueError(f"{move.uci()} is not legal in {board.fen()}")
    return move


def games(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"KBGAMES1":
        raise SystemExit(f"{path}: not a games file")
    at = 8
    while at < len(data):
        n = data[at]
        fen = data[at + 1 : at + 1 + n].decode()
        result = data[at + 1 + n]
        (plies,) = struct.unpack_from("<H", data, at + 2 + n)
        at += 4 + n
        moves = [struct.unpack_from("<Hh", data, at + 4 * i)[0] for i in range(plies)]
        at += 4 * plies
        yield fen, RESULTS[result], moves


def main():
    number = 0
    for path in sys.argv[1:]:
        for fen, result, moves in games(path):
            number += 1
            board = chess.Board(fen)
            game = chess.pgn.Game()
            game.setup(board)
            game.headers["Event"] = "kibitzer self-play"
            game.headers["Round"] = str(number)
            game.headers["White"] = "kibitzer"
            game.headers["Black"] = "kibitzer"
            game.headers["Result"] = result
            node = game
            try:
                for raw in moves:
                    node = node.add_variation(decode(node.board(), raw))
            except ValueError as e:
                print(f"{path}: game {number}: {e}", file=sys.stderr)
                continue
            print(game, end="\n\n")


if __name__ == "__main__":
    main()
