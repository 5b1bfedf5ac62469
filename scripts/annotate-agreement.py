#!/usr/bin/env python3
"""How often kibitzer's ?? marks agree with Stockfish's at the same setting.

Runs Stockfish on every mainline position of the first N games of a PGN at a fixed time per
position, marks a move ?? when it lowers the mover's winning chances (lichess's logistic curve)
by 0.3 or more and differs from Stockfish's best move, exactly as `kibitzer annotate` does, and
compares with the $4 marks in a file annotated by kibitzer (run it with --no-book so neither
side skips book moves).

    target/release/kibitzer annotate GAMES.pgn --games 1-50 --movetime 100 --no-book -o ours.pgn
    python3 scripts/annotate-agreement.py GAMES.pgn ours.pgn --games 50 --movetime 100

Needs python-chess (pip install chess) and Stockfish (/usr/games/stockfish or --stockfish).
"""

import argparse
import math
import sys

import chess
import chess.engine
import chess.pgn


def winning_chances(score: chess.engine.Score) -> float:
    """Same mapping as src/analysis/judgement.rs: mates as 1100-2000 cp, cp clamped to 1000."""
    mate = score.mate()
    if mate is not None:
        if mate == 0:
            cp = -(21 - 1) * 100
        else:
            cp = (1 if mate > 0 else -1) * (21 - min(10, abs(mate))) * 100
    else:
        cp = max(-1000, min(1000, score.score()))
    return 2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0


def read_games(path, limit):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while len(games) < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    return games


def stockfish_blunders(game, engine, movetime):
    """Set of ply numbers (1-based) Stockfish marks ??."""
    board = game.board()
    evals = []  # (score from the side to move, best move) per mainline position
    nodes = [game] + list(game.mainline())
    for node in nodes:
        board = node.board()
        if board.is_game_over():
            outcome = board.outcome()
            score = chess.engine.Mate(0) if outcome.winner is not None else chess.engine.Cp(0)
            evals.append((score, None))
            continue
        info = engine.analyse(board, chess.engine.Limit(time=movetime / 1000.0))
        pv = info.get("pv") or [None]
        evals.append((info["score"].relative, pv[0]))
    marks = set()
    for ply in range(1, len(nodes)):
        played = nodes[ply].move
        before, best = evals[ply - 1]
        after = -evals[ply][0]
        if played == best:
            continue
        if winning_chances(before) - winning_chances(after) >= 0.3:
            marks.add(ply)
    return marks


def our_blunders(game):
    return {ply for ply, node in enumerate(game.mainline(), start=1) if 4 in node.nags}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", help="the original PGN")
    parser.add_argument("ours", help="the same games annotated by kibitzer")
    parser.add_argument("--games", type=int, default=50, dest="limit")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds per position")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()

    originals = read_games(args.games, args.limit)
    annotated = read_games(args.ours, args.limit)
    if len(originals) != len(annotated):
        sys.exit(f"{args.games} has {len(originals)} games but {args.ours} has {len(annotated)}")

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    both = only_ours = only_theirs = 0
    try:
        for i, (original, mine) in enumerate(zip(originals, annotated), start=1):
            theirs = stockfish_blunders(original, engine, args.movetime)
            ours = our_blunders(mine)
            both += len(ours & theirs)
            only_ours += len(ours - theirs)
            only_theirs += len(theirs - ours)
            print(f"game {i}: ours {sorted(ours)} stockfish {sorted(theirs)}", flush=True)
    finally:
        engine.quit()

    union = both + only_ours + only_theirs
    print()
    print(f"?? marks: kibitzer {both + only_ours}, Stockfish {both + only_theirs}, both {both}")
    if union:
        print(f"agreement (both / either): {both / union:.1%}")
    if both + only_theirs:
        print(f"Stockfish's ?? that kibitzer also marks: {both / (both + only_theirs):.1%}")
    if both + only_ours:
        print(f"kibitzer's ?? that Stockfish also marks: {both / (both + only_ours):.1%}")


if __name__ == "__main__":
    main()
