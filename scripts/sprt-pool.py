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

With --watch SECONDS the logs are read again every SECONDS until the pool reaches a bound, and then
each --stop PID (the runs' match.py processes) is ended with its engines, so that no core goes on
playing games the test no longer uses; it also ends when every --stop process has ended on its own.

    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 --log a.log --log b.log --watch 30 --stop 4242 --stop 4243
"""
import argparse
import importlib.util
import os
import re
import signal
import time

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
    ap.add_argument("--watch", type=float, metavar="SECONDS",
                    help="read the logs again every SECONDS until the pool reaches a bound")
    ap.add_argument("--stop", type=int, action="append", default=[], metavar="PID",
                    help="with --watch: a run to end (with its engines) once the pool is decided")
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
    if a.watch is None:
        logs = [read_progress(path) for path in a.log]
        for path, lines in zip(a.log, logs):
            if not lines:
                raise SystemExit(f"{path}: no progress lines")
        print(pool_verdict(match, a.sprt, base, logs, describe)[1])
        return
    if not a.sprt or not a.stop:
        raise SystemExit("--watch needs --sprt and at least one --stop PID")
    while True:
        decided, line = pool_verdict(match, a.sprt, base, [read_progress(p) for p in a.log], describe)
        if decided:
            for pid in a.stop:
                end_run(pid)
            print(line, flush=True)
            return
        if not any(alive(pid) for pid in a.stop):
            print(f"every run ended; {line}", flush=True)
            return
        time.sleep(a.watch)


def pool_verdict(match, sprt, base, logs, describe):
    """Adds the logs' progress game by game to the base counts: whether a bound was reached, and
    the line that says where (or how the pool stands after the last line)."""
    latest = [(0, 0, 0)] * len(logs)
    pooled = base
    last_game = max((max(lines) for lines in logs if lines), default=0)
    for game in range(1, last_game + 1):
        latest = [lines.get(game, last) for lines, last in zip(logs, latest)]
        pooled = tuple(base[i] + sum(counts[i] for counts in latest) for i in range(3))
        v = match.llr(*pooled, *sprt) if sprt else 0.0
        if abs(v) >= BOUND:
            return True, (f"{'passed' if v > 0 else 'failed'} at game {game} of each log, "
                          f"{sum(pooled)} games in the pool: {describe(*pooled)}")
    if sum(pooled) == 0:
        return False, "no games yet"
    return False, f"after every log's last line, {sum(pooled)} games in the pool: {describe(*pooled)}"


def read_progress(path):
    """Each progress line's W, D, L by the game number it reports (none yet: empty)."""
    progress = re.compile(r"^\[(\d+)/\d+\].*W (\d+) D (\d+) L (\d+)")
    lines = {}
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise SystemExit(f"{path}: no such log")
    with f:
        for line in f:
            m = progress.match(line)
            if m:
                game, w, d, l = (int(x) for x in m.groups())
                lines[game] = (w, d, l)
    return lines


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def descendants(pid):
    """Every process below `pid` (the engines a match.py run started, through any wrapper that
    started match.py itself), from /proc."""
    parent_of = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # The name in brackets may hold spaces; the parent's pid is the second field after it.
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1:
            parent_of[int(entry)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        below = [p for p, parent in parent_of.items() if parent in frontier]
        found += below
        frontier = below
    return found


def end_run(pid):
    """Ends a match.py run and the engines it started: they would otherwise play on as orphans."""
    engines = descendants(pid)
    for p in [pid] + engines:
        try:
            os.kill(p, signal.SIGTERM)
        except ProcessLookupError:
            pass


if __name__ == "__main__":
    main()
