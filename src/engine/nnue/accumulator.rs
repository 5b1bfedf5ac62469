//! Accumulators: the first layer's output for both perspectives, kept per ply and updated with
//! the handful of features a move changes.

use crate::chess::{CastlingSide, Color, Move, MoveKind, Piece, Position, Role, Square};

use super::network::{KingFrame, Network, active_features};
use super::simd;

/// First-layer sums for White's and Black's perspective, the move that led here from the
/// accumulator below and where each perspective's features go after it. The sums are computed
/// only when the position is evaluated: many nodes are left (a transposition-table cutoff, a
/// draw) before they evaluate.
#[derive(Clone)]
struct Accumulator {
    by_perspective: [Vec<i16>; 2],
    delta: Delta,
    /// By perspective.
    computed: [bool; 2],
    /// By perspective: where its features go, fixed by its king's square.
    frames: [KingFrame; 2],
}

/// What a move changes on the board: up to two pieces appear and two disappear (castling,
/// captures with promotion).
#[derive(Clone, Copy, Default)]
pub struct Delta {
    pub added: [Option<(Piece, Square)>; 2],
    pub removed: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// The change `m` makes, played from `pos`.
    pub fn of(pos: &Position, m: Move) -> Delta {
        let mut delta = Delta::default();
        let us = pos.turn();
        let from = m.from();
        let to = m.to();
        let Some(piece) = pos.piece_at(from) else {
            return delta;
        };
        match m.kind() {
            MoveKind::Castle => {
                let side = if to.file() > from.file() {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let rank = us.back_rank();
                let rook = Piece::new(us, Role::Rook);
                delta.removed = [Some((piece, from)), Some((rook, to))];
                delta.added = [
                    Some((piece, Square::from_coords(side.king_to_file(), rank))),
                    Some((rook, Square::from_coords(side.rook_to_file(), rank))),
                ];
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                delta.removed = [
                    Some((piece, from)),
                    Some((Piece::new(!us, Role::Pawn), captured)),
                ];
                delta.added[0] = Some((piece, to));
            }
            _ => {
                let placed = m
                    .promotion_role()
                    .map_or(piece, |role| Piece::new(us, role));
                delta.removed = [Some((piece, from)), pos.piece_at(to).map(|p| (p, to))];
                delta.added[0] = Some((placed, to));
            }
        }
        delta
    }
}

/// One search thread's accumulator stack. Allocated once; pushing a move records what changed,
/// and evaluating brings the sums up to date from the nearest computed accumulator below.
pub struct NnueState {
    stack: Vec<Accumulator>,
    top: usize,
    /// The network's king buckets: a king move to another bucket changes a frame.
    king_buckets: usize,
}

impl NnueState {
    /// A stack deep enough for `max_ply` moves below the root. Its root holds the empty board's
    /// sums (the biases, kings on e1 and e8) until `refresh` sets a position, so it is always
    /// computed.
    pub fn new(net: &Network, max_ply: usize) -> NnueState {
        let kings = [Square::E1, Square::E8];
        let empty = Accumulator {
            by_perspective: [net.feature_bias.clone(), net.feature_bias.clone()],
            delta: Delta::default(),
            computed: [false; 2],
            frames: Color::ALL.map(|c| KingFrame::new(net.king_buckets(), c, kings[c.index()])),
        };
        let mut stack = vec![empty; max_ply + 1];
        stack[0].computed = [true; 2];
        NnueState {
            stack,
            top: 0,
            king_buckets: net.king_buckets(),
        }
    }

    /// Recomputes the root accumulator from the board and empties the stack.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        let acc = &mut self.stack[0];
        for perspective in Color::ALL {
            Self::recompute(net, pos, acc, perspective);
        }
    }

    /// One perspective's sums from the board.
    fn recompute(net: &Network, pos: &Position, acc: &mut Accumulator, perspective: Color) {
        let i = perspective.index();
        // On the stack: with king buckets this runs in search, on every king move into another
        // bucket. A position has at most 32 pieces (`Position` refuses a 17th a side).
        let mut columns: [&[i16]; 32] = [&[]; 32];
        let mut n = 0;
        for f in active_features(pos, perspective, net.king_buckets()).take(32) {
            columns[n] = net.feature_column(f);
            n += 1;
        }
        simd::add_sub_from(
            &mut acc.by_perspective[i],
            &net.feature_bias,
            &columns[..n],
            &[],
        );
        acc.frames[i] = KingFrame::new(net.king_buckets(), perspective, pos.king(perspective));
        acc.computed[i] = true;
    }

    /// Pushes an unchanged position (a null move).
    pub fn push_null(&mut self) {
        self.push(Delta::default());
    }

    /// Pushes the position a move's `delta` ([`Delta::of`]) leads to; its sums wait until it is
    /// evaluated.
    pub fn push(&mut self, delta: Delta) {
        self.top += 1;
        let (below, above) = self.stack.split_at_mut(self.top);
        let (parent, child) = (&below[self.top - 1], &mut above[0]);
        child.delta = delta;
        child.computed = [false; 2];
        child.frames = parent.frames;
        for (piece, sq) in delta.added.into_iter().flatten() {
            if piece.role == Role::King {
                let side = piece.color;
                child.frames[side.index()] = KingFrame::new(self.king_buckets, side, sq);
            }
        }
    }

    /// Brings the top's sums up to date, each perspective on its own: from the nearest computed
    /// accumulator below (the root always is), each one is its parent plus and minus the columns
    /// of the pieces that moved, in one pass; but where a king moved to another bucket on the way,
    /// the top's sums for its side come from `pos` instead.
    fn update_top(&mut self, net: &Network, pos: &Position) {
        for perspective in Color::ALL {
            let i = perspective.index();
            let mut first = self.top;
            while !self.stack[first].computed[i] {
                first -= 1;
            }
            let frame = self.stack[first].frames[i];
            let moved = self.stack[first + 1..=self.top]
                .iter()
                .any(|acc| acc.frames[i] != frame);
            if moved {
                Self::recompute(net, pos, &mut self.stack[self.top], perspective);
                continue;
            }
            for ply in first + 1..=self.top {
                let (below, above) = self.stack.split_at_mut(ply);
                let (parent, child) = (&below[ply - 1], &mut above[0]);
                let columns = |items: &[Option<(Piece, Square)>; 2]| {
                    let mut out: [&[i16]; 2] = [&[], &[]];
                    let mut n = 0;
                    for &(piece, sq) in items.iter().flatten() {
                        out[n] = net.feature_column(frame.feature(perspective, piece, sq));
                        n += 1;
                    }
                    (out, n)
                };
                let (added, n_added) = columns(&child.delta.added);
                let (removed, n_removed) = columns(&child.delta.removed);
                simd::add_sub_from(
                    &mut child.by_perspective[i],
                    &parent.by_perspective[i],
                    &added[..n_added],
                    &removed[..n_removed],
                );
                child.computed[i] = true;
            }
        }
    }

    pub fn pop(&mut self) {
        debug_assert!(self.top > 0);
        self.top = self.top.saturating_sub(1);
    }

    /// Evaluation of the current top in centipawns for the side to move of `pos`.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.update_top(net, pos);
        let acc = &self.stack[self.top];
        let (us, them) = match pos.turn() {
            Color::White => (&acc.by_perspective[0], &acc.by_perspective[1]),
            Color::Black => (&acc.by_perspective[1], &acc.by_perspective[0]),
        };
        net.output(us, them, pos.occupied().count())
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::INPUTS;
    use super::*;
    use crate::chess::testing::random_game;

    /// A deterministic pseudo-random network: the update logic, not the values, is under test.
    fn random_net(hidden: usize, buckets: usize) -> Network {
        random_net_with_kings(hidden, buckets, 1)
    }

    fn random_net_with_kings(hidden: usize, buckets: usize, king_buckets: usize) -> Network {
        let mut rng = crate::chess::Rng::new(0x2545_f491_4f6c_dd1d);
        let mut next = move |range: i64| (rng.below(2 * range as usize + 1) as i64 - range) as i16;
        Network::new(
            (0..INPUTS * king_buckets * hidden)
                .map(|_| next(60))
                .collect(),
            (0..hidden).map(|_| next(100)).collect(),
            (0..2 * hidden * buckets).map(|_| next(127)).collect(),
            (0..buckets as i32).map(|b| 1000 - 300 * b).collect(),
        )
        .unwrap()
    }

    #[test]
    fn incremental_matches_from_scratch_over_long_random_games() {
        for buckets in [1, 8] {
            walk_random_games(&random_net(64, buckets));
        }
        for king_buckets in [3, 6] {
            walk_random_games(&random_net_with_kings(32, 2, king_buckets));
        }
    }

    /// As a search does: down a line, back up part of it, evaluating on the way back where the
    /// positions were skipped on the way down, then down another line.
    #[test]
    fn unwinding_and_branching_matches_from_scratch_with_king_buckets() {
        let net = random_net_with_kings(32, 2, 6);
        let mut state = NnueState::new(&net, 600);
        let mut rng = crate::chess::Rng::new(11);
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let root = Position::from_fen(fen).unwrap();
        for _ in 0..30 {
            state.refresh(&net, &root);
            let line = random_game(fen, 40, &mut rng);
            let mut positions = Vec::new();
            for (pos, m) in &line {
                state.push(Delta::of(pos, *m));
                positions.push(pos.play(*m).unwrap());
            }
            let last = positions.last().unwrap();
            assert_eq!(state.evaluate(&net, last), net.evaluate_from_scratch(last));
            for k in (0..positions.len().saturating_sub(1)).rev().step_by(3) {
                while state.top > k + 1 {
                    state.pop();
                }
                let pos = &positions[k];
                assert_eq!(
                    state.evaluate(&net, pos),
                    net.evaluate_from_scratch(pos),
                    "{}",
                    pos.fen()
                );
            }
        }
    }

    #[test]
    fn a_stack_never_refreshed_builds_on_the_empty_board() {
        let net = random_net(64, 1);
        let mut state = NnueState::new(&net, 8);
        state.push_null();
        state.push_null();
        state.evaluate(&net, &Position::startpos());
        for values in &state.stack[2].by_perspective {
            assert_eq!(values, &net.feature_bias);
        }
    }

    fn walk_random_games(net: &Network) {
        let mut state = NnueState::new(net, 600);
        let mut rng = crate::chess::Rng::new(7);
        let starts = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        for _game in 0..20 {
            for fen in starts {
                state.refresh(net, &Position::from_fen(fen).unwrap());
                for (ply, (mut pos, m)) in random_game(fen, 400, &mut rng).into_iter().enumerate() {
                    state.push(Delta::of(&pos, m));
                    pos.play_unchecked(m);
                    // Some positions are left unevaluated, as in a search: the next evaluation
                    // catches up over several moves.
                    if ply % 5 != 0 && ply % 7 != 0 {
                        continue;
                    }
                    assert_eq!(
                        state.evaluate(net, &pos),
                        net.evaluate_from_scratch(&pos),
                        "{}",
                        pos.fen()
                    );
                    if state.top == 500 {
                        break;
                    }
                }
                // Unwinding returns to the root's value.
                while state.top > 0 {
                    state.pop();
                }
                let root = Position::from_fen(fen).unwrap();
                assert_eq!(state.evaluate(net, &root), net.evaluate_from_scratch(&root));
            }
        }
    }
}
