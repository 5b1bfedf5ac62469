//! Choosing a book move: the best one, or a weighted random one with adjustable variety.

use super::reader::{Book, BookMove};
use crate::chess::{Move, Position};

/// How adventurous the choice is. 0 always plays the highest weight; 1 picks in proportion to the
/// weights; values in between sharpen the distribution (weights raised to the power 1/variety),
/// values above 1 flatten it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Variety(f64);

impl Variety {
    pub const BEST: Variety = Variety(0.0);
    pub const PROPORTIONAL: Variety = Variety(1.0);
    /// Above this the distribution is already nearly uniform.
    const MAX: f64 = 10.0;

    /// Clamped to 0..=10; NaN counts as 0.
    pub fn new(value: f64) -> Variety {
        Variety(if value.is_nan() {
            0.0
        } else {
            value.clamp(0.0, Variety::MAX)
        })
    }

    pub fn value(self) -> f64 {
        self.0
    }
}

/// A source of uniformly random 64-bit numbers.
pub trait RandomSource {
    fn next_u64(&mut self) -> u64;
}

impl<F: FnMut() -> u64> RandomSource for F {
    fn next_u64(&mut self) -> u64 {
        self()
    }
}

impl RandomSource for crate::chess::Rng {
    fn next_u64(&mut self) -> u64 {
        crate::chess::Rng::next_u64(self)
    }
}

impl Book {
    /// The highest-weight move (the first one on ties); weight-0 entries are never chosen.
    pub fn best(&self, pos: &Position) -> Option<BookMove> {
        self.probe(pos)
            .into_iter()
            .filter(|m| m.weight > 0)
            .reduce(|best, m| if m.weight > best.weight { m } else { best })
    }

    /// A book move chosen at random by weight, shaped by `variety`; weight-0 entries never.
    pub fn pick(
        &self,
        pos: &Position,
        rng: &mut impl RandomSource,
        variety: Variety,
    ) -> Option<Move> {
        if variety.value() == 0.0 {
            return self.best(pos).map(|m| m.mv);
        }
        let moves: Vec<BookMove> = self
            .probe(pos)
            .into_iter()
            .filter(|m| m.weight > 0)
            .collect();
        let exponent = 1.0 / variety.value();
        let shaped: Vec<f64> = moves
            .iter()
            .map(|m| f64::from(m.weight).powf(exponent))
            .collect();
        let total: f64 = shaped.iter().sum();
        // 53 random bits give a uniform float in [0, 1).
        let mut target = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (m, w) in moves.iter().zip(&shaped) {
            if target < *w {
                return Some(m.mv);
            }
            target -= w;
        }
        moves.last().map(|m| m.mv)
    }
}
