//! Per-thread statistics: for move ordering, butterfly history, continuation history (indexed
//! by the moves one and two plies back), killer and counter moves; for the evaluation,
//! correction history (how far searches found the static evaluation off, by pawn structure and
//! by each side's other pieces).

use crate::chess::{Bitboard, Color, Move, Piece, Position, Role, Square, zobrist};

use super::params::{HIST_LIMIT, hist_bonus_add, hist_bonus_max, hist_bonus_mult};

/// The (piece, destination) of a move already played: the key of continuation history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

impl PieceTo {
    fn index(self) -> usize {
        (self.piece.color.index() * 6 + self.piece.role.index()) * 64 + self.to.index()
    }
}

const PIECE_TO: usize = 12 * 64;

pub struct History {
    /// [colour][from attacked][to attacked][from][to]: a move out of or into an enemy attack
    /// is kept apart from the same move where neither square is attacked.
    butterfly: Vec<i16>,
    /// [previous piece-to][piece-to]
    continuation: Vec<i16>,
    /// [previous piece-to] -> the move that refuted it last.
    counter: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * 2 * 2 * 64 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            counter: vec![None; PIECE_TO],
        }
    }
}

/// History bonus for a move that caused a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (hist_bonus_mult() * depth * depth + hist_bonus_add() * depth).min(hist_bonus_max())
}

/// Moves `entry` towards +-LIMIT by `delta`, slower the closer it already is (gravity).
fn apply(entry: &mut i16, delta: i32) {
    let v = i32::from(*entry);
    let next = v + delta - v * delta.abs() / HIST_LIMIT;
    *entry = next.clamp(-HIST_LIMIT, HIST_LIMIT) as i16;
}

/// `threats`: the squares the side not moving attacks.
fn butterfly_index(color: Color, m: Move, threats: Bitboard) -> usize {
    let from_attacked = usize::from(threats.contains(m.from()));
    let to_attacked = usize::from(threats.contains(m.to()));
    let table = (color.index() * 2 + from_attacked) * 2 + to_attacked;
    (table * 64 + m.from().index()) * 64 + m.to().index()
}

impl History {
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.counter.fill(None);
    }

    /// Ordering score of a quiet move: butterfly plus the continuation histories. `threats`:
    /// the squares the opponent attacks.
    pub fn quiet_score(
        &self,
        color: Color,
        m: Move,
        piece_to: PieceTo,
        prev: &[Option<PieceTo>; 2],
        threats: Bitboard,
    ) -> i32 {
        let mut score = i32::from(self.butterfly[butterfly_index(color, m, threats)]);
        for p in prev.iter().flatten() {
            score += i32::from(self.continuation[p.index() * PIECE_TO + piece_to.index()]);
        }
        score
    }

    /// Rewards `best` and punishes the quiet moves tried before it.
    pub fn update_quiets(
        &mut self,
        color: Color,
        best: (Move, PieceTo),
        tried: &[Option<(Move, PieceTo)>],
        prev: &[Option<PieceTo>; 2],
        threats: Bitboard,
        depth: i32,
    ) {
        let b = bonus(depth);
        self.update_one(color, best, prev, threats, b);
        for &t in tried.iter().flatten() {
            self.update_one(color, t, prev, threats, -b);
        }
        if let Some(p) = prev[0] {
            self.counter[p.index()] = Some(best.0);
        }
    }

    fn update_one(
        &mut self,
        color: Color,
        (m, pt): (Move, PieceTo),
        prev: &[Option<PieceTo>; 2],
        threats: Bitboard,
        delta: i32,
    ) {
        apply(
            &mut self.butterfly[butterfly_index(color, m, threats)],
            delta,
        );
        for p in prev.iter().flatten() {
            apply(
                &mut self.continuation[p.index() * PIECE_TO + pt.index()],
                delta,
            );
        }
    }

    pub fn counter_move(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.counter[p.index()])
    }
}

/// Slots per table and side to move.
const CORRECTION_BITS: u32 = 14;
const CORRECTION_SIZE: usize = 1 << CORRECTION_BITS;
/// Entries hold centipawns times this, for smooth averaging.
const CORRECTION_GRAIN: i32 = 256;
/// The most one entry corrects, in centipawns.
const CORRECTION_MAX: i32 = 64;
/// The tables: pawn structure, White's pieces, Black's pieces.
const CORRECTION_TABLES: usize = 3;

/// How far searches have found the static evaluation off, per side to move, learnt by pawn
/// structure and by each side's placement of its other pieces; the three add up.
pub struct Correction(Vec<i16>);

impl Default for Correction {
    fn default() -> Self {
        Correction(vec![0; CORRECTION_TABLES * 2 * CORRECTION_SIZE])
    }
}

/// The slot of `words` in one table.
fn slot(words: &[u64]) -> usize {
    (zobrist::mix(words) >> (64 - CORRECTION_BITS)) as usize
}

impl Correction {
    /// The entry of each table for `pos`.
    fn indices(pos: &Position) -> [usize; CORRECTION_TABLES] {
        let pawns = slot(&[
            pos.pieces(Color::White, Role::Pawn).0,
            pos.pieces(Color::Black, Role::Pawn).0,
        ]);
        let pieces = |c: Color| {
            slot(&[
                pos.pieces(c, Role::Knight).0,
                pos.pieces(c, Role::Bishop).0,
                pos.pieces(c, Role::Rook).0,
                pos.pieces(c, Role::Queen).0,
                pos.pieces(c, Role::King).0,
            ])
        };
        let side = pos.turn().index() * CORRECTION_SIZE;
        let table = 2 * CORRECTION_SIZE;
        [
            side + pawns,
            table + side + pieces(Color::White),
            2 * table + side + pieces(Color::Black),
        ]
    }

    /// The correction to add to `pos`'s static evaluation, in centipawns.
    pub fn get(&self, pos: &Position) -> i32 {
        let sum: i32 = Self::indices(pos)
            .iter()
            .map(|&i| i32::from(self.0[i]))
            .sum();
        sum / CORRECTION_GRAIN
    }

    /// A search to `depth` found `pos` worth `diff` more than its corrected static evaluation:
    /// each table's entry moves to take up part of the difference, more for deeper searches,
    /// less the nearer it is to its limit.
    pub fn update(&mut self, pos: &Position, diff: i32, depth: i32) {
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let weight = (depth + 1).min(16);
        let step = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN * weight / 256;
        for i in Self::indices(pos) {
            let v = i32::from(self.0[i]);
            let next = v + step - v * step.abs() / limit;
            self.0[i] = next.clamp(-limit, limit) as i16;
        }
    }

    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, Role};

    #[test]
    fn bonus_and_malus_move_scores_within_limits() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let pt = |m: Move| PieceTo {
            piece: pos.moved_piece(m).unwrap(),
            to: m.to(),
        };
        let (a, b) = (moves[0], moves[1]);
        let prev = [
            Some(PieceTo {
                piece: Piece::new(Color::Black, Role::Knight),
                to: Square::F6,
            }),
            None,
        ];
        let mut h = History::default();
        let none = Bitboard::EMPTY;
        for _ in 0..1000 {
            h.update_quiets(
                Color::White,
                (a, pt(a)),
                &[Some((b, pt(b)))],
                &prev,
                none,
                10,
            );
        }
        let sa = h.quiet_score(Color::White, a, pt(a), &prev, none);
        let sb = h.quiet_score(Color::White, b, pt(b), &prev, none);
        assert!(sa > 0 && sa <= 2 * HIST_LIMIT);
        assert!((-2 * HIST_LIMIT..0).contains(&sb));
        assert_eq!(h.counter_move(prev[0]), Some(a));
        // The same move into an attacked square has a butterfly entry of its own: only the
        // continuation history is shared.
        let attacked = Bitboard::from_square(a.to());
        let continuation = sa - i32::from(h.butterfly[butterfly_index(Color::White, a, none)]);
        assert_eq!(
            h.quiet_score(Color::White, a, pt(a), &prev, attacked),
            continuation
        );
        h.clear();
        assert_eq!(h.quiet_score(Color::White, a, pt(a), &prev, none), 0);
    }

    #[test]
    fn corrections_follow_searches_and_stay_bounded() {
        let pos = Position::startpos();
        let mut c = Correction::default();
        assert_eq!(c.get(&pos), 0);
        // Searches that keep finding the position 40 better than its corrected evaluation.
        for _ in 0..200 {
            c.update(&pos, 40 - c.get(&pos), 10);
        }
        assert!((36..=40).contains(&c.get(&pos)), "{}", c.get(&pos));
        for _ in 0..500 {
            c.update(&pos, -1000, 20);
        }
        let low = c.get(&pos);
        let floor = -CORRECTION_MAX * CORRECTION_TABLES as i32;
        assert!((floor..=floor + 6).contains(&low), "{low}");
        c.clear();
        assert_eq!(c.get(&pos), 0);
    }
}
