#!/usr/bin/env python3
"""Checks `kibitzer pgn convert` output against python-chess and pgn-extract.

For every PGN file under ../shared/pgn (or the files given):
  1. python-chess reads our output without errors;
  2. for each game python-chess reads cleanly from the original (and we support the variant),
     every line of play (mainline and all variations, as UCI moves) is the same in the
     original and in our output;
  3. pgn-extract reads our output without errors and finds the same mainlines as python-chess.
Usage: scripts/pgn-crosscheck.py [--kibitzer PATH] [FILE...]; exit status 1 on any mismatch.
"""

import argparse
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile

import chess
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parent.parent
PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
SUPPORTED = {None, "", "standard", "chess960", "fischerandom", "fischerrandom", "chess 960", "from position"}


def read_games(path):
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    handle = io.StringIO(text)
    games = []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return games
        games.append(game)


def lines_of_play(game):
    """Every root-to-leaf path as a tuple of UCI moves (sorted: the order of variations is
    compared through the mainline separately)."""
    out = []

    def walk(node, path):
        if not node.variations:
            out.append(tuple(path))
        for child in node.variations:
            walk(child, path + [child.uci()])

    walk(game, [])
    return sorted(out)


def mainline(game):
    """Mainline in UCI, castling written as the king's destination (pgn-extract's convention,
    also for Chess960, where python-chess writes king-takes-rook)."""
    board = game.board()
    moves = []
    for m in game.mainline_moves():
        if board.is_castling(m):
            file = "g" if board.is_kingside_castling(m) else "c"
            moves.append(chess.square_name(m.from_square) + file + chess.square_name(m.from_square)[1])
        else:
            moves.append(m.uci())
        board.push(m)
    return " ".join(moves)


def pgn_extract_mainlines(path):
    proc = subprocess.run(
        [PGN_EXTRACT, "-Wuci", "--notags", "--nocomments", "--nonags", "--novars", "-w100000", "-s", str(path)],
        capture_output=True, text=True, errors="replace")
    lines = [l.strip() for l in proc.stdout.splitlines() if l.strip()]
    moves = []
    for l in lines:
        # pgn-extract writes promotions in upper case (a7a8Q).
        tokens = [t.lower() for t in l.split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]
        moves.append(" ".join(tokens))
    # pgn-extract also warns about the data itself (a Result tag that contradicts the result
    # token, or a result that contradicts a mate); only problems with the moves count here.
    errors = [l for l in proc.stderr.splitlines()
              if any(k in l.lower() for k in ("illegal", "null move", "unknown move", "failed", "ambiguous"))]
    return moves, errors


def check_file(kibitzer, path, tmp):
    ours = tmp / (path.stem + ".out.pgn")
    subprocess.run([kibitzer, "pgn", "convert", str(path), "-o", str(ours)],
                   capture_output=True, text=True)
    original = read_games(path)
    converted = read_games(ours)
    problems = []
    if len(original) != len(converted):
        problems.append(f"{len(original)} games in, {len(converted)} out")
    compared = skipped = 0
    for i, (a, b) in enumerate(zip(original, converted), 1):
        if b.errors:
            problems.append(f"game {i}: python-chess errors in our output: {b.errors[0]}")
        variant = a.headers.get("Variant")
        if a.errors or (variant or "").lower() not in SUPPORTED:
            skipped += 1
            continue
        compared += 1
        if lines_of_play(a) != lines_of_play(b) or mainline(a) != mainline(b):
            problems.append(f"game {i}: moves differ")
    pe_moves, pe_errors = pgn_extract_mainlines(ours)
    # pgn-extract refuses null moves outside variations; that is no fault of our output when
    # it refuses the original file for the same reason.
    _, original_errors = pgn_extract_mainlines(path)
    if pe_errors and original_errors == pe_errors:
        problems_note = f"pgn-extract rejects the original too: {pe_errors[0]}"
        pe_errors = []
        py_filter = True
    else:
        problems_note = None
        py_filter = False
    py_moves = [mainline(g) for g in converted]
    if not py_filter and sorted(pe_moves) != sorted(py_moves):
        problems.append(f"pgn-extract mainlines differ ({len(pe_moves)} vs {len(py_moves)} games)")
    problems += [f"pgn-extract: {e}" for e in pe_errors[:5]]
    return compared, skipped, len(pe_moves), problems, problems_note


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kibitzer", default=str(ROOT / "target/release/kibitzer"))
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    args = parser.parse_args()
    files = args.files or sorted((ROOT.parent / "shared/pgn").glob("*/*.pgn"))
    failed = False
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            compared, skipped, extracted, problems, note = check_file(args.kibitzer, path, pathlib.Path(tmp))
            totals[0] += compared
            totals[1] += skipped
            totals[2] += extracted
            status = "ok" if not problems else "FAIL"
            print(f"{status:4} {path.name}: {compared} games identical in python-chess, "
                  f"{skipped} skipped (errors in the original or unsupported variant), "
                  f"{extracted} mainlines agreed by pgn-extract")
            for p in problems:
                print(f"     {p}")
            if note:
                print(f"     note: {note}")
            failed |= bool(problems)
    print(f"total: {totals[0]} games compared, {totals[1]} skipped, {totals[2]} pgn-extract mainlines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
