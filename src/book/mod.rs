//! Polyglot opening books: the 16-byte entry format (`entry`), a validated in-memory book with
//! binary-search probing (`reader`), move choice (`select`), and building books from games
//! (`builder`, reading PGN through the game module).

mod builder;
mod entry;
mod error;
mod reader;
mod select;

pub use builder::{BuildOptions, BuildStats, Builder, ColorFilter, WeightScheme};
pub use entry::{ENTRY_SIZE, Entry, decode_move, encode_move};
pub use error::BookError;
pub use reader::{Book, BookMove, Probe};
pub use select::{RandomSource, Variety};
