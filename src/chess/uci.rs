//! Moves in UCI coordinate notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling, `0000`).

use std::fmt;
use std::str::FromStr;

use super::moves::Move;
use super::position::{CastlingMode, Position};
use super::types::{Role, Square};

/// A UCI move as written, before it is checked against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum UciMove {
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// `0000`.
    Null,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum UciMoveError {
    #[error("'{0}' is not a UCI move (like e2e4 or e7e8q)")]
    Syntax(String),
    #[error("{0} is not legal in this position")]
    Illegal(UciMove),
}

impl FromStr for UciMove {
    type Err = UciMoveError;

    fn from_str(s: &str) -> Result<UciMove, UciMoveError> {
        let bytes = s.as_bytes();
        let syntax = || UciMoveError::Syntax(s.to_owned());
        if s == "0000" {
            return Ok(UciMove::Null);
        }
        if !(4..=5).contains(&bytes.len()) {
            return Err(syntax());
        }
        let from = Square::from_ascii(&bytes[0..2]).ok_or_else(syntax)?;
        let to = Square::from_ascii(&bytes[2..4]).ok_or_else(syntax)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(role),
                _ => return Err(syntax()),
            },
        };
        if from == to {
            return Err(syntax());
        }
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
        }
    }
}

impl UciMove {
    /// Writes `m` for a position in the given castling mode: castling as `e1g1` in standard
    /// chess and as king-takes-rook (`e1h1`) in Chess960.
    pub fn from_move(m: Move, mode: CastlingMode) -> UciMove {
        let to = match m.castling_side() {
            Some(side) if mode == CastlingMode::Standard => {
                Square::from_coords(side.king_to_file(), m.from().rank())
            }
            _ => m.to(),
        };
        UciMove::Normal {
            from: m.from(),
            to,
            promotion: m.promotion_role(),
        }
    }

    /// The legal move this names. Castling is accepted in both forms (`e1g1` and `e1h1`) in both
    /// modes; a plain king step takes precedence where both readings exist (Chess960).
    pub fn to_move(self, pos: &Position) -> Result<Move, UciMoveError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = self
        else {
            return Err(UciMoveError::Illegal(self));
        };
        let legal = pos.legal_moves();
        let plain = legal
            .iter()
            .find(|m| {
                !m.is_castle()
                    && m.from() == from
                    && m.to() == to
                    && m.promotion_role() == promotion
            })
            .copied();
        if let Some(m) = plain {
            return Ok(m);
        }
        if promotion.is_none() {
            let castle = legal.iter().find(|m| {
                m.is_castle()
                    && m.from() == from
                    && (m.to() == to || UciMove::from_move(**m, CastlingMode::Standard) == self)
            });
            if let Some(&m) = castle {
                return Ok(m);
            }
        }
        Err(UciMoveError::Illegal(self))
    }
}

impl Position {
    /// The move in UCI notation for this position's castling mode.
    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.castling_mode()).to_string()
    }

    /// Parses and checks a UCI move.
    pub fn parse_uci(&self, s: &str) -> Result<Move, UciMoveError> {
        s.parse::<UciMove>()?.to_move(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_in_both_forms() {
        let pos =
            Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("legal position");
        let short = pos.parse_uci("e1g1").unwrap();
        assert!(short.is_castle());
        assert_eq!(pos.parse_uci("e1h1").unwrap(), short);
        assert_eq!(pos.uci(short), "e1g1");
        let mut pos960 = pos.clone();
        pos960.set_castling_mode(CastlingMode::Chess960);
        assert_eq!(pos960.uci(short), "e1h1");
    }

    #[test]
    fn rejects_bad_text() {
        for bad in ["", "e2", "e2e4x", "e2e2", "i2e4", "e7e8k", "e2e4qq"] {
            assert!(matches!(
                bad.parse::<UciMove>(),
                Err(UciMoveError::Syntax(_))
            ));
        }
        let pos = Position::startpos();
        assert!(matches!(
            pos.parse_uci("e2e5"),
            Err(UciMoveError::Illegal(_))
        ));
        assert_eq!(pos.uci(pos.parse_uci("g1f3").unwrap()), "g1f3");
    }
}
