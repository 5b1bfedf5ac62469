#!/usr/bin/env bash
# The game database's figures in one run: import speed on the 100,000-game file of
# scripts/make-big-pgn.sh beside pgn-extract reading the same file, database size against the
# PGN, and the explorer's query times on that file ten times over (995,000 good games: the file
# repeats one game with an illegal move).
#
# The bench file repeats 200 games, so nearly every position of its index is reached by many.
# A second file of varied games (no two alike: scripts/selfplay-pgn.py writes the self-play games
# of `kibitzer datagen` as PGN) shows the size where most positions are reached once.
#
# Usage: scripts/db-bench.sh [FILE [VARIED.pgn]]   (default FILE: /tmp/kibitzer-100k.pgn,
# built if missing)
# Times are wall clock and CPU (user+sys) from /usr/bin/time; on a shared machine pause other
# jobs first and compare the CPU columns.
source "$(dirname "$0")/bench-common.sh"

echo "file: $file, $games games, $bytes bytes, $(nproc) cores"
read -r wall cpu _ < <(measure "$kibitzer" db import "$file" -o "$tmp/100k.kdb")
size=$(stat -c %s "$tmp/100k.kdb")
awk -v g="$games" -v w="$wall" -v c="$cpu" -v s="$size" -v b="$bytes" 'BEGIN {
    printf "kibitzer db import: %.2f s wall, %.2f s CPU: %.0f games/s, %.0f games per CPU-second\n", w, c, g / w, g / c
    printf "database: %d bytes, %.2f x the PGN\n", s, s / b }'
read -r wall cpu _ < <(measure "$pgn_extract" -s --quiet -o /dev/null "$file")
awk -v g="$games" -v w="$wall" -v c="$cpu" 'BEGIN {
    printf "pgn-extract -s: %.2f s wall, %.2f s CPU: %.0f games/s, %.0f games per CPU-second\n", w, c, g / w, g / c }'

for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$file"; done > "$tmp/1m.pgn"
read -r wall cpu _ < <(measure "$kibitzer" db import "$tmp/1m.pgn" -o "$tmp/1m.kdb")
awk -v g="$((games * 10))" -v w="$wall" -v c="$cpu" -v s="$(stat -c %s "$tmp/1m.kdb")" -v b="$((bytes * 10))" 'BEGIN {
    printf "ten times over: import %.2f s wall (%.0f games/s), database %.2f x the PGN\n", w, g / w, s / b }'
"$kibitzer" db bench "$tmp/1m.kdb"

if [[ -n "${2:-}" ]]; then
    varied_games=$(grep -c '^\[Event ' "$2")
    "$kibitzer" db import "$2" -o "$tmp/varied.kdb" >/dev/null 2>&1
    awk -v g="$varied_games" -v s="$(stat -c %s "$tmp/varied.kdb")" -v b="$(stat -c %s "$2")" 'BEGIN {
        printf "varied games (%d): database %d bytes, %.2f x the PGN\n", g, s, s / b }'
fi
