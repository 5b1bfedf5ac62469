//! Standard Algebraic Notation: exact printing, and parsing that accepts what real PGN files
//! contain while rejecting moves that are wrong.

use std::fmt;
use std::str::FromStr;

use super::moves::Move;
use super::position::Position;
use super::types::{CastlingSide, File, Rank, Role, Square};

/// A SAN move as written, before it is resolved against a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum San {
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    Castle(CastlingSide),
    /// `--` or `Z0`.
    Null,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SanError {
    #[error("'{0}' is not a SAN move")]
    Syntax(String),
    #[error("{0} is not legal in this position")]
    Illegal(String),
    #[error("{0} is ambiguous in this position")]
    Ambiguous(String),
}

impl FromStr for San {
    type Err = SanError;

    fn from_str(text: &str) -> Result<San, SanError> {
        let syntax = || SanError::Syntax(text.to_owned());
        // Check marks and annotation glyphs are accepted and ignored.
        let s = text.trim_end_matches(['+', '#', '!', '?']);
        match s {
            "--" | "Z0" | "0000" | "@@@@" => return Ok(San::Null),
            "O-O" | "0-0" | "OO" | "00" => return Ok(San::Castle(CastlingSide::King)),
            "O-O-O" | "0-0-0" | "OOO" | "000" => return Ok(San::Castle(CastlingSide::Queen)),
            _ => {}
        }
        let b = s.as_bytes();
        if b.len() < 2 || !b.is_ascii() {
            return Err(syntax());
        }

        // Promotion suffix: "=Q", "Q", "(Q)", "/Q".
        let mut end = b.len();
        let mut promotion = None;
        if let Some(role) = Role::from_char(b[end - 1] as char).filter(|_| b[end - 1] != b'b') {
            let mut start = end - 1;
            if start > 0 && matches!(b[start - 1], b'=' | b'/') {
                start -= 1;
            }
            promotion = Some(role);
            end = start;
        } else if end >= 3 && b[end - 1] == b')' && b[end - 3] == b'(' {
            promotion = Some(Role::from_char(b[end - 2] as char).ok_or_else(syntax)?);
            end -= 3;
        }
        if let Some(role) = promotion
            && matches!(role, Role::Pawn | Role::King)
        {
            return Err(syntax());
        }
        if end < 2 {
            return Err(syntax());
        }
        let to = Square::from_ascii(&b[end - 2..end]).ok_or_else(syntax)?;
        let mut head = &b[..end - 2];

        let mut capture = false;
        if let [rest @ .., b'x' | b':'] = head {
            capture = true;
            head = rest;
        }

        let mut role = Role::Pawn;
        if let [first, rest @ ..] = head
            && first.is_ascii_uppercase()
        {
            role = Role::from_char(*first as char).ok_or_else(syntax)?;
            head = rest;
        }

        let (mut file, mut rank) = (None, None);
        for &c in head {
            match c {
                b'a'..=b'h' if file.is_none() && rank.is_none() => {
                    file = File::from_char(c as char)
                }
                b'1'..=b'8' if rank.is_none() => rank = Rank::from_char(c as char),
                b'x' if !capture => capture = true,
                _ => return Err(syntax()),
            }
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err(syntax());
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl San {
    /// The legal move this names. A missing capture mark is tolerated; a capture mark on a move
    /// that captures nothing is not.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let illegal = || SanError::Illegal(self.to_string());
        match *self {
            San::Null => Err(illegal()),
            San::Castle(side) => pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.castling_side() == Some(side))
                .ok_or_else(illegal),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut found = None;
                for &m in pos.legal_moves().iter() {
                    if m.is_castle()
                        || m.to() != to
                        || pos.role_at(m.from()) != Some(role)
                        || file.is_some_and(|f| m.from().file() != f)
                        || rank.is_some_and(|r| m.from().rank() != r)
                        || m.promotion_role() != promotion
                        || (capture && !m.is_capture())
                    {
                        continue;
                    }
                    if found.is_some() {
                        return Err(SanError::Ambiguous(self.to_string()));
                    }
                    found = Some(m);
                }
                found.ok_or_else(illegal)
            }
        }
    }

    /// Describes `m` in `pos` with the least disambiguation SAN needs (no check suffix).
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if m.is_capture() {
                file = Some(m.from().file());
            }
        } else if role != Role::King {
            let rivals: Vec<Square> = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to() == m.to()
                        && o.from() != m.from()
                        && !o.is_castle()
                        && pos.role_at(o.from()) == Some(role)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|s| s.file() != m.from().file()) {
                    file = Some(m.from().file());
                } else if rivals.iter().all(|s| s.rank() != m.from().rank()) {
                    rank = Some(m.from().rank());
                } else {
                    file = Some(m.from().file());
                    rank = Some(m.from().rank());
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture: m.is_capture(),
            to: m.to(),
            promotion: m.promotion_role(),
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Null => f.write_str("--"),
            San::Castle(CastlingSide::King) => f.write_str("O-O"),
            San::Castle(CastlingSide::Queen) => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(role) = promotion {
                    write!(f, "={}", role.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl Position {
    /// SAN of a legal move, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut s = San::from_move(self, m).to_string();
        let mut after = self.clone();
        after.play_unchecked(m);
        if after.in_check() {
            s.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// Parses and resolves a SAN move.
    pub fn parse_san(&self, s: &str) -> Result<Move, SanError> {
        s.parse::<San>()?.to_move(self)
    }

    /// Plays a line of SAN moves separated by spaces, with or without move numbers (`1. e4 e5
    /// 2.Nf3`, `12...Qd7`). An error names the token it stopped at and the position there.
    pub fn play_sans(&self, line: &str) -> Result<Position, LineError> {
        let mut pos = self.clone();
        for token in line.split_whitespace() {
            let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if san.is_empty() {
                continue;
            }
            let m = pos.parse_san(san).map_err(|error| LineError {
                token: token.to_owned(),
                fen: pos.fen(),
                error,
            })?;
            pos.play_unchecked(m);
        }
        Ok(pos)
    }
}

/// Where a line of SAN moves stopped.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move '{token}' after '{fen}': {error}")]
pub struct LineError {
    pub token: String,
    pub fen: String,
    pub error: SanError,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san_of(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.san(pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn a_line_plays_with_or_without_move_numbers_and_names_where_it_stopped() {
        let start = Position::startpos();
        let numbered = start.play_sans("1. e4 e5 2.Nf3 Nc6 3. Bb5").unwrap();
        assert_eq!(start.play_sans("e4 e5 Nf3 Nc6 Bb5").unwrap(), numbered);
        assert_eq!(start.play_sans("").unwrap(), start);
        let stopped = start.play_sans("1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(stopped.token, "Ke3");
        assert!(matches!(stopped.error, SanError::Illegal(_)));
        assert!(
            stopped
                .to_string()
                .starts_with("move 'Ke3' after 'rnbqkbnr/pppp1ppp/")
        );
    }

    #[test]
    fn prints_exact_disambiguation() {
        assert_eq!(san_of("6k1/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1"), "Rad1");
        let fen = "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1";
        assert_eq!(san_of(fen, "a1d1"), "Rd1+");
        assert_eq!(san_of(fen, "e1g1"), "O-O");
        assert_eq!(san_of(fen, "e1c1"), "O-O-O+");
        // Three queens reach b2: by file, by rank, and by both.
        let fen = "6k1/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
        assert_eq!(san_of(fen, "c1b2"), "Qcb2");
        assert_eq!(san_of(fen, "a3b2"), "Q3b2");
        assert_eq!(san_of(fen, "a1b2"), "Qa1b2");
        assert_eq!(san_of("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8#");
        assert_eq!(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
    }

    #[test]
    fn parses_what_real_files_contain() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        for text in ["e4", "Pe4", "e2e4", "Pe2e4", "e4!?", "e4+"] {
            assert_eq!(pos.parse_san(text), Ok(e4), "{text}");
        }
        assert_eq!(pos.parse_san("Ng1f3").ok(), pos.parse_uci("g1f3").ok());
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        for text in ["O-O", "0-0", "O-O+"] {
            assert_eq!(castle.parse_san(text).ok(), castle.parse_uci("e1g1").ok());
        }
        let promo = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        for text in ["b8=Q", "b8Q", "b8(Q)", "b8=Q+", "b8/Q"] {
            assert_eq!(
                promo.parse_san(text).ok(),
                promo.parse_uci("b7b8q").ok(),
                "{text}"
            );
        }
        // Capture by the b-pawn, not a bishop.
        let pawn = Position::from_fen("4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1").unwrap();
        assert_eq!(pawn.parse_san("bxc3").ok(), pawn.parse_uci("b2c3").ok());
    }

    #[test]
    fn rejects_what_is_wrong() {
        let pos = Position::startpos();
        assert!(matches!(pos.parse_san("e5"), Err(SanError::Illegal(_))));
        assert!(matches!(pos.parse_san("Nxf3"), Err(SanError::Illegal(_))));
        assert!(matches!(pos.parse_san("Ke2"), Err(SanError::Illegal(_))));
        assert!(matches!(pos.parse_san("O-O"), Err(SanError::Illegal(_))));
        for junk in ["", "x", "e", "Xe4", "e4=K", "Nf3=Q", "e9", "é4", "Q(", "=Q"] {
            assert!(
                matches!(pos.parse_san(junk), Err(SanError::Syntax(_))),
                "{junk}"
            );
        }
        let two_rooks = Position::from_fen("1k6/8/8/8/4K3/8/8/R6R w - - 0 1").unwrap();
        assert!(matches!(
            two_rooks.parse_san("Rf1"),
            Err(SanError::Ambiguous(_))
        ));
        let promo = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(matches!(promo.parse_san("b8"), Err(SanError::Illegal(_))));
    }
}
