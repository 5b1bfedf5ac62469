//! Our rules of chess: squares, bitboards, attack tables, positions with copy-make and Polyglot
//! Zobrist keys, legal move generation, notation (FEN, UCI, SAN), game-end rules and perft.
//! Everything else in the crate builds on this module; it depends on nothing but std.

pub mod attacks;
pub mod bitboard;
pub mod check;
pub mod chess960;
pub mod epd;
pub mod fen;
mod movecount;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
mod polyglot_keys;
pub mod position;
mod rng;
pub mod san;
#[cfg(test)]
pub mod testing;
pub mod types;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, STARTPOS};
pub use movegen::GenType;
pub use moves::{Move, MoveKind, MoveList};
pub use outcome::{DrawReason, Outcome, TbWdl};
pub use position::{CastlingMode, IllegalMove, Position, PositionError, PositionErrors, Setup};
pub use rng::Rng;
pub use san::{LineError, San, SanError};
pub use types::{ByColor, ByRole, CastlingSide, Color, File, Piece, Rank, Role, Square};
pub use uci::{UciMove, UciMoveError};
