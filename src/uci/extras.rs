//! The opening book and the Syzygy tables as the UCI session uses them: loaded when their options
//! are set, then played with by the shared play policy (`engines::policy`): a book move at once
//! at `go`, else a search that keeps the root moves holding the tables' result.

use crate::chess::{Move, Position};
use crate::engine::TablebaseConfig;
use crate::engines::policy::{BookRule, PlayPolicy};

#[derive(Default)]
pub struct Extras {
    policy: PlayPolicy,
}

impl Extras {
    /// OwnBook on: `file`, or the built-in book when it is empty. Returns what to report.
    pub fn set_book(&mut self, own_book: bool, file: &str) -> String {
        self.policy.load_book(own_book, file).unwrap_or_else(|e| e)
    }

    /// The tables registered by the last `set_tablebases`, as the search takes them.
    pub fn search_tables(&self, probe_depth: i32, rule50: bool) -> Option<TablebaseConfig> {
        self.policy.search_tables(probe_depth, rule50)
    }

    /// Registers the tables of a ':'-separated path (empty: none). Returns lines to report.
    pub fn set_tablebases(&mut self, path: &str) -> Vec<String> {
        self.policy.load_tables(path).unwrap_or_else(|e| vec![e])
    }

    /// A weighted-random book move, if the book knows the position (`plies` into the game).
    pub fn book_move(&mut self, pos: &Position, plies: usize) -> Option<Move> {
        self.policy.book_move(pos, plies, BookRule::WHILE_KNOWN)
    }
}
