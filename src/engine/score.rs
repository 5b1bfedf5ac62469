//! Search values: internal centipawn integers with mate encoded near the ends, and the public
//! [`Score`] that events carry.

use std::fmt;

/// Deepest ply the search reaches (stack sizes, mate encoding).
pub const MAX_PLY: usize = 128;
pub const INFINITY: i32 = 32_000;
/// Being mated right now; mate in n plies is `MATE - n`.
pub const MATE: i32 = 31_000;
/// Any value beyond this is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// A tablebase win found `n` plies below the root is `TB_WIN - n`: a band just below the mates.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Any value beyond this is a tablebase win or a mate.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// A tablebase win (or a mate): no margin-based pruning applies.
pub const fn is_decisive(value: i32) -> bool {
    value.abs() >= TB_BOUND
}

pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A score as reported to users: centipawns from the side to move's view, or a mate distance
/// in moves (positive: the side to move mates; negative: it is mated).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Cp(value)
        }
    }

    /// The same score seen by the other side. `Mate(0)` (mated now) becomes a mate in one: the
    /// move that mated.
    pub fn for_other_side(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(0) => Score::Mate(1),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// A win or loss the tablebases prove (centipawns in the band just below mate scores).
    pub fn is_tablebase(self) -> bool {
        matches!(self, Score::Cp(cp) if cp.abs() >= TB_BOUND)
    }

    /// Win/draw/loss expectation in permille, from a logistic model of the centipawn score.
    pub fn wdl(self) -> Wdl {
        match self {
            Score::Mate(n) if n > 0 => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Score::Mate(_) => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Score::Cp(cp) => {
                let cp = f64::from(cp.clamp(-4000, 4000));
                let curve = |x: f64| 1000.0 / (1.0 + ((WDL_CENTRE - x) / WDL_SCALE).exp());
                let win = curve(cp).round() as u32;
                let loss = curve(-cp).round() as u32;
                Wdl {
                    win,
                    draw: 1000 - win - loss,
                    loss,
                }
            }
        }
    }
}

/// Where the win (and loss) curves cross 50%, and how steep they are, in centipawns.
const WDL_CENTRE: f64 = 200.0;
const WDL_SCALE: f64 = 80.0;

impl fmt::Display for Score {
    /// UCI form: `cp 31` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Win/draw/loss in permille (they add up to 1000).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// What a value says about the true value: exact, or a bound (a fail high or low, in the
/// search, the transposition table and the reports). The numbers are the table's two bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at most this (fail low: no move beat alpha).
    Upper = 1,
    /// The true value is at least this (fail high: a beta cutoff).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a value with this bound settles a node searched with the window (alpha, beta):
    /// exact, at least beta, or at most alpha.
    pub fn decides(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }

    /// The bound of a search result `best` in the window (alpha, beta); only a PV node's value
    /// inside the window is exact.
    pub fn of_result(best: i32, alpha: i32, beta: i32, pv: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(35), Score::Cp(35));
    }

    #[test]
    fn wdl_adds_up_and_is_symmetric() {
        for cp in [-900, -150, 0, 42, 300, 5000] {
            let w = Score::Cp(cp).wdl();
            assert_eq!(w.win + w.draw + w.loss, 1000);
            let m = Score::Cp(-cp).wdl();
            assert_eq!((w.win, w.loss), (m.loss, m.win));
        }
    }
}
