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


def judge_for_game(engine, depth):
    """Scores positions of one game for either side; a position is searched once however often it
    is asked for (the decisive-move scan and the checkpoints ask for the same ones), each from a
    cleared hash (`ucinewgame`), so that a score does not depend on what was searched before it."""
    white_scores = {}

    def judge(board, colour):
        ply = len(board.move_stack)
        if ply not in white_scores:
            limit = chess.engine.Limit(depth=depth)
            info = engine.analyse(board, limit, game=object())
            white_scores[ply] = info["score"].white().score(mate_score=10000)
        return white_scores[ply] if colour == chess.WHITE else -white_scores[ply]

    return judge


def sample_checkpoints(game, colour, checkpoints, judge, at_checkpoint):
    """The reference's score for `colour` when each checkpoint's move number is first reached."""
    board = game.board()
    start = board.fullmove_number
    left = set(checkpoints)
    for node in [None, *game.mainline()]:
        if node is not None:
            board.push(node.move)
        number = board.fullmove_number - start + 1
        if number in left and not board.is_game_over():
            left.discard(number)
            at_checkpoint[number].append(max(-1000, min(1000, judge(board, colour))))


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
            judge = judge_for_game(reference, args.depth)
            if checkpoints:
                sample_checkpoints(game, colour, checkpoints, judge, at_checkpoint)
            lost = game.headers.get("Result") == ("0-1" if colour == chess.WHITE else "1-0")
            if not lost:
                continue
            losses += 1
            board = game.board()
            before = judge(board, colour)
            found = None
            for node in game.mainline():
                if board.turn != colour:
                    board.push(node.move)
                    before = judge(board, colour)
                    continue
                number, san, where = board.fullmove_number, board.san(node.move), phase(board)
                board.push(node.move)
                after = judge(board, colour)
                if after < args.lost and before >= args.lost - args.drop and before - after >= args.drop:
                    own = OWN_SCORE.match(node.comment.strip())
                    found = (number, san, before, after, where, own.group(1) if own else "?")
                    break
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
