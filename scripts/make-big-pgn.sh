#!/usr/bin/env bash
# Builds a 100,000-game PGN for benchmarks by repeating the 200 lichess games of
# ../shared/pgn/pgn-reader (legal.pgn and illegal.pgn, which holds one illegal move) 500 times.
# With --lichess, every move carries a comment as lichess exports analysed games write it,
# `{ [%eval 0.17] [%clk 0:02:58] }` (evaluations and clocks made up, the same on every run;
# needs python-chess).
# Usage: scripts/make-big-pgn.sh [--lichess] [OUT] (default /tmp/kibitzer-100k.pgn, or
# /tmp/kibitzer-100k-lichess.pgn). Never commit the output.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${KIBITZER_SHARED:-../shared}"
lichess=false
if [[ "${1:-}" == --lichess ]]; then
    lichess=true
    shift
fi
default=/tmp/kibitzer-100k.pgn
$lichess && default=/tmp/kibitzer-100k-lichess.pgn
out="${1:-$default}"
src=("$shared/pgn/pgn-reader/legal.pgn" "$shared/pgn/pgn-reader/illegal.pgn")
one=$(mktemp)
trap 'rm -f "$one"' EXIT
for f in "${src[@]}"; do
    cat "$f"
    printf '\n\n'
done > "$one"
if $lichess; then
    python3 - "$one" <<'PY'
import random, sys
import chess.pgn

path = sys.argv[1]
rng = random.Random(1)
games = []
with open(path, encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        clock = [180.0, 180.0]
        for i, node in enumerate(game.mainline()):
            clock[i % 2] = max(0.0, clock[i % 2] - rng.uniform(0, 6))
            score = rng.randint(-400, 400) / 100
            secs = int(clock[i % 2])
            node.comment = f"[%eval {score:.2f}] [%clk {secs // 3600}:{secs // 60 % 60:02}:{secs % 60:02}]"
        games.append(str(game))
with open(path, "w", encoding="utf-8") as f:
    f.write("\n\n".join(games) + "\n\n")
PY
fi
: > "$out.tmp"
for _ in $(seq 500); do cat "$one"; done >> "$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(grep -c '^\[Event ' "$out") games, $(stat -c %s "$out") bytes"
