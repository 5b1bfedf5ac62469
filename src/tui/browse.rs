//! Browse mode: the games of an open PGN file, filtered as you type. The file is indexed and
//! its games checked on background threads; opening a game reads only that game.

use std::path::PathBuf;
use std::sync::Arc;

use super::action::EditKey;
use super::app::{App, Effect, Mode, Severity};
use super::component::Component;
use super::dialog::Pending;
use super::game::Record;
use super::keymap::Command;
use super::library::{Library, LibraryEvent};
use super::mode::BrowseState;
use super::start;

/// Opens `path`: index it in the background, then show its games.
pub fn open(app: &mut App, path: PathBuf) {
    app.info(format!("reading {}...", path.display()));
    app.effect(Effect::IndexPgn(path));
}

/// Shows the game list of the open file, or asks for one.
pub fn enter(app: &mut App) {
    if app.library().is_some() {
        app.stop_clocks();
        app.set_mode(Mode::Browse);
        app.board_mut().select(None);
        app.board_mut().clear_typed();
    } else {
        super::prompt::open_prompt(app, super::app::PromptKind::OpenPgn);
    }
}

/// Rows the list moves for page up and down.
fn page(app: &App) -> usize {
    usize::from(app.size().1.saturating_sub(6)).max(1)
}

/// What a key of browse mode asks of the rest of the interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowseRequest {
    /// Read the highlighted game.
    Open,
    /// Back to the board.
    Leave,
}

impl Library {
    /// A key of the game list, `page` rows tall: moves in it and edits the filter here, or
    /// says what the rest of the interface should do.
    pub fn key(&mut self, key: EditKey, page: usize) -> Option<BrowseRequest> {
        let last = self.matches.len().saturating_sub(1);
        if let Some(row) = key.moved(self.selected, last, page) {
            self.selected = row;
            return None;
        }
        match key {
            EditKey::Char(c) => {
                self.filter.push(c);
                self.refilter(true);
            }
            EditKey::Backspace if self.filter.pop().is_some() => self.refilter(false),
            EditKey::Ctrl('u') | EditKey::Esc if !self.filter.is_empty() => {
                self.filter.clear();
                self.refilter(false);
            }
            EditKey::Enter => return Some(BrowseRequest::Open),
            EditKey::Esc => return Some(BrowseRequest::Leave),
            _ => {}
        }
        None
    }
}

pub fn key(app: &mut App, key: EditKey) {
    let page = page(app);
    let Some(lib) = app.library_mut() else {
        return;
    };
    match lib.key(key, page) {
        None => {}
        Some(BrowseRequest::Open) => open_selected(app),
        Some(BrowseRequest::Leave) => start::enter_analyse(app),
    }
}

/// Reads the highlighted game of the list (it opens when it arrives).
fn open_selected(app: &mut App) {
    let Some(lib) = app.library() else {
        return;
    };
    if let Some(entry) = lib.selected_entry().cloned() {
        let path = lib.path.clone();
        app.info(format!("opening game {}...", entry.number));
        app.effect(Effect::LoadGame {
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
            app.set_library(Library::new(path.clone(), index));
            app.effect(Effect::CheckPgn(path.clone()));
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
            if let Some(lib) = app.library_mut().filter(|l| l.path == path) {
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
            app.game_mut().mark_changed();
            match changed {
                Some(origin) => app.ask_or_do(Pending::Changed(origin)),
                None => app.error(message),
            }
        }
        LibraryEvent::Written(origin, false) => {
            // The game on screen now lives there: the next save writes it back in place.
            if app.game().origin().is_none()
                && matches!(app.mode(), Mode::Play(_) | Mode::Analyse(_))
            {
                app.game_mut().set_origin(Some(*origin.clone()));
            }
            app.info(format!(
                "saved to {} (game {})",
                origin.path.display(),
                origin.number
            ));
        }
        LibraryEvent::Written(origin, true) => {
            if let Some(lib) = app.library_mut().filter(|l| l.path == origin.path) {
                match lib.index.with_game_replaced(origin.number, &origin.bytes) {
                    Some(index) => lib.index = Arc::new(index),
                    // The list cannot follow: read the file again.
                    _ => app.effect(Effect::IndexPgn(origin.path.clone())),
                }
            }
            let games = app.library().map_or(0, |l| l.index.len());
            let shown = app
                .game()
                .origin()
                .is_some_and(|o| o.path == origin.path && o.number == origin.number);
            if shown {
                app.game_mut().set_origin(Some(*origin.clone()));
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
            app.ask_or_do(Pending::Game(Box::new(record), severity, message));
        }
    }
}

impl Component for BrowseState {
    fn name(&self) -> &'static str {
        "BROWSE"
    }

    /// Its own keys do the work (listed below the commands).
    fn takes(&self, _command: Command) -> bool {
        false
    }

    fn own_keys(&self) -> &'static [&'static str] {
        &[
            "      typing  filter by player, event, opening, year...",
            "     up/down  move in the list;  pgup/pgdn/home/end too",
            "       enter  open the game;  ctrl-u  clear the filter",
            "         esc  clear the filter, then back to the board",
            "      ctrl-o  open another file",
        ]
    }

    fn can_move(&self, _app: &App) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameIndex;

    #[test]
    fn keys_move_in_the_list_filter_it_and_ask_for_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("three.pgn");
        let game = |white: &str| format!("[White \"{white}\"]\n[Black \"Ng\"]\n\n1. e4 e5 *\n\n");
        std::fs::write(&path, game("Anna") + &game("Bea") + &game("Anya")).unwrap();
        let index = Arc::new(GameIndex::build(&path).unwrap());
        let mut lib = Library::new(path, index);
        assert_eq!(lib.key(EditKey::Down, 10), None);
        assert_eq!(lib.selected, 1);
        assert_eq!(lib.key(EditKey::Char('a'), 10), None);
        assert_eq!(lib.key(EditKey::Char('n'), 10), None);
        assert_eq!(lib.matches.len(), 2, "Anna and Anya");
        assert_eq!(
            lib.key(EditKey::Esc, 10),
            None,
            "esc clears the filter first"
        );
        assert_eq!(lib.matches.len(), 3);
        assert_eq!(lib.key(EditKey::Enter, 10), Some(BrowseRequest::Open));
        assert_eq!(lib.key(EditKey::Esc, 10), Some(BrowseRequest::Leave));
    }
}
