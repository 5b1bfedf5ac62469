#!/usr/bin/env python3
"""Pool the W/D/L counts of several runs of one test and give the Elo, its 95% interval and the
SPRT log-likelihood ratio of the pool, with the formulas of ../shared/tools/match.py (normal
approximation of the generalised SPRT, logistic Elo). A test that outlives a session goes on with
a new seed; the runs together pass or fail where the pooled LLR first reaches +-2.94.

    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 27,88,13
    python3 scripts/sprt-pool.py --sprt 0 10 62,196,37 --log run2.log   # finds where the pool passed

With --log, every progress line of a match.py log (`[n/N] ... W w D d L l ...`) is added in turn to
the counts given, and the first game at which the pool reaches a bound is reported.
"""
import argparse
import math
import re


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def stats(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    return n, s, var


def interval(w, d, l):
    n, s, var = stats(w, d, l)
    se = math.sqrt(var / n)
    return elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se)


def llr(w, d, l, elo0, elo1):
    n, s, var = stats(w, d, l)
    if n < 2 or w + l == 0 or var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def counts(text):
    w, d, l = (int(x) for x in text.split(","))
    return w, d, l


def describe(w, d, l, bounds):
    e, lo, hi = interval(w, d, l)
    line = f"W {w} D {d} L {l} over {w + d + l}: {e:+.1f} Elo [{lo:+.1f}, {hi:+.1f}]"
    if bounds:
        line += f", LLR {llr(w, d, l, *bounds):+.2f}"
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="*", type=counts, metavar="W,D,L")
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    ap.add_argument("--log", help="a match.py log whose progress lines continue the pool")
    a = ap.parse_args()
    w, d, l = (sum(run[i] for run in a.runs) for i in range(3))
    if a.log:
        progress = re.compile(r"^\[(\d+)/\d+\].*W (\d+) D (\d+) L (\d+)")
        last = None
        with open(a.log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = progress.match(line)
                if not m:
                    continue
                game, rw, rd, rl = (int(x) for x in m.groups())
                last = (game, w + rw, d + rd, l + rl)
                if a.sprt and abs(llr(*last[1:], *a.sprt)) >= 2.94:
                    verdict = "passed" if llr(*last[1:], *a.sprt) > 0 else "failed"
                    print(f"{verdict} at game {game} of the log: {describe(*last[1:], a.sprt)}")
                    return
        if last is None:
            raise SystemExit(f"{a.log}: no progress lines")
        print(f"after game {last[0]} of the log: {describe(*last[1:], a.sprt)}")
    elif w + d + l == 0:
        raise SystemExit("no games: give W,D,L counts or --log")
    else:
        print(describe(w, d, l, a.sprt))


if __name__ == "__main__":
    main()
