//! Static evaluation behind the [`Evaluator`] trait, so the hand-crafted evaluation and NNUE can
//! both be plugged into the search.

mod hce;
mod pst;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use crate::chess::Position;

pub use hce::HandCrafted;

/// A static evaluation function. Implementations must be cheap to call from many threads.
pub trait Evaluator: Send + Sync {
    /// The position's value in centipawns from the side to move's point of view.
    fn evaluate(&self, pos: &Position) -> i32;

    /// A short name for `info string` and the UCI `eval` command.
    fn name(&self) -> &'static str;

    /// A human-readable breakdown of the evaluation (the UCI `eval` command).
    fn trace(&self, pos: &Position) -> String;
}

/// A tapered score: middlegame and endgame parts, blended by the game phase.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct S(pub i32, pub i32);

impl S {
    pub const ZERO: S = S(0, 0);
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
