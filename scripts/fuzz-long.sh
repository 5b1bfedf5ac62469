#!/usr/bin/env bash
# The long fuzz run: a million inputs for every parser target (FEN, SAN, UCI move, UCI command,
# PGN files, Polyglot books, NNUE files, training games, config.toml, EPD), then the count of each.
# Usage: scripts/fuzz-long.sh [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations="${1:-1000000}"
start=$(date +%s)
KIBITZER_FUZZ_ITERATIONS="$iterations" cargo test --release \
    --test fuzz --test parsers_never_panic -- --test-threads 2 2>&1 | tee /tmp/kibitzer-fuzz.log
# cargo test exits non-zero on any failure (set -e); say plainly what ran.
passed=$(grep -c '^test .* ok$' /tmp/kibitzer-fuzz.log || true)
echo "fuzz: $passed targets passed, $iterations inputs each, $(( $(date +%s) - start )) s"
