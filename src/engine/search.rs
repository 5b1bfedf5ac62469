//! The search kernel, top to bottom: iterative deepening → aspiration windows → principal
//! variation search (`pvs`) → quiescence search (`qsearch`). Node kinds are fixed at compile
//! time.

mod lines;
mod pvs;
mod qsearch;

pub(super) use lines::full_line;

use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::Instant;

use crate::chess::TbWdl;
use crate::chess::{Move, Position};

use super::params::*;
use super::score::*;
use super::thread::{SearchContext, ThreadData};
use super::time::TimeManager;
use super::tt::TtEntry;
use super::{Bound, SearchEvent};

pub trait NodeKind {
    const PV: bool;
    const ROOT: bool;
}
struct Root;
struct Pv;
struct NonPv;
impl NodeKind for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}
impl NodeKind for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}
impl NodeKind for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// Late-move reductions by [depth][move number].
#[cfg(not(feature = "tune"))]
static LMR: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut table = [[0; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    table
});

fn lmr_formula(depth: usize, moves: usize) -> i32 {
    let (base, div) = (f64::from(lmr_base()) / 100.0, f64::from(lmr_div()) / 100.0);
    (base + (depth as f64).ln() * (moves as f64).ln() / div) as i32
}

fn lmr(depth: i32, moves: usize) -> i32 {
    let (depth, moves) = ((depth as usize).min(63), moves.min(63));
    // A tuning build reads the parameters as they are set, so it cannot keep a table.
    #[cfg(feature = "tune")]
    return if depth == 0 || moves == 0 {
        0
    } else {
        lmr_formula(depth, moves)
    };
    #[cfg(not(feature = "tune"))]
    LMR[depth][moves]
}

fn lmp_limit(depth: i32, improving: bool) -> usize {
    ((lmp_base() + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// What only the main thread has: the clock and the event channel.
pub struct MainThread<'a> {
    pub tm: TimeManager,
    pub events: &'a Sender<SearchEvent>,
    pub started: Instant,
    pub was_pondering: bool,
}

pub struct Searcher<'a> {
    pub(super) td: &'a mut ThreadData,
    pub(super) ctx: &'a SearchContext<'a>,
    pub(super) main: Option<MainThread<'a>>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        td: &'a mut ThreadData,
        ctx: &'a SearchContext<'a>,
        main: Option<MainThread<'a>>,
    ) -> Searcher<'a> {
        Searcher { td, ctx, main }
    }

    // --- Iterative deepening -------------------------------------------------------------

    pub fn iterate(&mut self) {
        let max_depth = self
            .main
            .as_ref()
            .map_or(MAX_PLY as i32 - 1, |m| m.tm.max_depth);
        let mut last_best = None;
        let mut finished = None;
        for depth in 1..=max_depth {
            // Helpers skip some depths so threads spread over different iterations.
            if self.td.id > 0 && depth > 1 && (depth + self.td.id as i32) % 3 == 0 {
                continue;
            }
            self.td.root_depth = depth;
            for rm in &mut self.td.root_moves {
                rm.prev_score = rm.score;
                rm.score = -INFINITY;
            }
            for pv_idx in 0..self.ctx.multipv {
                self.td.pv_idx = pv_idx;
                self.td.seldepth = 0;
                let prev = self.td.root_moves[pv_idx].prev_score;
                self.aspiration(depth, prev);
                self.td.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.ctx.stopped() {
                    break;
                }
                self.td.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.ctx.stopped() {
                // At MultiPV the lines of the last finished iteration stand: complete, and of
                // one depth (strength levels choose among them).
                if let Some(finished) = finished.take() {
                    self.td.root_moves = finished;
                    break;
                }
                // A move that beat the old best in this unfinished iteration is played: report
                // it, so the last info line agrees with the best move.
                let best = &self.td.root_moves[0];
                if depth > 1 && best.score > -INFINITY && last_best != Some(best.mv) {
                    self.report(depth);
                }
                break;
            }
            self.td.completed_depth = depth;
            self.publish_nodes();
            if self.main.is_none() {
                continue;
            }
            if self.ctx.multipv > 1 {
                self.complete_lines(depth);
                if self.ctx.stopped()
                    && let Some(lines) = finished.take()
                {
                    // Stopped while completing them: the last finished lines stand.
                    self.td.root_moves = lines;
                    break;
                }
                finished = Some(self.td.root_moves.clone());
            }
            self.report(depth);
            let best = &self.td.root_moves[0];
            let (best_mv, best_score) = (best.mv, best.score);
            let changed = last_best != Some(best_mv);
            last_best = Some(best_mv);
            let main = self.main.as_mut().expect("main thread");
            let scaled_soft = main.tm.iteration_done(changed, best_score);
            let mate_found = main.tm.mate.is_some_and(|n| {
                matches!(Score::from_value(best_score), Score::Mate(m) if m > 0 && m as u32 <= n)
            });
            let pondering = self.ctx.flags.pondering.load(Ordering::Relaxed);
            if mate_found || (!pondering && main.tm.soft_stop(scaled_soft)) {
                self.ctx.flags.stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }

    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = asp_window();
        let (mut alpha, mut beta) = (-INFINITY, INFINITY);
        if depth >= ASP_MIN_DEPTH && !is_decisive(prev) && prev > -INFINITY {
            alpha = (prev - delta).max(-INFINITY);
            beta = (prev + delta).min(INFINITY);
        }
        let root = self.td.root.clone();
        loop {
            let score = self.pvs::<Root>(&root, alpha, beta, depth, 0, false);
            if self.ctx.stopped() {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            self.report_bound(depth);
            delta += delta / 2;
        }
    }

    // --- Helpers -------------------------------------------------------------------------

    /// A WDL probe right after a capture or pawn move. When the result's bound settles the node,
    /// it is stored in the transposition table and returned.
    fn probe_tablebase(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let tb = self.ctx.tablebases?;
        if pos.halfmoves() != 0
            || depth < tb.probe_depth
            || pos.occupied().count() > tb.tables.max_pieces()
            || pos.castling_rooks().0 != 0
        {
            return None;
        }
        let wdl = tb.tables.probe_wdl(pos)?;
        self.ctx.tb_hits.fetch_add(1, Ordering::Relaxed);
        let (value, bound) = match wdl {
            TbWdl::Win => (TB_WIN - ply as i32, Bound::Lower),
            TbWdl::CursedWin if !tb.rule50 => (TB_WIN - ply as i32, Bound::Lower),
            TbWdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            TbWdl::BlessedLoss if !tb.rule50 => (-TB_WIN + ply as i32, Bound::Upper),
            // Under the fifty-move rule these are draws; a hair off zero keeps the better side.
            TbWdl::CursedWin => (DRAW + 1, Bound::Exact),
            TbWdl::BlessedLoss => (DRAW - 1, Bound::Exact),
            TbWdl::Draw => (DRAW, Bound::Exact),
        };
        if !bound.decides(value, alpha, beta) {
            return None;
        }
        let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
        let entry = TtEntry {
            mv: None,
            value,
            eval: -INFINITY,
            depth,
            bound,
        };
        self.ctx.tt.store(pos.hash(), ply, entry);
        Some(value)
    }

    /// The position after `m`, with the path's keys and the evaluator following it.
    fn make_move(&mut self, pos: &Position, m: Move) -> Position {
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.entered(&child);
        self.td.eval.push_move(pos, m);
        child
    }

    /// The position after passing the move, as [`Self::make_move`] makes one after a move.
    fn make_null_move(&mut self, pos: &Position) -> Position {
        let mut child = pos.clone();
        child.play_null();
        self.entered(&child);
        self.td.eval.push_null();
        child
    }

    /// The child's key goes on the path, and its table bucket and evaluation cache entry start
    /// loading for the probe and evaluation that follow.
    fn entered(&mut self, child: &Position) {
        self.ctx.tt.prefetch(child.hash());
        self.td.eval.prefetch(child.hash());
        self.td.keys.push(child.hash());
    }

    /// Takes back [`Self::make_move`] or [`Self::make_null_move`].
    fn unmake_move(&mut self) {
        self.td.keys.pop();
        self.td.eval.pop();
    }

    /// Fifty-move rule, insufficient material, or a repetition since the last irreversible
    /// move: once on the current path, or twice in the game before the root.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.is_insufficient_material() {
            return true;
        }
        if pos.halfmoves() >= 100 {
            return !(pos.in_check() && pos.legal_moves().is_empty());
        }
        // A position seen again inside the search is a draw (the side that can avoid it
        // will); one seen only before the root needs to have been seen twice there.
        let keys = &self.td.keys;
        let n = keys.len();
        let reach = (pos.halfmoves() as usize).min(n - 1);
        let mut before_root = 0;
        for back in (4..=reach).step_by(2) {
            let i = n - 1 - back;
            if keys[i] == pos.hash() {
                if i >= self.td.root_key {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.td.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn update_root_move(&mut self, m: Move, score: i32, moves_seen: usize, alpha: i32, beta: i32) {
        let seldepth = self.td.seldepth;
        let child_pv = self.td.pv[1].clone();
        let rm = self
            .td
            .root_moves
            .iter_mut()
            .find(|rm| rm.mv == m)
            .expect("searched a root move");
        if moves_seen == 1 || score > alpha {
            rm.score = score;
            rm.seldepth = seldepth;
            rm.bound = Bound::of_result(score, alpha, beta, true);
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(&child_pv);
        } else {
            rm.score = -INFINITY;
        }
    }

    fn count_node(&mut self) {
        self.td.nodes += 1;
        // Node and time limits wait for the first iteration: a move is never unsearched.
        let limits_apply = self.td.completed_depth > 0;
        if !self.td.nodes.is_multiple_of(TIME_CHECK_NODES) {
            if let Some(main) = &self.main
                && limits_apply
                && main.tm.max_nodes.is_some_and(|max| self.td.nodes >= max)
                && self.ctx.nodes.len() == 1
            {
                self.ctx.flags.stop.store(true, Ordering::Relaxed);
            }
            return;
        }
        self.publish_nodes();
        let Some(main) = &mut self.main else {
            return;
        };
        let pondering = self.ctx.flags.pondering.load(Ordering::Relaxed);
        if main.was_pondering && !pondering {
            main.tm.restart();
            main.was_pondering = false;
        }
        let out_of_nodes = main
            .tm
            .max_nodes
            .is_some_and(|max| self.ctx.total_nodes() >= max);
        if limits_apply && (out_of_nodes || (!pondering && main.tm.hard_stop())) {
            self.ctx.flags.stop.store(true, Ordering::Relaxed);
        }
    }

    fn publish_nodes(&self) {
        self.ctx.nodes[self.td.id].store(self.td.nodes, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::*;
    use crate::engine::thread::Flags;
    use crate::engine::tt::TranspositionTable;

    fn with_searcher(keys: &[u64], f: impl FnOnce(&mut Searcher)) {
        with_searcher_at_root(keys, 0, f);
    }

    /// A searcher whose path holds `keys`, the root being `keys[root]`.
    fn with_searcher_at_root(keys: &[u64], root: usize, f: impl FnOnce(&mut Searcher)) {
        let tt = TranspositionTable::new(1);
        let flags = Flags::default();
        let nodes = [AtomicU64::new(0)];
        let tb_hits = AtomicU64::new(0);
        let ctx = SearchContext {
            tt: &tt,
            tablebases: None,
            tb_hits: &tb_hits,
            root_tb_value: None,
            flags: &flags,
            nodes: &nodes,
            multipv: 1,
        };
        let mut td = ThreadData::new(0);
        td.keys = keys.to_vec();
        td.root_key = root;
        f(&mut Searcher::new(&mut td, &ctx, None));
    }

    #[test]
    fn quiescence_keeps_a_capture_that_mates() {
        // WAC.001 after 1.Qg6 fxg6: White is a queen down, and Nxg6 wins only a pawn, far
        // below alpha, but it mates. Delta pruning must not drop it.
        let pos =
            Position::from_fen("2rr3k/pp4p1/1nnqbNpp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 2").unwrap();
        with_searcher(&[pos.hash()], |s| {
            assert_eq!(s.qsearch::<NonPv>(&pos, 0, 1, 0), mate_in(1));
        });
    }

    #[test]
    fn draws_by_repetition_fifty_moves_and_material() {
        let mut pos = Position::startpos();
        let mut keys = vec![pos.hash()];
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            pos = pos.play(pos.parse_uci(uci).unwrap()).unwrap();
            keys.push(pos.hash());
        }
        with_searcher(&keys, |s| {
            assert!(s.is_draw(&pos), "start position repeated")
        });
        with_searcher(&keys[1..], |s| {
            assert!(!s.is_draw(&pos), "no earlier occurrence")
        });
        // The same occurrence before the root: a draw only once it happened twice.
        with_searcher_at_root(&keys, 3, |s| {
            assert!(!s.is_draw(&pos), "seen once before the root")
        });
        let mut twice = keys.clone();
        let mut again = pos.clone();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            again = again.play(again.parse_uci(uci).unwrap()).unwrap();
            twice.push(again.hash());
        }
        with_searcher_at_root(&twice, 7, |s| {
            assert!(s.is_draw(&again), "seen twice before the root")
        });

        let fifty = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
        with_searcher(&[fifty.hash()], |s| assert!(s.is_draw(&fifty)));
        let mated = Position::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80").unwrap();
        with_searcher(&[mated.hash()], |s| {
            assert!(!s.is_draw(&mated), "mate beats fifty")
        });
        let knight = Position::from_fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        with_searcher(&[knight.hash()], |s| assert!(s.is_draw(&knight)));
    }
}
