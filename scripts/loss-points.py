#!/usr/bin/env python3
"""Where an engine lost its games of a match: every game of the PGN that `match.py --pgn` writes
is replayed and each position after the engine's moves scored by a reference engine at fixed
depth; the engine's decisive mistake is its first move after which the reference score (from its
own side) falls below --lost while it stood above --lost - --drop before. Per game it prints the
move, the scores around it, the phase (material on the board) and the engine's own score; at the
end a summary by phase and by how sudden the loss was. With --checkpoints, the reference's mean
score for the engine at those move numbers over all its games (won, drawn and lost): where in the
game the opponent gains. For finding what kind of position a stronger opponent wins, where the
Elo alone does not say.

    python3 scripts/loss-points.py match.pgn --engine g16 --reference /usr/games/stockfish
"""
import argparse
import re
import sys
from collections import Counter

import chess
import chess.engine
import chess.pgn

OWN_SCORE = re.compile(r"^([+-]?\d+\.\d+|[+-]?M\d+)/(\d+)")
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board):
    return sum(VALUE.get(p.piece_type, 0) for p in board.piece_map().values())


def phase(board):
    m = material(board)
    if board.fullmove_number <= 15 and m >= 62:
        return "opening"
    if m >= 36:
        return "middlegame"
    if m >= 16:
        return "late middlegame"
    return "endgame"


def score_for(engine, board, depth, colour):
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    return info["score"].pov(colour).score(mate_score=10000)


def sample_checkpoints(game, colour, checkpoints, reference, depth, at_checkpoint):
    """The reference's score for `colour` when each checkpoint's move number is first reached."""
    board = game.board()
    start = board.fullmove_number
    wanted = sorted(checkpoints)
    for node in [None, *game.mainline()]:
        if node is not None:
            board.push(node.move)
        while wanted and board.fullmove_number - start + 1 >= wanted[0]:
            if board.fullmove_number - start + 1 == wanted[0] and not board.is_game_over():
                score = score_for(reference, board, depth, colour)
                at_checkpoint[wanted[0]].append(max(-1000, min(1000, score)))
            wanted.pop(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", required=True, help="the name the PGN gives the engine to study")
    ap.add_argument("--reference", required=True, help="UCI engine that judges the positions")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--lost", type=int, default=-150, help="a score below this (cp) is lost")
    ap.add_argument("--drop", type=int, default=100, help="how far one move must fall (cp)")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--checkpoints", help="move numbers, e.g. 5,10,20,30,40: mean scores there")
    args = ap.parse_args()
    try:
        checkpoints = [int(n) for n in args.checkpoints.split(",")] if args.checkpoints else []
    except ValueError:
        sys.exit(f"--checkpoints: expected move numbers separated by commas, got {args.checkpoints!r}")

    try:
        handle = open(args.pgn, encoding="utf-8", errors="replace")
    except OSError as e:
        sys.exit(f"{args.pgn}: {e}")
    reference = chess.engine.SimpleEngine.popen_uci(args.reference)
    reference.configure({"Hash": args.hash})
    phases, kinds = Counter(), Counter()
    at_checkpoint = {n: [] for n in checkpoints}
    losses = 0
    try:
        while (game := chess.pgn.read_game(handle)) is not None:
            white, black = game.headers.get("White"), game.headers.get("Black")
            if args.engine not in (white, black):
                continue
            colour = chess.WHITE if white == args.engine else chess.BLACK
            if checkpoints:
                sample_checkpoints(game, colour, checkpoints, reference, args.depth, at_checkpoint)
            lost = game.headers.get("Result") == ("0-1" if colour == chess.WHITE else "1-0")
            if not lost:
                continue
            losses += 1
            board = game.board()
            before = score_for(reference, board, args.depth, colour)
            found = None
            for node in game.mainline():
                mover = board.turn
                board.push(node.move)
                if mover != colour:
                    before = score_for(reference, board, args.depth, colour)
                    continue
                after = score_for(reference, board, args.depth, colour)
                if after < args.lost and before >= args.lost - args.drop and before - after >= args.drop:
                    board.pop()
                    san = board.san(node.move)
                    where = phase(board)
                    own = OWN_SCORE.match(node.comment.strip())
                    found = (board.fullmove_number, san, before, after, where, own.group(1) if own else "?")
                    board.push(node.move)
                    break
                before = after
            opening = game.headers.get("FEN", "startpos")
            if found is None:
                kinds["gradual"] += 1
                print(f"{white} - {black}: no single decisive move (drift) [{opening}]")
                continue
            number, san, before, after, where, own = found
            kinds["sudden" if before > -50 else "from a worse position"] += 1
            phases[where] += 1
            print(
                f"{white} - {black}: move {number} {san}: {before:+} -> {after:+} cp, {where}, "
                f"its own score {own} [{opening}]"
            )
    finally:
        reference.quit()
    for n, scores in at_checkpoint.items():
        if scores:
            mean = sum(scores) / len(scores)
            print(f"move {n}: mean {mean:+.0f} cp over {len(scores)} games (clamped to +-1000)")
    print(f"\n{losses} losses; decisive mistakes by phase: {dict(phases)}; by kind: {dict(kinds)}")


if __name__ == "__main__":
    main()
