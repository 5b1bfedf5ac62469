//! FEN and EPD position fields: parsing with a precise error per field, and printing (standard,
//! X-FEN and Shredder-FEN castling).

use std::fmt::Write;

use super::bitboard::Bitboard;
use super::position::{CastlingMode, Position, PositionErrors, Setup};
use super::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("board field: expected 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    #[error("board field: rank {rank} describes {files} files, not 8")]
    RankLength { rank: char, files: usize },
    #[error("board field: '{0}' is not a piece letter or digit")]
    PieceLetter(char),
    #[error("side to move: expected 'w' or 'b', found '{0}'")]
    Turn(String),
    #[error("castling field: '{0}' is not a castling right (use KQkq, file letters, or -)")]
    CastlingSyntax(String),
    #[error("castling field: '{right}' names no rook that can castle")]
    CastlingRook { right: char },
    #[error("en passant field: '{0}' is not a square or -")]
    EnPassant(String),
    #[error("halfmove clock: '{0}' is not a number")]
    Halfmoves(String),
    #[error("fullmove number: '{0}' is not a positive number")]
    Fullmoves(String),
    #[error("unexpected text after the fullmove number: '{0}'")]
    TrailingText(String),
    #[error("illegal position: {0}")]
    Position(#[from] PositionErrors),
}

/// Parses the board, turn, castling and en passant fields, and the two counters if present.
/// The counters may be missing (EPD style), defaulting to 0 and 1.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let board_field = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    parse_board(board_field, &mut setup)?;

    setup.turn = match fields.next() {
        None => Color::White,
        Some("w") | Some("W") => Color::White,
        Some("b") | Some("B") => Color::Black,
        Some(other) => return Err(FenError::Turn(other.to_owned())),
    };
    if let Some(castling) = fields.next() {
        setup.castling_rooks = parse_castling(castling, &setup)?;
    }
    if let Some(ep) = fields.next() {
        setup.ep_square = match ep {
            "-" => None,
            s => Some(s.parse().map_err(|_| FenError::EnPassant(s.to_owned()))?),
        };
    }
    if let Some(half) = fields.next() {
        setup.halfmoves = half
            .parse()
            .map_err(|_| FenError::Halfmoves(half.to_owned()))?;
    }
    if let Some(full) = fields.next() {
        setup.fullmoves = full
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0 && n < 100_000)
            .ok_or_else(|| FenError::Fullmoves(full.to_owned()))?;
    }
    if let Some(extra) = fields.next() {
        return Err(FenError::TrailingText(extra.to_owned()));
    }
    Ok(setup)
}

fn parse_board(field: &str, setup: &mut Setup) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    // Crazyhouse-style pockets ("[...]") are not chess; a ninth rank is a count error.
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::PieceLetter(c))?;
                if file < 8 {
                    let sq = Square::from_coords(File::new(file as u32), rank);
                    setup.board[sq.index()] = Some(piece);
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank.char(),
                files: file,
            });
        }
    }
    Ok(())
}

/// Castling in standard (KQkq), X-FEN (KQkq meaning the outermost rook, or a file letter) and
/// Shredder-FEN (file letters) notation.
fn parse_castling(field: &str, setup: &Setup) -> Result<Bitboard, FenError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if field.len() > 4 || field.is_empty() {
        return Err(FenError::CastlingSyntax(field.to_owned()));
    }
    let mut rooks = Bitboard::EMPTY;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let rook = Piece::new(color, Role::Rook);
        let on_rank = |f: File| setup.board[Square::from_coords(f, rank).index()];
        let king_file = File::ALL
            .into_iter()
            .find(|&f| on_rank(f) == Some(Piece::new(color, Role::King)));
        let square = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let outward: Vec<File> = match side {
                    CastlingSide::King => File::ALL.into_iter().rev().collect(),
                    CastlingSide::Queen => File::ALL.into_iter().collect(),
                };
                // The outermost rook on that side of the king.
                outward
                    .into_iter()
                    .take_while(|&f| Some(f) != king_file)
                    .find(|&f| on_rank(f) == Some(rook))
                    .filter(|_| king_file.is_some())
                    .map(|f| Square::from_coords(f, rank))
                    .ok_or(FenError::CastlingRook { right: c })?
            }
            'a'..='h' => {
                let file = File::from_char(c.to_ascii_lowercase()).expect("a..h");
                if on_rank(file) != Some(rook) {
                    return Err(FenError::CastlingRook { right: c });
                }
                Square::from_coords(file, rank)
            }
            _ => return Err(FenError::CastlingSyntax(field.to_owned())),
        };
        if rooks.contains(square) {
            return Err(FenError::CastlingSyntax(field.to_owned()));
        }
        rooks = rooks.with(square);
    }
    Ok(rooks)
}

impl Position {
    /// Parses a FEN (or X-FEN / Shredder-FEN). Positions whose castling rights only make sense in
    /// Chess960 are read in Chess960 mode.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let setup = parse_setup(fen)?;
        match Position::from_setup(setup.clone(), CastlingMode::Standard) {
            Ok(pos) => Ok(pos),
            Err(standard_errors) => Position::from_setup(setup, CastlingMode::Chess960)
                .map_err(|_| FenError::Position(standard_errors)),
        }
    }

    /// Parses a FEN in the given castling mode.
    pub fn from_fen_with_mode(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        Ok(Position::from_setup(parse_setup(fen)?, mode)?)
    }

    /// FEN; castling as KQkq in standard mode and as X-FEN in Chess960 mode.
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// FEN with Shredder-FEN castling (file letters: `HAha`).
    pub fn shredder_fen(&self) -> String {
        self.fen_with(true)
    }

    /// The first four FEN fields (board, turn, castling, en passant), as in EPD.
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.rsplitn(3, ' ').last().unwrap_or_default().to_owned()
    }

    fn fen_with(&self, shredder: bool) -> String {
        let mut s = self.board_fen();
        let _ = write!(s, " {} ", self.turn().char());
        let mut any = false;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                any = true;
                let c = if shredder || !self.is_outermost_rook(color, side, rook) {
                    rook.file().char()
                } else {
                    match side {
                        CastlingSide::King => 'k',
                        CastlingSide::Queen => 'q',
                    }
                };
                s.push(match color {
                    Color::White => c.to_ascii_uppercase(),
                    Color::Black => c,
                });
            }
        }
        if !any {
            s.push('-');
        }
        match self.ep_square() {
            Some(ep) => {
                let _ = write!(s, " {ep}");
            }
            None => s.push_str(" -"),
        }
        let _ = write!(s, " {} {}", self.halfmoves(), self.fullmoves());
        s
    }

    /// Whether `rook` is the outermost rook on its side, so that K/Q names it in X-FEN.
    fn is_outermost_rook(&self, color: Color, side: CastlingSide, rook: Square) -> bool {
        let rank = Bitboard::from_rank(color.back_rank());
        let rooks = self.pieces(color, Role::Rook) & rank;
        match side {
            CastlingSide::King => rooks.last() == Some(rook),
            CastlingSide::Queen => rooks.first() == Some(rook),
        }
    }

    /// The board field alone.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                s.push('/');
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::PositionError;

    #[test]
    fn round_trips() {
        for fen in [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 150",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn chess960_castling_notations() {
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let pos = Position::from_fen(shredder).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(pos.shredder_fen(), shredder);
        // Each side has one castling rook, the outermost, so X-FEN writes KQkq.
        assert_eq!(
            pos.fen(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
        assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    }

    #[test]
    fn ep_square_only_when_capturable() {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        assert_eq!(pos.ep_square(), None);
    }

    #[test]
    fn errors_name_the_field() {
        let cases: &[(&str, FenError)] = &[
            ("", FenError::Empty),
            ("8/8/8 w - - 0 1", FenError::RankCount(3)),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::RankLength {
                    rank: '7',
                    files: 7,
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenError::PieceLetter('X'),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenError::Turn("x".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
                FenError::CastlingSyntax("KQkz".into()),
            ),
            (
                "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::CastlingRook { right: 'k' },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                FenError::EnPassant("e9".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                FenError::Halfmoves("x".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
                FenError::Fullmoves("0".into()),
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(&parse_setup(fen).unwrap_err(), expected, "{fen}");
        }
    }

    #[test]
    fn illegal_positions_are_refused() {
        let reasons = |fen: &str| match Position::from_fen(fen) {
            Err(FenError::Position(e)) => e.0,
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(
            reasons("8/8/8/8/8/8/8/7K w - - 0 1"),
            vec![PositionError::MissingKing(Color::Black)]
        );
        assert!(
            reasons("kk6/8/8/8/8/8/8/7K w - - 0 1")
                .contains(&PositionError::TooManyKings(Color::Black))
        );
        assert!(reasons("k6P/8/8/8/8/8/8/7K w - - 0 1").contains(&PositionError::PawnsOnBackRank));
        assert_eq!(
            reasons("k7/8/8/8/8/8/8/R6K w - - 0 1"),
            vec![PositionError::OppositeCheck]
        );
        assert_eq!(
            reasons("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
            vec![PositionError::InvalidEnPassant(Square::E6)]
        );
    }
}
