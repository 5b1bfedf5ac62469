//! Polyglot opening books: the 16-byte entry format (`entry`), a validated in-memory book with
//! binary-search probing (`reader`), move choice (`select`), and building books from PGN games
//! (`builder`, fed by the mainline reader in `pgn`).

mod builder;
mod entry;
mod error;
mod pgn;
mod reader;
mod select;

pub use builder::{BuildOptions, BuildStats, Builder, ColorFilter, WeightScheme};
pub use entry::{ENTRY_SIZE, Entry, decode_move, encode_move};
pub use error::BookError;
pub use pgn::{GameResult, MainlineGame, read_mainlines};
pub use reader::{Book, BookMove, Probe};
pub use select::{BookRng, RandomSource, Variety};
