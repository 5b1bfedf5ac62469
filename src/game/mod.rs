//! Games and PGN: the game tree with variations and annotations, streaming import of files of
//! any size, an index for random access, export in the PGN export format, and atomic saving.

pub mod annotation;
pub mod batches;
pub mod headers;
pub mod index;
mod movetext;
pub mod openings;
pub mod read;
#[cfg(test)]
mod read_tests;
pub mod record;
pub mod resolve;
pub mod save;
pub mod split;
pub mod tags;
pub mod tree;
pub mod walk;
pub mod write;

pub use annotation::{Command, Comment, Eval, Nag, Score, ShapeColor, TABLEBASE_CP};
pub use headers::Headers;
pub use index::{GameIndex, IndexEntry};
pub use read::{
    GameError, GameErrorKind, ParsedGame, PgnReader, check_game, parse_all, parse_game,
};
pub use record::{Ending, Game, GameResult, Variant};
pub use save::{
    AtomicFile, GameOrigin, ReplaceError, append_game, remove_temporaries, replace_game, same_file,
    save_atomic, save_games, save_target,
};
pub use tree::{EditError, GameMove, Node, NodeId, Tree};
pub use walk::{LineVisitor, MoveNumber, walk_line};
pub use write::write_game;
