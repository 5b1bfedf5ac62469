//! How a game ends by the rules (checkmate, stalemate, repetition, the fifty-move rule and
//! insufficient material), and how it ends with best play as endgame tables give it.

use std::fmt;

use super::position::Position;
use super::types::Color;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,
    InsufficientMaterial,
}

/// A finished game by the rules of the board. Flag falls, resignations and agreements belong to
/// the game record, which wraps this.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    Checkmate { winner: Color },
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => {
                write!(f, "{} wins by checkmate", winner.fold("White", "Black"))
            }
            Outcome::Draw(DrawReason::Stalemate) => f.write_str("Draw by stalemate"),
            Outcome::Draw(DrawReason::ThreefoldRepetition) => {
                f.write_str("Draw by threefold repetition")
            }
            Outcome::Draw(DrawReason::FiftyMoves) => f.write_str("Draw by the fifty-move rule"),
            Outcome::Draw(DrawReason::InsufficientMaterial) => {
                f.write_str("Draw by insufficient material")
            }
        }
    }
}

impl Outcome {
    /// PGN result token.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

impl Position {
    /// How many times this position occurred before in `history`, the keys of the earlier
    /// positions of the game, oldest first. Only positions since the last irreversible move can
    /// repeat, so the scan stops there.
    pub fn repetitions(&self, history: &[u64]) -> usize {
        history
            .iter()
            .rev()
            .take(self.halfmoves() as usize)
            .skip(1)
            .step_by(2)
            .filter(|&&key| key == self.hash())
            .count()
    }

    /// The rules' verdict, given the keys of the earlier positions of the game. Repetition and
    /// the fifty-move rule are treated as ending the game (as engines and most interfaces do).
    pub fn outcome(&self, history: &[u64]) -> Option<Outcome> {
        let has_moves = !self.legal_moves().is_empty();
        if !has_moves {
            return Some(if self.in_check() {
                Outcome::Checkmate {
                    winner: !self.turn(),
                }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        if self.halfmoves() >= 100 {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if self.repetitions(history) >= 2 {
            return Some(Outcome::Draw(DrawReason::ThreefoldRepetition));
        }
        None
    }
}

/// Win/draw/loss under the fifty-move rule, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(i8)]
pub enum TbWdl {
    Loss = -2,
    /// Lost, but the fifty-move rule saves the draw.
    BlessedLoss = -1,
    Draw = 0,
    /// Won, but the fifty-move rule comes first: a draw with best defence.
    CursedWin = 1,
    Win = 2,
}

impl TbWdl {
    /// The value as the Syzygy format numbers it: -2 (loss) to 2 (win).
    pub fn value(self) -> i32 {
        self as i32
    }

    /// The same result seen by the other side.
    pub fn flip(self) -> TbWdl {
        match self {
            TbWdl::Loss => TbWdl::Win,
            TbWdl::BlessedLoss => TbWdl::CursedWin,
            TbWdl::Draw => TbWdl::Draw,
            TbWdl::CursedWin => TbWdl::BlessedLoss,
            TbWdl::Win => TbWdl::Loss,
        }
    }

    /// The WDL of a position with this DTZ and `halfmoves` already on the fifty-move counter.
    pub fn from_dtz(dtz: i32, halfmoves: u32) -> TbWdl {
        let plies = dtz.unsigned_abs() + halfmoves;
        match dtz.signum() {
            0 => TbWdl::Draw,
            1 if plies <= 100 => TbWdl::Win,
            1 => TbWdl::CursedWin,
            _ if plies <= 100 => TbWdl::Loss,
            _ => TbWdl::BlessedLoss,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TbWdl::Loss => "loss",
            TbWdl::BlessedLoss => "blessed loss",
            TbWdl::Draw => "draw",
            TbWdl::CursedWin => "cursed win",
            TbWdl::Win => "win",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, history: &mut Vec<u64>, uci: &str) {
        history.push(pos.hash());
        let m = pos.parse_uci(uci).unwrap();
        pos.play_unchecked(m);
    }

    #[test]
    fn threefold_repetition_by_knight_dance() {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        for _ in 0..2 {
            for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                assert_eq!(pos.outcome(&history), None);
                play(&mut pos, &mut history, uci);
            }
        }
        assert_eq!(
            pos.outcome(&history),
            Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
        );
    }

    #[test]
    fn mate_stalemate_material_fifty() {
        let mate = Position::from_fen("R5k1/5ppp/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(
            mate.outcome(&[]),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            stalemate.outcome(&[]),
            Some(Outcome::Draw(DrawReason::Stalemate))
        );
        for fen in [
            "8/8/8/8/8/8/8/K6k w - - 0 1",
            "8/8/8/8/8/8/8/KN5k w - - 0 1",
            "8/8/8/8/8/8/8/KB3b1k w - - 0 1",
        ] {
            assert_eq!(
                Position::from_fen(fen).unwrap().outcome(&[]),
                Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
                "{fen}"
            );
        }
        assert_eq!(
            Position::from_fen("8/8/8/8/8/8/8/KNN4k w - - 0 1")
                .unwrap()
                .outcome(&[]),
            None
        );
        let fifty = Position::from_fen("7k/8/8/8/8/8/8/KR6 w - - 100 80").unwrap();
        assert_eq!(
            fifty.outcome(&[]),
            Some(Outcome::Draw(DrawReason::FiftyMoves))
        );
    }
}
