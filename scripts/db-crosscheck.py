#!/usr/bin/env python3
"""Checks `kibitzer db explore --json` against a brute-force count with python-chess.

Imports the PGN files (default: every file under ../shared/pgn) into a new database, then
python-chess replays every game it reads cleanly (standard chess and Chess960) and counts, for
each position (board, side, castling, en passant when a pawn can take), the games that reached
it at any ply, once each, with the move played after the first visit and the result. For 50
positions (the 10 most reached, then 40 drawn with a fixed seed from the first 30 plies of the
games) it compares the totals and every move's games, white wins, draws and black wins.
Usage: scripts/db-crosscheck.py [--kibitzer PATH] [--positions N] [FILE...]; exit 1 on any
difference.
"""

import argparse
import collections
import json
import pathlib
import random
import subprocess
import sys
import tempfile

import chess
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUPPORTED = {"", "standard", "chess", "normal", "from position", "fromposition", "classical",
             "chess960", "chess 960", "960", "fischerandom", "fischerrandom", "frc"}


class Builder(chess.pgn.GameBuilder):
    """Keeps the movetext's termination marker, which decides the result where the Result tag
    disagrees with it (as in two games of immortal-games.pgn), as kibitzer's reader does."""

    def visit_result(self, result):
        self.game.movetext_result = result
        super().visit_result(result)


def key(board):
    return board.epd(en_passant="xfen")


def brute_force(files):
    """Per position: {game: (uci of the next move or None, result)}, in game order."""
    seen = collections.defaultdict(dict)
    early = []
    games = 0
    for path in files:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            while True:
                try:
                    game = chess.pgn.read_game(f, Visitor=Builder)
                except Exception:
                    continue
                if game is None:
                    break
                variant = game.headers.get("Variant", "").lower()
                if game.errors or variant not in SUPPORTED:
                    continue
                games += 1
                board = game.board()
                result = getattr(game, "movetext_result", None) or game.headers.get("Result", "*")
                moves = list(game.mainline_moves())
                for ply in range(len(moves) + 1):
                    k = key(board)
                    nxt = moves[ply].uci() if ply < len(moves) else None
                    if games not in seen[k]:
                        seen[k][games] = (nxt, result)
                        if ply <= 30 and not board.chess960:
                            early.append(board.fen())
                    if ply < len(moves):
                        board.push(moves[ply])
    return seen, early, games


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kibitzer", default=str(ROOT / "target/release/kibitzer"))
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = [pathlib.Path(f) for f in args.files] or sorted((ROOT.parent / "shared/pgn").rglob("*.pgn"))

    with tempfile.TemporaryDirectory() as tmp:
        db = pathlib.Path(tmp) / "check.kdb"
        out = subprocess.run([args.kibitzer, "db", "import", *map(str, files), "-o", str(db)],
                             capture_output=True, text=True, check=True)
        print(out.stdout.strip())
        seen, early, games = brute_force(files)
        print(f"python-chess: {games} games read cleanly, {len(seen)} distinct positions")

        popular = sorted(seen, key=lambda k: -len(seen[k]))[:10]
        fens = {k: None for k in popular}
        rng = random.Random(29)
        by_key = {}
        for fen in early:
            by_key.setdefault(key(chess.Board(fen)), fen)
        candidates = sorted(set(by_key) - set(fens))
        for k in rng.sample(candidates, min(len(candidates), args.positions - len(fens))):
            fens[k] = by_key[k]
        failures = 0
        for k in fens:
            fen = fens[k] or k + " 0 1"
            report = json.loads(subprocess.run(
                [args.kibitzer, "db", "explore", str(db), "--fen", fen, "--json"],
                capture_output=True, text=True, check=True).stdout)
            expected = collections.defaultdict(lambda: [0, 0, 0, 0])
            for nxt, result in seen[k].values():
                if nxt is None:
                    continue
                e = expected[nxt]
                e[0] += 1
                e[1] += result == "1-0"
                e[2] += result == "1/2-1/2"
                e[3] += result == "0-1"
            got = {m["uci"]: [m["games"], m["white"], m["draws"], m["black"]] for m in report["moves"]}
            total_ok = report["games"] == len(seen[k])
            if not total_ok or got != dict(expected):
                failures += 1
                print(f"DIFFERENT {fen}: kibitzer {report['games']} games {got}, "
                      f"python-chess {len(seen[k])} games {dict(expected)}")
        print(f"{len(fens) - failures} of {len(fens)} positions agree "
              f"(moves with games, white wins, draws, black wins)")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
