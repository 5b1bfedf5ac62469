//! The search kernel, top to bottom: iterative deepening → aspiration windows → principal
//! variation search → quiescence search. Node kinds are fixed at compile time.

use std::sync::LazyLock;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::TbWdl;
use crate::chess::{Move, Position};

use super::history::PieceTo;
use super::params::*;
use super::picker::{Context, MovePicker};
use super::score::*;
use super::thread::{FRAME_OFFSET, SearchContext, ThreadData};
use super::time::TimeManager;
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
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut table = [[0; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIV) as i32;
        }
    }
    table
});

fn lmr(depth: i32, moves: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves.min(63)]
}

fn lmp_limit(depth: i32, improving: bool) -> usize {
    ((LMP_BASE + depth * depth) / if improving { 1 } else { 2 }) as usize
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
        let mut delta = ASP_WINDOW;
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

    // --- Principal variation search ------------------------------------------------------

    #[allow(clippy::too_many_lines)]
    fn pvs<N: NodeKind>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<N>(pos, alpha, beta, ply);
        }
        self.td.pv[ply].clear();
        self.count_node();
        if self.ctx.stopped() {
            return 0;
        }
        if N::PV {
            self.td.seldepth = self.td.seldepth.max(ply + 1);
        }
        let in_check = pos.in_check();
        let f = ply + FRAME_OFFSET;
        if !N::ROOT {
            if self.is_draw(pos) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.td.eval.evaluate(pos)
                };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.td.frames[f].excluded;
        let tt = excluded
            .is_none()
            .then(|| self.ctx.tt.probe(pos.hash(), ply))
            .flatten();
        let tt_move = if N::ROOT {
            Some(self.td.root_moves[self.td.pv_idx].mv)
        } else {
            tt.and_then(|e| e.mv)
        };
        if !N::PV
            && let Some(e) = tt
            && e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            }
        {
            return e.value;
        }

        if !N::ROOT
            && excluded.is_none()
            && let Some(value) = self.probe_tablebase(pos, alpha, beta, depth, ply)
        {
            return value;
        }

        let static_eval = if in_check {
            None
        } else {
            Some(
                tt.filter(|e| e.eval > -INFINITY)
                    .map_or_else(|| self.td.eval.evaluate(pos), |e| e.eval),
            )
        };
        // The TT value is a better guess than the static evaluation when its bound allows.
        let eval = match (static_eval, tt) {
            (Some(se), Some(e))
                if !is_decisive(e.value)
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value > se,
                        Bound::Upper => e.value < se,
                    } =>
            {
                e.value
            }
            (Some(se), _) => se,
            (None, _) => -INFINITY,
        };
        self.td.frames[f].static_eval = static_eval;
        let improving = match (static_eval, self.td.frames[f - 2].static_eval) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        self.td.frames[f + 1].double_extensions = self.td.frames[f].double_extensions;

        if !N::PV && !in_check && excluded.is_none() {
            let static_eval = static_eval.unwrap_or(eval);
            // Reverse futility pruning.
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval < TB_BOUND
            {
                return eval;
            }
            // Razoring.
            if depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth < alpha {
                let q = self.qsearch::<NonPv>(pos, alpha, alpha + 1, ply);
                if q <= alpha {
                    return q;
                }
            }
            // Null-move pruning, with verification at high depth.
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && static_eval >= beta
                && ply >= self.td.nmp_min_ply
                && !is_decisive(beta)
                && self.td.frames[f - 1].piece_to.is_some()
                && pos.has_non_pawn_material(pos.turn())
            {
                let r = NMP_BASE
                    + depth / NMP_DEPTH_DIV
                    + ((eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
                let mut child = pos.clone();
                child.play_null();
                self.td.frames[f].piece_to = None;
                self.td.keys.push(child.hash());
                self.td.eval.push_null();
                let score =
                    -self.pvs::<NonPv>(&child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.td.eval.pop();
                self.td.keys.pop();
                if self.ctx.stopped() {
                    return 0;
                }
                if score >= beta {
                    let score = if is_decisive(score) { beta } else { score };
                    if depth < NMP_VERIFY_DEPTH || self.td.nmp_min_ply > 0 {
                        return score;
                    }
                    self.td.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let verified = self.pvs::<NonPv>(pos, beta - 1, beta, depth - r, ply, false);
                    self.td.nmp_min_ply = 0;
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // Internal iterative reduction: without a TT move this node is probably not critical.
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() && (N::PV || cut_node) {
            depth -= 1;
        }

        let us = pos.turn();
        let prev = [
            self.td.frames[f - 1].piece_to,
            self.td.frames[f - 2].piece_to,
        ];
        let killers = self.td.killers[ply];
        let counter = self.td.history.counter_move(prev[0]);
        let mut picker = MovePicker::new(Context {
            tt_move,
            killers,
            counter,
            prev,
        });
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut moves_seen = 0usize;
        let mut quiets_tried: [Option<(Move, PieceTo)>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut skip_quiets = false;
        let mut root_next = self.td.pv_idx;
        let alpha_orig = alpha;
        let has_pieces = pos.has_non_pawn_material(us);

        loop {
            let m = if N::ROOT {
                let Some(rm) = self.td.root_moves.get(root_next) else {
                    break;
                };
                root_next += 1;
                rm.mv
            } else {
                match picker.next(pos, &self.td.history, skip_quiets) {
                    Some(m) => m,
                    None => break,
                }
            };
            if Some(m) == excluded {
                continue;
            }
            moves_seen += 1;
            let quiet = !m.is_noisy();
            let gives_check = pos.gives_check(m);
            let piece = pos.moved_piece(m).expect("generated move has a piece");
            let piece_to = PieceTo { piece, to: m.to() };
            let hist = if quiet {
                self.td.history.quiet_score(us, m, piece_to, &prev)
            } else {
                0
            };

            if !N::ROOT && best_score > -TB_BOUND && has_pieces {
                let lmr_depth = (depth - 1 - lmr(depth, moves_seen)).max(0);
                if quiet && !gives_check {
                    if depth <= LMP_MAX_DEPTH && moves_seen > lmp_limit(depth, improving) {
                        skip_quiets = true;
                        continue;
                    }
                    if let Some(se) = static_eval
                        && lmr_depth <= FP_MAX_DEPTH
                        && se + FP_BASE + FP_MARGIN * lmr_depth <= alpha
                    {
                        skip_quiets = true;
                        continue;
                    }
                    if lmr_depth <= SEE_MAX_DEPTH
                        && !pos.see_ge(m, -SEE_QUIET_MARGIN * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if !quiet
                    && depth <= SEE_MAX_DEPTH
                    && !pos.see_ge(m, -SEE_NOISY_MARGIN * depth)
                {
                    continue;
                }
            }

            // Extensions: singular (the TT move is much better than every other), check.
            let mut extension = 0;
            if !N::ROOT
                && depth >= SE_MIN_DEPTH
                && Some(m) == tt_move
                && excluded.is_none()
                && (ply as i32) < 2 * self.td.root_depth
                && let Some(e) = tt
                && e.depth >= depth - SE_TT_DEPTH_MARGIN
                && e.bound != Bound::Upper
                && !is_decisive(e.value)
            {
                let s_beta = e.value - 2 * depth;
                self.td.frames[f].excluded = Some(m);
                let value =
                    self.pvs::<NonPv>(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                self.td.frames[f].excluded = None;
                if self.ctx.stopped() {
                    return 0;
                }
                if value < s_beta {
                    extension = 1;
                    if !N::PV
                        && value < s_beta - SE_DOUBLE_MARGIN
                        && self.td.frames[f].double_extensions < SE_MAX_DOUBLE
                    {
                        extension = 2;
                        self.td.frames[f + 1].double_extensions =
                            self.td.frames[f].double_extensions + 1;
                    }
                } else if s_beta >= beta {
                    return s_beta;
                } else if e.value >= beta {
                    extension = -1;
                }
            } else if gives_check {
                extension = 1;
            }

            let new_depth = depth - 1 + extension;
            let child = self.make_move(pos, m);
            self.td.frames[f].piece_to = Some(piece_to);
            if N::ROOT {
                self.report_currmove(m, moves_seen);
            }

            let mut score;
            if moves_seen == 1 {
                score = if N::PV {
                    -self.pvs::<Pv>(&child, -beta, -alpha, new_depth, ply + 1, false)
                } else {
                    -self.pvs::<NonPv>(&child, -beta, -alpha, new_depth, ply + 1, !cut_node)
                };
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && moves_seen > 1 + usize::from(N::ROOT) {
                    r = lmr(depth, moves_seen);
                    r += i32::from(!N::PV) + i32::from(cut_node);
                    r -= i32::from(improving) + i32::from(gives_check);
                    if quiet {
                        r -= hist / LMR_HIST_DIV;
                        if killers.contains(&Some(m)) || counter == Some(m) {
                            r -= 1;
                        }
                    } else {
                        r -= 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score =
                    -self.pvs::<NonPv>(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.pvs::<NonPv>(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
                if N::PV && score > alpha && score < beta {
                    score = -self.pvs::<Pv>(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake_move();
            if self.ctx.stopped() {
                return 0;
            }

            if N::ROOT {
                self.update_root_move(m, score, moves_seen, alpha, beta);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && best_move != Some(m) && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some((m, piece_to));
                quiet_count += 1;
            }
        }

        if moves_seen == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        if best_score >= beta
            && let Some(m) = best_move
            && !m.is_noisy()
        {
            let k = &mut self.td.killers[ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
            let piece_to = PieceTo {
                piece: pos.moved_piece(m).expect("generated move has a piece"),
                to: m.to(),
            };
            self.td.history.update_quiets(
                us,
                (m, piece_to),
                &quiets_tried[..quiet_count],
                &prev,
                depth,
            );
        }

        if excluded.is_none() && !(N::ROOT && self.td.pv_idx > 0) {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if N::PV && best_score > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval_to_store = static_eval.unwrap_or(-INFINITY);
            self.ctx.tt.store(
                pos.hash(),
                best_move,
                best_score,
                eval_to_store,
                depth,
                bound,
                ply,
            );
        }
        best_score
    }

    // --- Quiescence search ---------------------------------------------------------------

    fn qsearch<N: NodeKind>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.td.pv[ply].clear();
        self.count_node();
        if self.ctx.stopped() {
            return 0;
        }
        if N::PV {
            self.td.seldepth = self.td.seldepth.max(ply + 1);
        }
        if self.is_draw(pos) {
            return DRAW;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.td.eval.evaluate(pos)
            };
        }
        let tt = self.ctx.tt.probe(pos.hash(), ply);
        if !N::PV
            && let Some(e) = tt
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            }
        {
            return e.value;
        }

        let mut best_score;
        let mut static_eval = -INFINITY;
        let mut futility_base = -INFINITY;
        if in_check {
            best_score = -INFINITY;
        } else {
            static_eval = tt
                .filter(|e| e.eval > -INFINITY)
                .map_or_else(|| self.td.eval.evaluate(pos), |e| e.eval);
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
            futility_base = static_eval + QS_DELTA_MARGIN;
        }

        let alpha_orig = alpha;
        let mut best_move = None;
        let mut moves_seen = 0;
        let mut picker = MovePicker::new_qsearch(tt.and_then(|e| e.mv), in_check);
        while let Some(m) = picker.next(pos, &self.td.history, false) {
            moves_seen += 1;
            // Delta pruning, sparing checks: a capture that mates gains more than its victim.
            // (The picker already dropped captures that lose material.)
            if !in_check && !m.is_promotion() {
                let gain = pos
                    .captured_role(m)
                    .map_or(0, crate::chess::position::see_value);
                if futility_base + gain <= alpha && !pos.gives_check(m) {
                    best_score = best_score.max(futility_base + gain);
                    continue;
                }
            }
            let child = self.make_move(pos, m);
            let score = -self.qsearch::<N>(&child, -beta, -alpha, ply + 1);
            self.unmake_move();
            if self.ctx.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves_seen == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if N::PV && best_score > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.ctx.tt.store(
            pos.hash(),
            best_move,
            best_score,
            static_eval,
            0,
            bound,
            ply,
        );
        best_score
    }

    // --- Helpers -------------------------------------------------------------------------

    /// Fifty-move rule, insufficient material, or a repetition of any earlier position since
    /// the last irreversible move (in the game or on the current path).
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
        let settles = match bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        if !settles {
            return None;
        }
        let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
        self.ctx
            .tt
            .store(pos.hash(), None, value, -INFINITY, depth, bound, ply);
        Some(value)
    }

    /// The position after `m`, with the path's keys and the evaluator following it.
    fn make_move(&mut self, pos: &Position, m: Move) -> Position {
        self.td.eval.push_move(pos, m);
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.td.keys.push(child.hash());
        child
    }

    fn unmake_move(&mut self) {
        self.td.keys.pop();
        self.td.eval.pop();
    }

    fn is_draw(&self, pos: &Position) -> bool {
        if pos.is_insufficient_material() {
            return true;
        }
        if pos.halfmoves() >= 100 {
            return !(pos.in_check() && pos.legal_moves().is_empty());
        }
        let keys = &self.td.keys;
        let n = keys.len();
        let reach = (pos.halfmoves() as usize).min(n - 1);
        (4..=reach)
            .step_by(2)
            .any(|back| keys[n - 1 - back] == pos.hash())
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
            rm.bound = if score >= beta {
                Bound::Lower
            } else if score <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
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
