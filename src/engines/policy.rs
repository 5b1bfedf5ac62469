//! How an engine of ours chooses its move, written once for every front end (the interface, the
//! UCI engine, annotate): from the opening book while the book knows the position and the game
//! is young enough, otherwise by search; the search, given the tables, keeps only the root moves
//! that hold the tablebases' result.

use std::ffi::OsStr;
use std::sync::Arc;

use crate::book::{Book, Variety};
use crate::chess::Rng;
use crate::chess::{Move, Position};
use crate::engine::TablebaseConfig;
use crate::engines::service::MAX_LEVEL;
use crate::tablebase::Tablebases;

/// When the book is used and how its moves are chosen.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct BookRule {
    pub variety: Variety,
    /// Book moves only while fewer plies than this were played (0: never).
    pub max_plies: usize,
}

impl BookRule {
    /// In proportion to the weights, as long as the book knows the position (the UCI engine).
    pub const WHILE_KNOWN: BookRule = BookRule {
        variety: Variety::PROPORTIONAL,
        max_plies: usize::MAX,
    };

    /// The rule for a playing level (1..=20): the weaker the level, the sooner it leaves the
    /// book, from `WEAKEST_BOOK_PLIES` at level 1 up to this rule's own depth at full strength,
    /// so that a beginner's opponent does not answer with sixteen plies of theory.
    pub fn at_level(self, level: u8) -> BookRule {
        if level >= MAX_LEVEL {
            return self;
        }
        let steps = usize::from(MAX_LEVEL - 1);
        let span = self.max_plies.saturating_sub(WEAKEST_BOOK_PLIES);
        let plies = WEAKEST_BOOK_PLIES + span.saturating_mul(usize::from(level.max(1) - 1)) / steps;
        BookRule {
            max_plies: self.max_plies.min(plies),
            ..self
        }
    }
}

/// How long the weakest level plays from the book: two moves each.
const WEAKEST_BOOK_PLIES: usize = 4;

/// Search settings for the tables when a front end has none of its own: probe from the first
/// ply, count the fifty-move rule (as the UCI defaults do).
pub const PROBE_DEPTH: i32 = 1;
pub const RULE50: bool = true;
/// The deepest probe depth the front ends accept.
pub const MAX_PROBE_DEPTH: i32 = 100;

/// An engine's book and tables, and the choice between a book move and a search.
pub struct PlayPolicy {
    book: Option<Book>,
    rng: Rng,
    tables: Option<Tablebases>,
}

impl Default for PlayPolicy {
    fn default() -> PlayPolicy {
        PlayPolicy {
            book: None,
            rng: Rng::from_time(),
            tables: None,
        }
    }
}

impl PlayPolicy {
    pub fn new(book: Option<Book>, tables: Option<Tablebases>) -> PlayPolicy {
        PlayPolicy {
            book,
            tables,
            ..PlayPolicy::default()
        }
    }

    /// The same choices each run (tests, reproducible matches).
    pub fn seeded(mut self, seed: u64) -> PlayPolicy {
        self.rng = Rng::new(seed);
        self
    }

    /// The book a front end's options ask for: none when `own_book` is off, else `file`, or the
    /// built-in book when it is empty. Returns what to report; a file that cannot be read is an
    /// error, and no book is used.
    pub fn load_book(&mut self, own_book: bool, file: &str) -> Result<String, String> {
        self.book = None;
        if !own_book {
            return Ok("own book off".into());
        }
        let book = if file.is_empty() {
            Book::embedded()
        } else {
            Book::open(file.as_ref()).map_err(|e| format!("own book not used: {e}"))?
        };
        let name = if file.is_empty() {
            "built-in book"
        } else {
            file
        };
        let report = format!("own book: {name}, {} entries", book.len());
        self.book = Some(book);
        Ok(report)
    }

    /// The tables of a ':'-separated `path` (empty: none). Returns lines to report: the files
    /// skipped, then what is used; a path with no usable tables is an error, and none are used.
    pub fn load_tables(&mut self, path: &str) -> Result<Vec<String>, String> {
        self.tables = None;
        if path.is_empty() {
            return Ok(vec!["tablebases off".into()]);
        }
        let (tables, warnings) =
            Tablebases::open(OsStr::new(path)).map_err(|e| format!("tablebases not used: {e}"))?;
        let mut lines: Vec<String> = warnings.iter().map(|w| format!("{w}; skipped")).collect();
        lines.push(format!(
            "tablebases: {} files, up to {} pieces",
            tables.files(),
            tables.max_pieces()
        ));
        self.tables = Some(tables);
        Ok(lines)
    }

    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = book;
    }

    pub fn tables(&self) -> Option<&Tablebases> {
        self.tables.as_ref()
    }

    pub fn set_tables(&mut self, tables: Option<Tablebases>) {
        self.tables = tables;
    }

    /// The move to play at once in `pos`, reached after `plies` plies of the game: a book move
    /// under `rule`, or `None` to search.
    pub fn book_move(&mut self, pos: &Position, plies: usize, rule: BookRule) -> Option<Move> {
        if plies >= rule.max_plies {
            return None;
        }
        self.book.as_ref()?.pick(pos, &mut self.rng, rule.variety)
    }

    /// Whether the book plays `m` in `pos` (a move of weight 0 is known but never played).
    pub fn is_book_move(&self, pos: &Position, m: Move) -> bool {
        self.book
            .as_ref()
            .is_some_and(|b| b.probe(pos).iter().any(|bm| bm.mv == m && bm.weight > 0))
    }

    /// The tables as the search takes them: it keeps the root moves that hold their result and
    /// probes them from `probe_depth` plies of remaining depth.
    pub fn search_tables(&self, probe_depth: i32, rule50: bool) -> Option<TablebaseConfig> {
        self.tables.as_ref().map(|tables| TablebaseConfig {
            tables: Arc::new(tables.clone()),
            probe_depth,
            rule50,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{BuildOptions, Builder};

    /// 1. e4 from a win and 1... c5 from a loss: White's move has weight 2, Black's weight 0.
    fn policy() -> PlayPolicy {
        let mut builder = Builder::new(BuildOptions::default());
        builder
            .add_pgn("[Result \"1-0\"]\n\n1. e4 c5 1-0\n".as_bytes(), |e| {
                panic!("{e}")
            })
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        builder.write(&path).unwrap();
        PlayPolicy::new(Some(Book::open(&path).unwrap()), None).seeded(7)
    }

    #[test]
    fn the_book_is_used_within_its_plies_and_never_for_weight_zero() {
        let mut policy = policy();
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        let rule = BookRule {
            variety: Variety::PROPORTIONAL,
            max_plies: 1,
        };
        assert_eq!(policy.book_move(&start, 0, rule), Some(e4));
        assert_eq!(policy.book_move(&start, 1, rule), None, "past its plies");
        assert!(policy.is_book_move(&start, e4));

        let after = start.play(e4).unwrap();
        let c5 = after.parse_uci("c7c5").unwrap();
        assert_eq!(policy.book_move(&after, 1, BookRule::WHILE_KNOWN), None);
        assert!(!policy.is_book_move(&after, c5), "known, but never played");
        assert_eq!(PlayPolicy::default().book_move(&start, 0, rule), None);
    }

    #[test]
    fn weaker_levels_leave_the_book_sooner() {
        let rule = BookRule {
            variety: Variety::PROPORTIONAL,
            max_plies: 16,
        };
        let plies = |level| rule.at_level(level).max_plies;
        assert_eq!((plies(1), plies(10), plies(20)), (4, 9, 16));
        assert!((1..20).all(|l| plies(l) <= plies(l + 1)));
        // A book set shallower than the weakest level's stays as shallow; no overflow.
        let shallow = BookRule {
            max_plies: 2,
            ..rule
        };
        assert_eq!(shallow.at_level(1).max_plies, 2);
        assert_eq!(BookRule::WHILE_KNOWN.at_level(20), BookRule::WHILE_KNOWN);
        assert!(BookRule::WHILE_KNOWN.at_level(19).max_plies > 1_000_000);
    }
}
