//! Actions that would throw away work ask first: a new game, another position or game in place
//! of an edited one, the endgame trainer over a game in progress, and resigning.

use crate::chess::{Color, Position};

use super::app::{App, Overlay, Severity};
use super::clock::TimeControl;
use super::game::Record;
use super::input::EditKey;
use super::{endgame, play, start};

/// An action waiting for the user's yes.
#[derive(Clone, Debug)]
pub enum Pending {
    /// The new-game dialog.
    NewGame,
    /// Analyse this position (a FEN or a set-up board), with the message to show.
    Position(Box<Position>, &'static str),
    /// Analyse a game read from a file, with the message to show.
    Game(Box<Record>, Severity, String),
    /// The endgame trainer on a material or FEN.
    Endgame(String),
    /// A game against the engine (`:play`), from this start (numbered when Chess960).
    Play {
        start: Box<Position>,
        color: Color,
        tc: TimeControl,
        level: u8,
        chess960: Option<u32>,
    },
    Resign,
    /// The game list of the open file (or the prompt for one).
    Browse,
    /// Analyse mode on the game shown (a game in play stops).
    Analyse,
    /// The Result tag and the moves' result disagree: which to write.
    ResultConflict {
        path: std::path::PathBuf,
        append: bool,
        tag: String,
        moves: String,
    },
    /// The file a game came from changed since it was read: nothing was written.
    Changed(Box<crate::game::GameOrigin>),
    /// `w` to a file of other games: replace it, or append this game to it.
    Overwrite {
        path: std::path::PathBuf,
        games: u64,
    },
}

impl Pending {
    /// The question, and what `y` and `n` mean.
    pub fn question(&self, app: &App) -> (&'static str, &'static str) {
        match self {
            Pending::Resign => ("Resign this game?", "y: resign   n/esc: play on"),
            Pending::Analyse => (
                "Stop this game and analyse it? The clocks stop and the engine stops playing.",
                "y: analyse it (unsaved: ctrl-s saves it)   n/esc: keep playing",
            ),
            Pending::ResultConflict { .. } => (
                "The Result tag and the result after the moves disagree (shown in the status line).",
                "t: the tag's in both   m: the moves' in both   k: keep both   n/esc: cancel",
            ),
            Pending::Changed(_) => (
                "The file changed since this game was read from it: nothing was written.",
                "a: append the game to it   w: write it to another file   n/esc: cancel",
            ),
            Pending::Overwrite { games: 1, .. } => (
                "That file holds another game; writing replaces it.",
                "r: replace the file   a: append this game   n/esc: cancel",
            ),
            Pending::Overwrite { .. } => (
                "That file holds other games; writing replaces them all.",
                "r: replace the file   a: append this game   n/esc: cancel",
            ),
            _ if app.human().is_some() => (
                "The game in progress will be abandoned.",
                "s: save it unfinished first   y: abandon it   n/esc: keep playing",
            ),
            Pending::Browse => (
                "This game has changes that are not saved (opening another game drops them).",
                "s: save it first   y: to the list   n/esc: stay",
            ),
            _ if app.game.origin().is_some() => (
                "This game has changes that are not saved; they will be lost.",
                "s: write it back into its file   y: discard them   n/esc: keep the game",
            ),
            _ => (
                "This game has changes that are not saved; they will be lost.",
                "s: save it (appended to the games file)   y: discard them   n/esc: keep the game",
            ),
        }
    }
}

/// Carries `action` out now, or asks first when it would throw away work.
pub fn ask_or_do(app: &mut App, action: Pending) {
    let asks = match action {
        Pending::Changed(_) => true,
        Pending::Resign => app.human().is_some() && app.game.end().is_none(),
        Pending::Analyse => {
            app.human().is_some() && app.game.end().is_none() && !app.game.is_empty()
        }
        // The list keeps the game until another is opened; a game in play would stop.
        Pending::Browse => app.has_unsaved_work() && !matches!(app.mode, super::app::Mode::Browse),
        _ => app.has_unsaved_work(),
    };
    if asks {
        app.overlay = Some(Overlay::Confirm(action));
    } else {
        carry_out(app, action);
    }
}

/// A key while the question is shown.
pub fn key(app: &mut App, action: Pending, key: EditKey) {
    if let Pending::ResultConflict {
        path,
        append,
        tag,
        moves,
    } = &action
    {
        let chosen = match key {
            EditKey::Char('t' | 'T') => Some(Some(tag)),
            EditKey::Char('m' | 'M') => Some(Some(moves)),
            EditKey::Char('k' | 'K') => Some(None),
            EditKey::Char('n' | 'N') | EditKey::Esc => {
                app.info("nothing written");
                None
            }
            _ => {
                app.overlay = Some(Overlay::Confirm(action.clone()));
                None
            }
        };
        if let Some(result) = chosen {
            if let Some(result) = result.and_then(|r| r.parse().ok()) {
                app.game.set_result(result);
            }
            super::update::write_checked(app, path.clone(), *append);
        }
        return;
    }
    if let Pending::Changed(origin) = &action {
        match key {
            EditKey::Char('a' | 'A') => {
                // Its old place is unknown now: it becomes a game of its own at the end.
                app.game.set_origin(None);
                super::update::queue_write(app, origin.path.clone(), true, None);
            }
            EditKey::Char('w' | 'W') => {
                app.game.set_origin(None);
                super::update::open_prompt(app, super::app::PromptKind::WriteAs);
            }
            EditKey::Char('n' | 'N') | EditKey::Esc => app.info("nothing written"),
            _ => app.overlay = Some(Overlay::Confirm(action.clone())),
        }
        return;
    }
    if let Pending::Overwrite { path, games } = &action {
        match key {
            EditKey::Char('r' | 'R') => {
                let what = format!("{} games replaced", games);
                super::update::queue_write(app, path.clone(), false, None);
                return app.info(format!("writing {} ({what})", path.display()));
            }
            EditKey::Char('a' | 'A') => super::update::queue_write(app, path.clone(), true, None),
            EditKey::Char('n' | 'N') | EditKey::Esc => app.info("nothing written"),
            _ => app.overlay = Some(Overlay::Confirm(action)),
        }
        return;
    }
    match key {
        EditKey::Char('y' | 'Y') => carry_out(app, action),
        EditKey::Char('s' | 'S') if !matches!(action, Pending::Resign) => {
            save_before_leaving(app, false);
            carry_out(app, action);
        }
        EditKey::Char('n' | 'N') | EditKey::Esc => app.info("cancelled"),
        _ => app.overlay = Some(Overlay::Confirm(action)),
    }
}

/// Saves the game where it belongs: back into the file it came from, else appended to the games
/// file, with no question (the game is written as it is). The game is taken now, so what comes
/// next cannot change what is written. `resumable`: a game in progress stays offered for
/// resuming (quitting), or is left for good (another game replaces it).
pub fn save_before_leaving(app: &mut App, resumable: bool) {
    let (path, append, origin) = match (app.game.origin().cloned(), app.games_file.clone()) {
        (Some(origin), _) => (origin.path.clone(), false, Some(origin)),
        (None, Some(file)) => (file, true, None),
        (None, None) => return app.error("no data directory to save games in"),
    };
    super::update::queue_write_then(app, path, append, origin, resumable);
}

fn carry_out(app: &mut App, action: Pending) {
    match action {
        Pending::NewGame => start::open_new_game(app),
        Pending::Position(pos, message) => {
            start::enter_analyse_from(app, *pos);
            app.info(message);
        }
        Pending::Game(record, severity, message) => {
            start::enter_analyse_with(app, *record);
            app.message = Some((severity, message));
        }
        Pending::Endgame(target) => endgame::start(app, &target),
        Pending::Play {
            start,
            color,
            tc,
            level,
            chess960,
        } => {
            start::start_play(app, *start, color, tc, level);
            if let Some(n) = chess960 {
                app.info(format!(
                    "new Chess960 game, position {n}: you play {} ({tc}, level {level})",
                    color.fold("White", "Black")
                ));
            }
        }
        Pending::Resign => play::resign(app),
        Pending::Browse => super::browse::enter(app),
        Pending::Analyse => {
            let was_playing = app.human().is_some() && app.game.end().is_none();
            start::enter_analyse(app);
            if was_playing && !app.game.is_empty() {
                app.info("the game stopped: analysing it now (not saved: ctrl-s saves it)");
            }
        }
        Pending::Overwrite { path, .. } => super::update::queue_write(app, path, false, None),
        Pending::Changed(_) => {}
        Pending::ResultConflict { path, append, .. } => {
            super::update::write_checked(app, path, append)
        }
    }
}
