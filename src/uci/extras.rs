//! The opening book and the Syzygy tables as the UCI session uses them: loaded when their options
//! are set, consulted at `go` before the engine searches (a book move is played at once; in a
//! tablebase position only the best DTZ group of root moves is searched).

use std::ffi::OsStr;

use crate::book::{Book, BookRng, Variety};
use crate::chess::{Move, Position};
use crate::tablebase::Tablebases;

pub struct Extras {
    book: Option<Book>,
    tables: Option<Tablebases>,
    rng: BookRng,
}

impl Default for Extras {
    fn default() -> Extras {
        Extras {
            book: None,
            tables: None,
            rng: BookRng::from_time(),
        }
    }
}

impl Extras {
    /// OwnBook on: `file`, or the built-in book when it is empty. Returns what to report.
    pub fn set_book(&mut self, own_book: bool, file: &str) -> String {
        self.book = None;
        if !own_book {
            return "own book off".into();
        }
        if file.is_empty() {
            let book = Book::embedded();
            let msg = format!("own book: built-in book, {} entries", book.len());
            self.book = Some(book);
            return msg;
        }
        match Book::open(file.as_ref()) {
            Ok(book) => {
                let msg = format!("own book: {file}, {} entries", book.len());
                self.book = Some(book);
                msg
            }
            Err(e) => format!("own book not used: {e}"),
        }
    }

    /// Registers the tables of a ':'-separated path (empty: none). Returns lines to report.
    pub fn set_tablebases(&mut self, path: &str) -> Vec<String> {
        self.tables = None;
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
                self.tables = Some(tables);
                lines
            }
            Err(e) => vec![format!("tablebases not used: {e}")],
        }
    }

    /// A weighted-random book move, if the book knows the position.
    pub fn book_move(&mut self, pos: &Position) -> Option<Move> {
        let book = self.book.as_ref()?;
        book.pick(pos, &mut self.rng, Variety::PROPORTIONAL)
    }

    /// In a tablebase position: the root moves worth searching, and a line saying why.
    pub fn tablebase_root(&self, pos: &Position, rule50: bool) -> Option<(Vec<Move>, String)> {
        self.tables.as_ref()?.root_filter(pos, rule50)
    }
}
