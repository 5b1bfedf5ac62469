#!/usr/bin/env bash
# Bar: perft(6) of the start position, one thread, bulk counting, against Stockfish's
# `go perft 6` (which also counts the last ply in bulk). Runs both RUNS times, interleaved,
# and prints each pair of wall times, then the median of (Stockfish time / our time):
# above 1 means we are faster. Stockfish's start-up (measured with `go perft 1`) is subtracted
# so only the counting is compared.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
DEPTH=${DEPTH:-6}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
OURS=target/release/kibitzer

cargo build --release --quiet
[ -x "$STOCKFISH" ] || { echo "no Stockfish at $STOCKFISH" >&2; exit 1; }

# Wall time of a command in seconds, its output discarded.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

stockfish_perft() {
    printf 'setoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$1" |
        "$STOCKFISH"
}

ours_perft() {
    "$OURS" perft --depth "$1"
}

# Check both count the same.
expected=$(stockfish_perft "$DEPTH" | awk '/Nodes searched/ {print $3}')
got=$(ours_perft "$DEPTH" | awk '/^Nodes:/ {print $2}')
[ "$expected" = "$got" ] || { echo "node counts differ: stockfish $expected, ours $got" >&2; exit 1; }
echo "perft($DEPTH) of the start position: $got nodes"

ratios=()
for i in $(seq "$RUNS"); do
    startup=$(seconds stockfish_perft 1)
    sf=$(seconds stockfish_perft "$DEPTH")
    ours=$(seconds ours_perft "$DEPTH")
    sf_net=$(echo "$sf - $startup" | bc -l)
    ratio=$(echo "$sf_net / $ours" | bc -l)
    ratios+=("$ratio")
    printf 'run %d: stockfish %.3f s (%.3f s start-up), ours %.3f s, ratio %.2f\n' \
        "$i" "$sf" "$startup" "$ours" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
printf 'median ratio (stockfish time / ours) over %d runs: %.2f\n' "$RUNS" "$median"
