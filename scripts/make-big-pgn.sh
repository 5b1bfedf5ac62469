#!/usr/bin/env bash
# Builds a 100,000-game PGN for benchmarks by repeating the 200 lichess games of
# ../shared/pgn/pgn-reader (legal.pgn and illegal.pgn, which holds one illegal move) 500 times.
# Usage: scripts/make-big-pgn.sh [OUT] (default /tmp/kibitzer-100k.pgn). Never commit the output.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${KIBITZER_SHARED:-../shared}"
out="${1:-/tmp/kibitzer-100k.pgn}"
src=("$shared/pgn/pgn-reader/legal.pgn" "$shared/pgn/pgn-reader/illegal.pgn")
one=$(mktemp)
trap 'rm -f "$one"' EXIT
for f in "${src[@]}"; do
    cat "$f"
    printf '\n\n'
done > "$one"
: > "$out.tmp"
for _ in $(seq 500); do cat "$one"; done >> "$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(grep -c '^\[Event ' "$out") games, $(stat -c %s "$out") bytes"
