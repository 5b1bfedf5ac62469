//! Principal variation search, in the order a node runs: entering it (draws, mate distance),
//! the transposition table and the tables, the static evaluation and the pruning it allows,
//! the move loop (move pruning, extensions, reduced and re-searched children), and storing
//! the result with the history updates of a cutoff.

use crate::chess::{Bitboard, Move, Position};

use super::super::Bound;
use super::super::history::PieceTo;
use super::super::params::*;
use super::super::picker::{Context, MovePicker};
use super::super::score::*;
use super::super::thread::FRAME_OFFSET;
use super::super::tt::TtEntry;
use super::{NodeKind, NonPv, Pv, Searcher, lmp_limit, lmr};

/// What a node knows once it has probed the table and evaluated the position.
struct Node {
    ply: usize,
    /// Index of this ply's frame.
    f: usize,
    in_check: bool,
    cut_node: bool,
    excluded: Option<Move>,
    tt: Option<TtEntry>,
    tt_move: Option<Move>,
    /// The evaluation as the evaluator gives it (what the table keeps); `None` in check.
    raw_eval: Option<i32>,
    /// `raw_eval` with the learnt correction; `None` in check.
    static_eval: Option<i32>,
    /// The static evaluation, or the table's value where its bound says it is closer.
    eval: i32,
    improving: bool,
    /// The moves one and two plies back (continuation history's keys).
    prev: [Option<PieceTo>; 2],
}

/// The outcome of the move loop.
struct Searched {
    best_score: i32,
    best_move: Option<Move>,
    moves_seen: usize,
    /// Quiet moves tried before the best one (for the history maluses).
    quiets_tried: [Option<(Move, PieceTo)>; 64],
    quiet_count: usize,
    /// Squares the opponent attacks (the butterfly history's key for every quiet move here),
    /// if a quiet move was scored.
    threats: Option<Bitboard>,
}

impl Searcher<'_> {
    pub(super) fn pvs<N: NodeKind>(
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
        if let Some(value) = self.enter::<N>(pos, &mut alpha, &mut beta, ply) {
            return value;
        }
        let f = ply + FRAME_OFFSET;
        let excluded = self.td.frames[f].excluded;
        let tt = excluded
            .is_none()
            .then(|| self.ctx.tt.probe(pos.hash(), ply))
            .flatten();
        if !N::PV
            && let Some(e) = tt
            && e.depth >= depth
            && e.bound.decides(e.value, alpha, beta)
        {
            return e.value;
        }
        if !N::ROOT
            && excluded.is_none()
            && let Some(value) = self.probe_tablebase(pos, alpha, beta, depth, ply)
        {
            return value;
        }

        let tt_move = if N::ROOT {
            Some(self.td.root_moves[self.td.pv_idx].mv)
        } else {
            tt.and_then(|e| e.mv)
        };
        let node = self.evaluate_node(pos, ply, cut_node, excluded, tt, tt_move);
        if !N::PV
            && !node.in_check
            && excluded.is_none()
            && let Some(value) = self.prune_node(pos, &node, alpha, beta, depth)
        {
            return value;
        }
        // Internal iterative reduction: without a TT move this node is probably not critical.
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() && (N::PV || cut_node) {
            depth -= 1;
        }

        let searched = match self.search_moves::<N>(pos, &node, alpha, beta, depth) {
            Ok(searched) => searched,
            Err(value) => return value,
        };
        if searched.moves_seen == 0 {
            return if excluded.is_some() {
                alpha
            } else if node.in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        self.store_result::<N>(pos, &node, &searched, alpha, beta, depth);
        searched.best_score
    }

    /// Counts the node and settles what needs no search: a stop, a draw, the ply limit, a window
    /// that mate distances close. Narrows the window to the mates still possible.
    fn enter<N: NodeKind>(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
    ) -> Option<i32> {
        self.td.pv[ply].clear();
        self.count_node();
        if self.ctx.stopped() {
            return Some(0);
        }
        if N::PV {
            self.td.seldepth = self.td.seldepth.max(ply + 1);
        }
        if N::ROOT {
            return None;
        }
        if self.is_draw(pos) {
            return Some(DRAW);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if pos.in_check() {
                DRAW
            } else {
                self.td.eval.evaluate(pos)
            });
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        (*alpha >= *beta).then_some(*alpha)
    }

    fn evaluate_node(
        &mut self,
        pos: &Position,
        ply: usize,
        cut_node: bool,
        excluded: Option<Move>,
        tt: Option<TtEntry>,
        tt_move: Option<Move>,
    ) -> Node {
        let f = ply + FRAME_OFFSET;
        let in_check = pos.in_check();
        let raw_eval = (!in_check).then(|| {
            tt.filter(|e| e.eval > -INFINITY)
                .map_or_else(|| self.td.eval.evaluate(pos), |e| e.eval)
        });
        let static_eval = raw_eval.map(|e| self.corrected(pos, e));
        let eval = match (static_eval, tt) {
            (Some(se), Some(e)) if !is_decisive(e.value) && e.bound.decides(e.value, se, se) => {
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
        // The null move's child counts what this node counts; each move sets its own below.
        self.td.frames[f + 1].double_extensions = self.td.frames[f].double_extensions;
        let prev = [
            self.td.frames[f - 1].piece_to,
            self.td.frames[f - 2].piece_to,
        ];
        Node {
            prev,
            ply,
            f,
            in_check,
            cut_node,
            excluded,
            tt,
            tt_move,
            raw_eval,
            static_eval,
            eval,
            improving,
        }
    }

    /// Reverse futility pruning, razoring and null-move pruning, in a non-PV node out of check:
    /// the value that settles the node, if one does.
    fn prune_node(
        &mut self,
        pos: &Position,
        node: &Node,
        alpha: i32,
        beta: i32,
        depth: i32,
    ) -> Option<i32> {
        let (eval, ply, f) = (node.eval, node.ply, node.f);
        let static_eval = node.static_eval.unwrap_or(eval);
        if depth <= RFP_MAX_DEPTH
            && eval - rfp_margin() * (depth - i32::from(node.improving)) >= beta
            && eval < TB_BOUND
        {
            return Some(eval);
        }
        if depth <= RAZOR_MAX_DEPTH && eval + razor_margin() * depth < alpha {
            let q = self.qsearch::<NonPv>(pos, alpha, alpha + 1, ply);
            if q <= alpha {
                return Some(q);
            }
        }
        let null_move_allowed = depth >= NMP_MIN_DEPTH
            && eval >= beta
            && static_eval >= beta
            && ply >= self.td.nmp_min_ply
            && !is_decisive(beta)
            && node.prev[0].is_some()
            && pos.has_non_pawn_material(pos.turn());
        if !null_move_allowed {
            return None;
        }
        let r =
            NMP_BASE + depth / NMP_DEPTH_DIV + ((eval - beta) / nmp_eval_div()).min(NMP_EVAL_MAX);
        let child = self.make_null_move(pos);
        self.td.frames[f].piece_to = None;
        let score =
            -self.pvs::<NonPv>(&child, -beta, -beta + 1, depth - r, ply + 1, !node.cut_node);
        self.unmake_move();
        if self.ctx.stopped() {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if is_decisive(score) { beta } else { score };
        if depth < NMP_VERIFY_DEPTH || self.td.nmp_min_ply > 0 {
            return Some(score);
        }
        // Verification at high depth, with null moves off for the next plies.
        self.td.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
        let verified = self.pvs::<NonPv>(pos, beta - 1, beta, depth - r, ply, false);
        self.td.nmp_min_ply = 0;
        (verified >= beta).then_some(score)
    }

    /// The move loop. `Err` carries a value that settles the node on the way (a stop, or a
    /// multi-cut from the singular search).
    fn search_moves<N: NodeKind>(
        &mut self,
        pos: &Position,
        node: &Node,
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> Result<Searched, i32> {
        let (ply, f) = (node.ply, node.f);
        let us = pos.turn();
        let prev = node.prev;
        let killers = self.td.killers[ply];
        let counter = self.td.history.counter_move(prev[0]);
        let mut picker = MovePicker::new(Context {
            tt_move: node.tt_move,
            killers,
            counter,
            prev,
        });
        let mut out = Searched {
            best_score: -INFINITY,
            best_move: None,
            moves_seen: 0,
            quiets_tried: [None; 64],
            quiet_count: 0,
            threats: None,
        };
        let mut skip_quiets = false;
        let mut root_next = self.td.pv_idx;
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
            if Some(m) == node.excluded {
                continue;
            }
            out.moves_seen += 1;
            let quiet = !m.is_noisy();
            let gives_check = picker.gives_check(pos, m);
            let piece = pos.moved_piece(m).expect("generated move has a piece");
            let piece_to = PieceTo { piece, to: m.to() };

            if !N::ROOT && out.best_score > -TB_BOUND && has_pieces {
                match prune_move(pos, node, m, gives_check, alpha, depth, out.moves_seen) {
                    Pruning::Search => {}
                    Pruning::Skip => continue,
                    Pruning::SkipQuiets => {
                        skip_quiets = true;
                        continue;
                    }
                }
            }

            let extension = self.extension::<N>(pos, node, m, gives_check, beta, depth)?;
            let new_depth = depth - 1 + extension;
            // Each move's subtree counts its own double extensions, not its siblings'.
            self.td.frames[f + 1].double_extensions =
                self.td.frames[f].double_extensions + i32::from(extension == 2);
            let child = self.make_move(pos, m);
            self.td.frames[f].piece_to = Some(piece_to);
            if N::ROOT {
                self.report_currmove(m, out.moves_seen);
            }
            let score = if out.moves_seen == 1 {
                if N::PV {
                    -self.pvs::<Pv>(&child, -beta, -alpha, new_depth, ply + 1, false)
                } else {
                    -self.pvs::<NonPv>(&child, -beta, -alpha, new_depth, ply + 1, !node.cut_node)
                }
            } else {
                let r = if depth >= LMR_MIN_DEPTH && out.moves_seen > 1 + usize::from(N::ROOT) {
                    let quiet_history = quiet.then(|| {
                        let threats = picker.threats(pos);
                        let hist = self.td.history.quiet_score(us, m, piece_to, &prev, threats);
                        (hist, killers.contains(&Some(m)) || counter == Some(m))
                    });
                    let r = reduction::<N>(node, depth, out.moves_seen, gives_check, quiet_history);
                    r.clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                self.search_later_move::<N>(
                    &child,
                    node,
                    (alpha, beta),
                    out.best_score,
                    new_depth,
                    r,
                )
            };
            self.unmake_move();
            if self.ctx.stopped() {
                return Err(0);
            }

            if N::ROOT {
                self.update_root_move(m, score, out.moves_seen, alpha, beta);
            }
            if score > out.best_score {
                out.best_score = score;
                if score > alpha {
                    out.best_move = Some(m);
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && out.best_move != Some(m) && out.quiet_count < out.quiets_tried.len() {
                out.quiets_tried[out.quiet_count] = Some((m, piece_to));
                out.quiet_count += 1;
            }
        }
        out.threats = picker.threats_found();
        Ok(out)
    }

    /// How much deeper `m` is searched: singular (the TT move is much better than every other),
    /// or a check that does not lose material. `Err` carries a multi-cut's value or a stop.
    fn extension<N: NodeKind>(
        &mut self,
        pos: &Position,
        node: &Node,
        m: Move,
        gives_check: bool,
        beta: i32,
        depth: i32,
    ) -> Result<i32, i32> {
        let f = node.f;
        // A check that throws material away is not worth the extra ply.
        let check_extension = || i32::from(gives_check && pos.see_ge(m, 0));
        let singular_candidate = !N::ROOT
            && depth >= SE_MIN_DEPTH
            && Some(m) == node.tt_move
            && node.excluded.is_none()
            && (node.ply as i32) < 2 * self.td.root_depth;
        let Some(e) = node.tt.filter(|e| {
            singular_candidate
                && e.depth >= depth - SE_TT_DEPTH_MARGIN
                && e.bound != Bound::Upper
                && !is_decisive(e.value)
        }) else {
            return Ok(check_extension());
        };
        let s_beta = e.value - 2 * depth;
        self.td.frames[f].excluded = Some(m);
        let value = self.pvs::<NonPv>(
            pos,
            s_beta - 1,
            s_beta,
            (depth - 1) / 2,
            node.ply,
            node.cut_node,
        );
        self.td.frames[f].excluded = None;
        if self.ctx.stopped() {
            return Err(0);
        }
        if value < s_beta {
            if !N::PV
                && value < s_beta - se_double_margin()
                && self.td.frames[f].double_extensions < SE_MAX_DOUBLE
            {
                return Ok(2);
            }
            Ok(1)
        } else if s_beta >= beta {
            Err(s_beta)
        } else if e.value >= beta {
            Ok(-1)
        } else {
            // Not singular, but a check keeps its extension.
            Ok(check_extension())
        }
    }

    /// A move after the first: a null-window search reduced by `r`, again if it beats alpha (a
    /// ply deeper when it beat the best so far by a margin, a ply shallower when it barely
    /// did), and with the full window in a PV node if it lands inside it.
    fn search_later_move<N: NodeKind>(
        &mut self,
        child: &Position,
        node: &Node,
        (alpha, beta): (i32, i32),
        best_score: i32,
        mut new_depth: i32,
        r: i32,
    ) -> i32 {
        let ply = node.ply;
        let reduced = new_depth - r;
        let mut score = -self.pvs::<NonPv>(child, -alpha - 1, -alpha, reduced, ply + 1, true);
        if score > alpha && r > 0 {
            new_depth += i32::from(score > best_score + lmr_deeper_margin() + 2 * new_depth);
            new_depth -= i32::from(score < best_score + lmr_shallower_margin());
            if new_depth > reduced {
                score = -self.pvs::<NonPv>(
                    child,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !node.cut_node,
                );
            }
        }
        if N::PV && score > alpha && score < beta {
            score = -self.pvs::<Pv>(child, -beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// Killers and histories on a quiet cutoff, then the table entry.
    fn store_result<N: NodeKind>(
        &mut self,
        pos: &Position,
        node: &Node,
        searched: &Searched,
        alpha: i32,
        beta: i32,
        depth: i32,
    ) {
        let best_score = searched.best_score;
        if best_score >= beta
            && let Some(m) = searched.best_move
            && !m.is_noisy()
        {
            let k = &mut self.td.killers[node.ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
            let piece_to = PieceTo {
                piece: pos.moved_piece(m).expect("generated move has a piece"),
                to: m.to(),
            };
            self.td.history.update_quiets(
                pos.turn(),
                (m, piece_to),
                &searched.quiets_tried[..searched.quiet_count],
                &node.prev,
                searched
                    .threats
                    .unwrap_or_else(|| pos.attacked_squares(!pos.turn())),
                depth,
            );
        }
        if node.excluded.is_some() || (N::ROOT && self.td.pv_idx > 0) {
            return;
        }
        let bound = Bound::of_result(best_score, alpha, beta, N::PV);
        let entry = TtEntry {
            mv: searched.best_move,
            value: best_score,
            eval: node.raw_eval.unwrap_or(-INFINITY),
            depth,
            bound,
        };
        self.ctx.tt.store(pos.hash(), node.ply, entry);
        // What the search found teaches the correction, where its bound says which way the
        // static evaluation was off and no capture decided it.
        if let Some(se) = node.static_eval
            && !searched.best_move.is_some_and(|m| m.is_noisy())
            && !is_decisive(best_score)
            && !(bound == Bound::Lower && best_score <= se)
            && !(bound == Bound::Upper && best_score >= se)
        {
            self.td.correction.update(pos, best_score - se, depth);
        }
    }
}
/// What move pruning decides about a move before it is searched.
enum Pruning {
    Search,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

/// Late-move and futility pruning of quiet moves that do not check, and pruning of moves
/// whose exchanges lose too much for the depth left.
fn prune_move(
    pos: &Position,
    node: &Node,
    m: Move,
    gives_check: bool,
    alpha: i32,
    depth: i32,
    moves_seen: usize,
) -> Pruning {
    if m.is_noisy() || gives_check {
        let losing =
            m.is_noisy() && depth <= SEE_MAX_DEPTH && !pos.see_ge(m, -see_noisy_margin() * depth);
        return if losing {
            Pruning::Skip
        } else {
            Pruning::Search
        };
    }
    let lmr_depth = (depth - 1 - lmr(depth, moves_seen)).max(0);
    if depth <= LMP_MAX_DEPTH && moves_seen > lmp_limit(depth, node.improving) {
        return Pruning::SkipQuiets;
    }
    if let Some(se) = node.static_eval
        && lmr_depth <= FP_MAX_DEPTH
        && se + fp_base() + fp_margin() * lmr_depth <= alpha
    {
        return Pruning::SkipQuiets;
    }
    if lmr_depth <= SEE_MAX_DEPTH && !pos.see_ge(m, -see_quiet_margin() * lmr_depth * lmr_depth) {
        return Pruning::Skip;
    }
    Pruning::Search
}

/// How many plies less a late move is searched first (before clamping to the depth left):
/// more in non-PV and cut nodes and after a noisy TT move (the node is likely decided by it),
/// less when improving, for checks, for captures and for quiet moves with good history
/// (`quiet`: the history score, and whether it is a killer or the counter move).
fn reduction<N: NodeKind>(
    node: &Node,
    depth: i32,
    moves_seen: usize,
    gives_check: bool,
    quiet: Option<(i32, bool)>,
) -> i32 {
    let mut r = lmr(depth, moves_seen);
    r += i32::from(!N::PV) + i32::from(node.cut_node);
    r += i32::from(node.tt_move.is_some_and(|m| m.is_noisy()));
    r -= i32::from(node.improving) + i32::from(gives_check);
    match quiet {
        Some((history, refutation)) => r -= history / lmr_hist_div() + i32::from(refutation),
        None => r -= 1,
    }
    r
}

impl Searcher<'_> {
    /// The static evaluation with the learnt correction, kept off the decisive range.
    pub(super) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.td.correction.get(pos)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }
}
