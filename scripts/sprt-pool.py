#!/usr/bin/env python3
"""Pool the W/D/L counts of several runs of one test and give the Elo, its 95% interval and the
SPRT log-likelihood ratio of the pool, by ../shared/tools/match.py's own formulas. A test that
outlives a session goes on with a new seed; the runs together pass or fail where the pooled LLR
first reaches +-2.94.

    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 27,88,13
    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 --log run2.log   # finds where the pool passed
    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 --log run2.log --log run3.log

With --log, every progress line of a match.py log (`[n/N] ... W w D d L l ...`) is added in turn to
the counts given, and the first game at which the pool reaches a bound is reported. Logs of runs
played side by side (--log more than once) are added at the same game number of each log, as
they were played; a log that ended earlier keeps its last counts.
"""
import argparse
import importlib.util
import os
import re

BOUND = 2.94


def load_match(shared):
    path = os.path.join(shared, "tools", "match.py")
    spec = importlib.util.spec_from_file_location("match", path)
    match = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(match)
    return match


def counts(text):
    w, d, l = (int(x) for x in text.split(","))
    return w, d, l


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="*", type=counts, metavar="W,D,L")
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    ap.add_argument("--log", action="append", default=[],
                    help="a match.py log whose progress lines continue the pool (more than once: side by side)")
    ap.add_argument("--shared", default="../shared")
    a = ap.parse_args()
    match = load_match(a.shared)

    def describe(w, d, l):
        line = match.summary(w, d, l)
        if a.sprt:
            line += f"  LLR {match.llr(w, d, l, *a.sprt):+.2f}"
        return line

    base = tuple(sum(run[i] for run in a.runs) for i in range(3))
    if not a.log:
        if sum(base) == 0:
            raise SystemExit("no games: give W,D,L counts or --log")
        print(describe(*base))
        return
    logs = [read_progress(path) for path in a.log]
    latest = [(0, 0, 0)] * len(logs)
    pooled = base
    for game in range(1, max(max(lines) for lines in logs) + 1):
        latest = [lines.get(game, last) for lines, last in zip(logs, latest)]
        pooled = tuple(base[i] + sum(counts[i] for counts in latest) for i in range(3))
        v = match.llr(*pooled, *a.sprt) if a.sprt else 0.0
        if abs(v) >= BOUND:
            print(f"{'passed' if v > 0 else 'failed'} at game {game} of each log, {sum(pooled)} games "
                  f"in the pool: {describe(*pooled)}")
            return
    print(f"after every log's last line, {sum(pooled)} games in the pool: {describe(*pooled)}")


def read_progress(path):
    """Each progress line's W, D, L by the game number it reports."""
    progress = re.compile(r"^\[(\d+)/\d+\].*W (\d+) D (\d+) L (\d+)")
    lines = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = progress.match(line)
            if m:
                game, w, d, l = (int(x) for x in m.groups())
                lines[game] = (w, d, l)
    if not lines:
        raise SystemExit(f"{path}: no progress lines")
    return lines


if __name__ == "__main__":
    main()
