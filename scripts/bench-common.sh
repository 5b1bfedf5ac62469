# Sourced by the PGN and database benches: the file to read (built if missing), the release
# build, pgn-extract, a temporary folder, and `measure`.
#
# After sourcing: $file, $games, $bytes, $kibitzer, $pgn_extract, $tmp (removed at exit).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
file="${1:-/tmp/kibitzer-100k.pgn}"
[[ -f "$file" ]] || scripts/make-big-pgn.sh "$file" >/dev/null
kibitzer=target/release/kibitzer
cargo build --release --quiet
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
# A tool that is missing would be timed failing at once: check it first.
[[ -x "$pgn_extract" ]] || { echo "error: pgn-extract not found (apt-get install pgn-extract)" >&2; exit 1; }
games=$(grep -c '^\[Event ' "$file")
bytes=$(stat -c %s "$file")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs a command under /usr/bin/time; prints "wall cpu peak_kb" (cpu: user + sys). A command
# that fails prints nothing (so the caller's read fails and the script stops) and says why on
# stderr. Exit status 1 of `pgn check` only says that some game has an error (the big file
# repeats an illegal one).
measure() {
    local out="$tmp/time" status=0
    /usr/bin/time -f "%e %U %S %M" -o "$out" nice "$@" >/dev/null 2>"$tmp/stderr" || status=$?
    if ((status == 1)) && [[ "$*" == *" pgn check "* ]]; then
        status=0
    fi
    if ((status != 0)); then
        echo "error: '$*' failed with exit status $status:" >&2
        grep -v '^Command exited' "$tmp/stderr" | tail -n 5 >&2
        return 1
    fi
    tail -n 1 "$out" | awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}'
}
