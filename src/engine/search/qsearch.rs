//! Quiescence search: captures (and every move in check) until the position is quiet, with
//! delta pruning against the static evaluation.

use crate::chess::Position;

use super::super::Bound;
use super::super::params::qs_delta_margin;
use super::super::picker::MovePicker;
use super::super::score::*;
use super::super::tt::TtEntry;
use super::{NodeKind, Searcher};

impl Searcher<'_> {
    pub(super) fn qsearch<N: NodeKind>(
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
            && e.bound.decides(e.value, alpha, beta)
        {
            return e.value;
        }

        let mut best_score;
        let mut raw_eval = -INFINITY;
        let mut futility_base = -INFINITY;
        if in_check {
            best_score = -INFINITY;
        } else {
            raw_eval = tt
                .filter(|e| e.eval > -INFINITY)
                .map_or_else(|| self.td.eval.evaluate(pos), |e| e.eval);
            let static_eval = self.corrected(pos, raw_eval);
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
            futility_base = static_eval + qs_delta_margin();
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
        let bound = Bound::of_result(best_score, alpha_orig, beta, N::PV);
        let entry = TtEntry {
            mv: best_move,
            value: best_score,
            eval: raw_eval,
            depth: 0,
            bound,
        };
        self.ctx.tt.store(pos.hash(), ply, entry);
        best_score
    }
}
