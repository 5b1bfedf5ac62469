#!/usr/bin/env bash
# PGN bars, side by side on one file: parse + validate every move (kibitzer pgn check vs
# pgn-extract vs python-chess) and index speed with peak memory (kibitzer pgn index).
#
# Usage: scripts/pgn-bench.sh [FILE]   (default: /tmp/kibitzer-100k.pgn, built if missing;
# scripts/make-big-pgn.sh --lichess builds the same games with %eval and %clk on every move)
# PY_GAMES=N times python-chess on the first N games only and scales its times by
# games/N (it needs ~4 ms per game); PY_GAMES=all (the default) reads the whole file.
# Times are wall clock and CPU (user+sys) from /usr/bin/time; on a shared machine compare the
# CPU columns.
source "$(dirname "$0")/bench-common.sh"
python3 -c 'import chess.pgn' 2>/dev/null || { echo "error: python-chess not found (pip install chess)" >&2; exit 1; }
py_games="${PY_GAMES:-all}"

cat > "$tmp/read.py" <<'PY'
import sys, chess.pgn
limit = None if sys.argv[2] == "all" else int(sys.argv[2])
n = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while limit is None or n < limit:
        if chess.pgn.read_game(f) is None:
            break
        n += 1
PY

echo "file: $file ($games games, $bytes bytes)"
read -r k_wall k_cpu k_mem < <(measure "$kibitzer" pgn check --quiet "$file")
read -r e_wall e_cpu e_mem < <(measure "$pgn_extract" -s -o /dev/null "$file")
read -r p_wall p_cpu p_mem < <(measure python3 "$tmp/read.py" "$file" "$py_games")
scale=1
if [[ "$py_games" != all ]]; then
    scale=$(awk -v g="$games" -v n="$py_games" 'BEGIN { printf "%.4f", g / n }')
fi
read -r i_wall i_cpu i_mem < <(measure "$kibitzer" pgn index "$file")

awk -v kw="$k_wall" -v kc="$k_cpu" -v km="$k_mem" \
    -v ew="$e_wall" -v ec="$e_cpu" -v em="$e_mem" \
    -v pw="$p_wall" -v pc="$p_cpu" -v pm="$p_mem" -v s="$scale" -v pg="$py_games" \
    -v iw="$i_wall" -v ic="$i_cpu" -v im="$i_mem" -v b="$bytes" 'BEGIN {
    pw *= s; pc *= s
    printf "%-28s %10s %10s %10s\n", "parse + validate", "wall s", "cpu s", "peak MB"
    printf "%-28s %10.2f %10.2f %10.1f\n", "kibitzer pgn check", kw, kc, km / 1024
    printf "%-28s %10.2f %10.2f %10.1f\n", "pgn-extract", ew, ec, em / 1024
    note = (pg == "all") ? "" : sprintf(" (x%.1f from %s games)", s, pg)
    printf "%-28s %10.2f %10.2f %10.1f%s\n", "python-chess", pw, pc, pm / 1024, note
    printf "ratios (cpu): python-chess / kibitzer = %.1fx, pgn-extract / kibitzer = %.2fx\n", pc / kc, ec / kc
    printf "ratios (wall): python-chess / kibitzer = %.1fx, pgn-extract / kibitzer = %.2fx\n", pw / kw, ew / kw
    printf "index: %.2f s wall, %.2f s cpu, %.0f MB/s (wall), %.0f MB/s (cpu), peak %.1f MB\n",
        iw, ic, b / 1e6 / iw, b / 1e6 / ic, im / 1024
}'
