#!/usr/bin/env python3
"""SPSA tuning of the search parameters of a `tune` build (`cargo build --release --features
tune`), which declares each tunable of src/engine/params.rs as a UCI spin option.

Each iteration draws a random sign per parameter, plays a game pair (one opening, each side
once) between theta + c*delta and theta - c*delta, and moves theta towards the side that scored
more. Step sizes follow the usual schedule (Spall; as fishtest sets it): c_k = c_end * (N/k)^0.101,
a_k = r_end * c_end^2 * ((A + N) / (A + k))^0.602 with A = N / 10, so that at the last iteration
the perturbation is c_end and the step r_end * c_end^2 a game point. Pairs run in parallel and
update theta as they finish. The state (theta and the iteration) is saved after every pair to
--state, so a run can be stopped and resumed; the file also keeps every pair's result.

Example (20,000 nodes a move, two pairs at a time):
  scripts/spsa.py --engine target-tune/release/kibitzer --params RFP_MARGIN,FP_BASE,LMR_BASE \
      --pairs 2000 --nodes 20000 --concurrency 2 --openings ../shared/openings/openings.epd \
      --state spsa.json
"""

import argparse
import json
import os
import random
import sys
import threading

import chess
import chess.engine

GAMMA, ALPHA = 0.101, 0.602
MATE_CP = 100_000


def declared_spins(engine_cmd):
    """The engine's spin options: name -> (default, min, max)."""
    with chess.engine.SimpleEngine.popen_uci(engine_cmd) as engine:
        return {
            name: (opt.default, opt.min, opt.max)
            for name, opt in engine.options.items()
            if opt.type == "spin"
        }


def read_openings(path):
    fens = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board, _ = chess.Board.from_epd(line)
            except ValueError as e:
                sys.exit(f"{path}:{number}: not an EPD position: {e}")
            fens.append(board.fen())
    if not fens:
        sys.exit(f"{path}: no positions")
    return fens


def play_game(white, black, fen, limit, game_id):
    """Plays one game; returns White's points (1, 0.5, 0). Adjudicated when both engines agree
    that one side is 10 pawns up for 4 plies in a row, or after move 40 that it is within 0.1
    pawn for 8 plies."""
    board = chess.Board(fen)
    engines = {chess.WHITE: white, chess.BLACK: black}
    win_run, draw_run = 0, 0
    last_white_cp = None
    for ply in range(400):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return {chess.WHITE: 1.0, chess.BLACK: 0.0, None: 0.5}[outcome.winner]
        result = engines[board.turn].play(
            board, limit, game=game_id, info=chess.engine.INFO_SCORE
        )
        if result.move is None:
            # An engine that gives no move loses: a crash or a bug, not a result to tune on.
            return 0.0 if board.turn == chess.WHITE else 1.0
        score = result.info.get("score")
        if score is not None:
            white_cp = score.white().score(mate_score=MATE_CP)
            if abs(white_cp) < 1000:
                win_run = 0
            elif win_run > 0 and (white_cp > 0) == (last_white_cp > 0):
                win_run += 1
            else:
                win_run = 1
            draw_run = draw_run + 1 if abs(white_cp) <= 10 and ply >= 80 else 0
            last_white_cp = white_cp
            if win_run >= 4:
                return 1.0 if white_cp > 0 else 0.0
            if draw_run >= 8:
                return 0.5
        board.push(result.move)
    return 0.5


class Spsa:
    def __init__(self, args, spins):
        self.args = args
        self.lock = threading.Lock()
        self.names = args.params.split(",")
        for name in self.names:
            if name not in spins:
                sys.exit(f"--params: the engine declares no spin option '{name}'")
        self.bounds = {n: (spins[n][1], spins[n][2]) for n in self.names}
        self.c_end = {n: (hi - lo) * args.c_end for n, (lo, hi) in self.bounds.items()}
        self.state = {"theta": {n: float(spins[n][0]) for n in self.names}, "k": 0, "pairs": []}
        if os.path.exists(args.state):
            with open(args.state, encoding="utf-8") as f:
                saved = json.load(f)
            if sorted(saved["theta"]) != sorted(self.names):
                sys.exit(f"{args.state}: tunes {sorted(saved['theta'])}, not --params")
            self.state = saved
        self.rng = random.Random(args.seed + self.state["k"])

    def step_sizes(self, name, k):
        """Iteration k's perturbation c_k and step a_k for one parameter."""
        n_total, c_end = self.args.pairs, self.c_end[name]
        big_a = n_total / 10
        c_k = c_end * (n_total / k) ** GAMMA
        a_k = self.args.r_end * c_end**2 * ((big_a + n_total) / (big_a + k)) ** ALPHA
        return c_k, a_k

    def clamp(self, name, value):
        lo, hi = self.bounds[name]
        return min(hi, max(lo, value))

    def next_perturbation(self, fens):
        """The next iteration's number, signs, two parameter sets and opening, or None when
        done."""
        with self.lock:
            if self.state["k"] >= self.args.pairs:
                return None
            self.state["k"] += 1
            k = self.state["k"]
            signs = {n: self.rng.choice((-1, 1)) for n in self.names}
            plus, minus = {}, {}
            for n in self.names:
                c_k, _ = self.step_sizes(n, k)
                theta = self.state["theta"][n]
                plus[n] = self.clamp(n, round(theta + c_k * signs[n]))
                minus[n] = self.clamp(n, round(theta - c_k * signs[n]))
            return k, signs, plus, minus, self.rng.choice(fens)

    def update(self, k, signs, points):
        """`points`: the plus side's score minus the minus side's over the pair (-2..2)."""
        with self.lock:
            for n in self.names:
                c_k, a_k = self.step_sizes(n, k)
                step = a_k * points * signs[n] / c_k
                self.state["theta"][n] = self.clamp(n, self.state["theta"][n] + step)
            self.state["pairs"].append([k, points])
            tmp = self.args.state + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.state, f)
            os.replace(tmp, self.args.state)
            done = len(self.state["pairs"])
            if done % self.args.report == 0:
                recent = [p for _, p in self.state["pairs"][-self.args.report :]]
                theta = ", ".join(f"{n} {v:.1f}" for n, v in self.state["theta"].items())
                print(f"pair {done}: last {len(recent)} sum {sum(recent):+.1f}; {theta}", flush=True)


def worker(spsa, fens, limit, args):
    cmd = [args.engine] + args.engine_arg
    with chess.engine.SimpleEngine.popen_uci(cmd) as a, chess.engine.SimpleEngine.popen_uci(
        cmd
    ) as b:
        for engine in (a, b):
            engine.configure({"Hash": args.hash})
        while (job := spsa.next_perturbation(fens)) is not None:
            k, signs, plus, minus, fen = job
            a.configure(plus)
            b.configure(minus)
            first = play_game(a, b, fen, limit, (k, 0))
            second = 1.0 - play_game(b, a, fen, limit, (k, 1))
            # The plus side's points minus the minus side's, over both games.
            spsa.update(k, signs, 2 * (first + second) - 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="a build with the `tune` feature")
    parser.add_argument("--engine-arg", action="append", default=[], help="e.g. uci")
    parser.add_argument("--params", required=True, help="comma-separated option names")
    parser.add_argument("--pairs", type=int, required=True, help="iterations (game pairs)")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--nodes", type=int, help="nodes a move")
    limit.add_argument("--movetime", type=float, help="seconds a move")
    parser.add_argument("--openings", required=True, help="EPD file of start positions")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--c-end", type=float, default=0.05,
                        help="last perturbation, as a share of each parameter's range")
    parser.add_argument("--r-end", type=float, default=0.002,
                        help="last step per game point, in units of c_end^2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--state", required=True, help="JSON state file (resumed if present)")
    parser.add_argument("--report", type=int, default=20, help="print theta every N pairs")
    args = parser.parse_args()

    if not args.engine_arg:
        args.engine_arg = ["uci"]
    spins = declared_spins([args.engine] + args.engine_arg)
    spsa = Spsa(args, spins)
    fens = read_openings(args.openings)
    limit = (
        chess.engine.Limit(nodes=args.nodes)
        if args.nodes is not None
        else chess.engine.Limit(time=args.movetime)
    )
    threads = [
        threading.Thread(target=worker, args=(spsa, fens, limit, args))
        for _ in range(args.concurrency)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    theta = {n: round(v) for n, v in spsa.state["theta"].items()}
    print("final:", " ".join(f"{n}={v}" for n, v in theta.items()))


if __name__ == "__main__":
    main()
