//! An open PGN file as browse mode shows it: its index, the filter typed over it and the
//! results of checking its games in the background.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::game::openings::Opening;
use crate::game::{GameIndex, GameOrigin, IndexEntry, ParsedGame};

/// An open PGN file.
#[derive(Clone, Debug)]
pub struct Library {
    pub path: PathBuf,
    pub index: Arc<GameIndex>,
    pub filter: String,
    /// Indices into the index's entries of the games the filter lets through, in file order.
    pub matches: Vec<usize>,
    /// Position of the highlighted game in `matches`.
    pub selected: usize,
    /// The first error of each bad game, by game number.
    pub errors: HashMap<u64, String>,
    /// The first warning of each game read whole but odd, by game number.
    pub warnings: HashMap<u64, String>,
    /// Games checked so far by the background pass, and whether it finished.
    pub checked: u64,
    pub check_done: bool,
    /// The opening of each checked game, by game number (from its moves, not its tags).
    pub openings: HashMap<u64, Opening>,
}

/// Results of the background work on a file.
#[derive(Clone, Debug)]
pub enum LibraryEvent {
    Indexed(PathBuf, Result<Arc<GameIndex>, String>),
    /// Errors and openings of games checked since the last report; `upto` games checked in
    /// all.
    Checked {
        path: PathBuf,
        upto: u64,
        errors: Vec<(u64, String)>,
        /// The first warning of each odd game (a Result tag against the moves' result...).
        warnings: Vec<(u64, String)>,
        openings: Vec<(u64, Opening)>,
        done: bool,
    },
    Loaded(PathBuf, u64, Result<Box<(ParsedGame, GameOrigin)>, String>),
    /// A game was written into a file: back over itself (true) or appended; `origin.bytes`
    /// are its bytes there now.
    Written(Box<GameOrigin>, bool),
    /// A save failed; `changed` when the game's file changed since it was read.
    NotWritten {
        message: String,
        changed: Option<Box<GameOrigin>>,
    },
}

impl Library {
    pub fn new(path: PathBuf, index: Arc<GameIndex>) -> Library {
        let matches = (0..index.len()).collect();
        Library {
            path,
            index,
            filter: String::new(),
            matches,
            selected: 0,
            errors: HashMap::new(),
            warnings: HashMap::new(),
            checked: 0,
            check_done: false,
            openings: HashMap::new(),
        }
    }

    pub fn selected_entry(&self) -> Option<&IndexEntry> {
        self.entry(*self.matches.get(self.selected)?)
    }

    pub fn entry(&self, i: usize) -> Option<&IndexEntry> {
        self.index.entries().get(i)
    }

    /// Re-applies the filter; a longer filter only narrows the current matches.
    pub fn refilter(&mut self, narrowing: bool) {
        let words: Vec<String> = self
            .filter
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        let keep_number = self.selected_entry().map(|e| e.number);
        let entries = self.index.entries();
        let keep = |&i: &usize| entries.get(i).is_some_and(|e| matches(e, &words));
        self.matches = if narrowing {
            self.matches.iter().copied().filter(keep).collect()
        } else {
            (0..entries.len()).filter(keep).collect()
        };
        // Stay on the same game when it still matches.
        self.selected = keep_number
            .and_then(|n| self.matches.iter().position(|&i| entries[i].number == n))
            .unwrap_or(0);
    }
}

/// Whether every word of the filter appears in one of the game's roster tags or its ECO code
/// (case-insensitive).
fn matches(entry: &IndexEntry, words: &[String]) -> bool {
    words.iter().all(|word| {
        entry
            .roster()
            .chain(entry.eco())
            .any(|value| contains_folded(value, word))
    })
}

/// `needle` (lower case) in `hay`, ignoring case; ASCII needles avoid allocating.
fn contains_folded(hay: &str, needle: &str) -> bool {
    if needle.is_ascii() {
        let (h, n) = (hay.as_bytes(), needle.as_bytes());
        let Some((&first, rest)) = n.split_first() else {
            return true;
        };
        h.windows(n.len()).any(|w| {
            w[0].to_ascii_lowercase() == first
                && w[1..]
                    .iter()
                    .zip(rest)
                    .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
    } else {
        hay.to_lowercase().contains(needle)
    }
}
