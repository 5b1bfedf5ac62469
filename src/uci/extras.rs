//! The opening book and the Syzygy tables as the UCI session uses them: loaded when their options
//! are set, then played with by the shared play policy (`engines::policy`): a book move at once
//! at `go`, else a search that keeps the root moves holding the tables' result.

use std::ffi::OsStr;

use crate::book::Book;
use crate::chess::{Move, Position};
use crate::engine::TablebaseConfig;
use crate::engines::policy::{BookRule, PlayPolicy};
use crate::tablebase::Tablebases;

#[derive(Default)]
pub struct Extras {
    policy: PlayPolicy,
}

impl Extras {
    /// OwnBook on: `file`, or the built-in book when it is empty. Returns what to report.
    pub fn set_book(&mut self, own_book: bool, file: &str) -> String {
        self.policy.set_book(None);
        if !own_book {
            return "own book off".into();
        }
        if file.is_empty() {
            let book = Book::embedded();
            let msg = format!("own book: built-in book, {} entries", book.len());
            self.policy.set_book(Some(book));
            return msg;
        }
        match Book::open(file.as_ref()) {
            Ok(book) => {
                let msg = format!("own book: {file}, {} entries", book.len());
                self.policy.set_book(Some(book));
                msg
            }
            Err(e) => format!("own book not used: {e}"),
        }
    }

    /// The tables registered by the last `set_tablebases`, as the search takes them.
    pub fn search_tables(&self, probe_depth: i32, rule50: bool) -> Option<TablebaseConfig> {
        self.policy.search_tables(probe_depth, rule50)
    }

    /// Registers the tables of a ':'-separated path (empty: none). Returns lines to report.
    pub fn set_tablebases(&mut self, path: &str) -> Vec<String> {
        self.policy.set_tables(None);
        if path.is_empty() {
            return vec!["tablebases off".into()];
        }
        match Tablebases::open(OsStr::new(path)) {
            Ok((tables, warnings)) => {
                let mut lines: Vec<String> =
                    warnings.iter().map(|w| format!("{w}; skipped")).collect();
                lines.push(format!(
                    "tablebases: {} files, up to {} pieces",
                    tables.files(),
                    tables.max_pieces()
                ));
                self.policy.set_tables(Some(tables));
                lines
            }
            Err(e) => vec![format!("tablebases not used: {e}")],
        }
    }

    /// A weighted-random book move, if the book knows the position (`plies` into the game).
    pub fn book_move(&mut self, pos: &Position, plies: usize) -> Option<Move> {
        self.policy.book_move(pos, plies, BookRule::WHILE_KNOWN)
    }
}
