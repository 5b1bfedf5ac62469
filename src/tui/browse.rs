//! Browse mode: the games of an open PGN file, filtered as you type. The file is indexed and
//! its games checked on background threads; opening a game reads only that game.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::game::openings::Opening;
use crate::game::{GameIndex, GameOrigin, IndexEntry, ParsedGame};

use super::app::{App, Effect, Mode, Severity};
use super::confirm::{self, Pending};
use super::game::Record;
use super::input::EditKey;
use super::{start, update};

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
    fn refilter(&mut self, narrowing: bool) {
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

/// Opens `path`: index it in the background, then show its games.
pub fn open(app: &mut App, path: PathBuf) {
    app.info(format!("reading {}...", path.display()));
    app.effects.push(Effect::IndexPgn(path));
}

/// Shows the game list of the open file, or asks for one.
pub fn enter(app: &mut App) {
    if app.library.is_some() {
        stop_play(app);
        app.mode = Mode::Browse;
        app.selected = None;
        app.input.clear();
    } else {
        update::open_prompt(app, super::app::PromptKind::OpenPgn);
    }
}

fn stop_play(app: &mut App) {
    if let Mode::Play(p) = &mut app.mode {
        p.clocks.stop(app.now);
    }
}

/// Rows the list moves for page up and down.
fn page(app: &App) -> usize {
    usize::from(app.size.1.saturating_sub(6)).max(1)
}

pub fn key(app: &mut App, key: EditKey) {
    let page = page(app);
    let Some(lib) = app.library.as_mut() else {
        return;
    };
    let last = lib.matches.len().saturating_sub(1);
    match key {
        EditKey::Char(c) => {
            lib.filter.push(c);
            lib.refilter(true);
        }
        EditKey::Backspace => {
            if lib.filter.pop().is_some() {
                lib.refilter(false);
            }
        }
        EditKey::Ctrl('u') if !lib.filter.is_empty() => {
            lib.filter.clear();
            lib.refilter(false);
        }
        EditKey::Up => lib.selected = lib.selected.saturating_sub(1),
        EditKey::Down => lib.selected = (lib.selected + 1).min(last),
        EditKey::PageUp => lib.selected = lib.selected.saturating_sub(page),
        EditKey::PageDown => lib.selected = (lib.selected + page).min(last),
        EditKey::Home => lib.selected = 0,
        EditKey::End => lib.selected = last,
        EditKey::Enter => open_selected(app),
        EditKey::Esc if !lib.filter.is_empty() => {
            lib.filter.clear();
            lib.refilter(false);
        }
        EditKey::Esc => start::enter_analyse(app),
        EditKey::Tab | EditKey::Left | EditKey::Right | EditKey::Delete | EditKey::Ctrl(_) => {}
    }
}

/// Reads the highlighted game of the list (it opens when it arrives).
fn open_selected(app: &mut App) {
    let Some(lib) = app.library.as_ref() else {
        return;
    };
    if let Some(entry) = lib.selected_entry().cloned() {
        let path = lib.path.clone();
        app.info(format!("opening game {}...", entry.number));
        app.effects.push(Effect::LoadGame {
            path,
            entry: Box::new(entry),
        });
    }
}

pub fn event(app: &mut App, event: LibraryEvent) {
    match event {
        LibraryEvent::Indexed(path, Err(e)) => {
            app.error(format!("could not read {}: {e}", path.display()))
        }
        LibraryEvent::Indexed(path, Ok(index)) => {
            let count = index.len();
            app.library = Some(Library::new(path.clone(), index));
            app.effects.push(Effect::CheckPgn(path.clone()));
            match count {
                0 => app.error(format!("{}: no games found", path.display())),
                // One game: straight to it.
                1 => open_selected(app),
                n => {
                    enter(app);
                    app.info(format!("{n} games; type to filter, enter opens"));
                }
            }
        }
        LibraryEvent::Checked {
            path,
            upto,
            errors,
            warnings,
            openings,
            done,
        } => {
            if let Some(lib) = app.library.as_mut().filter(|l| l.path == path) {
                lib.errors.extend(errors);
                lib.warnings.extend(warnings);
                lib.openings.extend(openings);
                lib.checked = upto;
                lib.check_done = done;
            }
        }
        LibraryEvent::Loaded(path, number, Err(e)) => app.error(format!(
            "could not read game {number} of {}: {e}",
            path.display()
        )),
        LibraryEvent::NotWritten { message, changed } => {
            // Nothing landed: the work is unsaved again.
            app.saved = false;
            match changed {
                Some(origin) => confirm::ask_or_do(app, Pending::Changed(origin)),
                None => app.error(message),
            }
        }
        LibraryEvent::Written(origin, false) => {
            // The game on screen now lives there: the next save writes it back in place.
            if app.game.origin().is_none() && matches!(app.mode, Mode::Play(_) | Mode::Analyse(_)) {
                app.game.set_origin(Some(*origin.clone()));
            }
            app.info(format!(
                "saved to {} (game {})",
                origin.path.display(),
                origin.number
            ));
        }
        LibraryEvent::Written(origin, true) => {
            if let Some(lib) = app.library.as_mut().filter(|l| l.path == origin.path) {
                match lib.index.with_game_replaced(origin.number, &origin.bytes) {
                    Some(index) => lib.index = Arc::new(index),
                    // The list cannot follow: read the file again.
                    _ => app.effects.push(Effect::IndexPgn(origin.path.clone())),
                }
            }
            let games = app.library.as_ref().map_or(0, |l| l.index.len());
            let shown = app
                .game
                .origin()
                .is_some_and(|o| o.path == origin.path && o.number == origin.number);
            if shown {
                app.game.set_origin(Some(*origin.clone()));
            }
            app.info(format!(
                "game {} written back into {} ({games} games; the others unchanged)",
                origin.number,
                origin.path.display()
            ));
        }
        LibraryEvent::Loaded(path, number, Ok(loaded)) => {
            let (parsed, origin) = *loaded;
            let first_error = parsed.errors.first().map(ToString::to_string);
            let first_warning = parsed.warnings.first().map(ToString::to_string);
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let mut record = Record::from_game(parsed.game);
            record.set_origin(Some(origin));
            let (severity, message) = match (first_error, first_warning) {
                (Some(e), _) => (
                    Severity::Error,
                    format!("{name}: {e} (moves up to it loaded)"),
                ),
                // A warning (the Result tag against the moves, ...) shows like an error: the
                // user should know before relying on the game; all of it is loaded.
                (None, Some(w)) => (Severity::Error, format!("{name}: {w}")),
                (None, None) => (
                    Severity::Info,
                    format!(
                        "{name}, game {number}: {} vs {}",
                        record.headers().get("White").unwrap_or("?"),
                        record.headers().get("Black").unwrap_or("?")
                    ),
                ),
            };
            confirm::ask_or_do(app, Pending::Game(Box::new(record), severity, message));
        }
    }
}
