//! Actions that would throw away work ask first: a new game, another position or game in place
//! of an edited one, the endgame trainer over a game in progress, and resigning.

use super::action::EditKey;
use super::app::{App, Overlay};
use super::dialog::Pending;
use super::{endgame, play, start};

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
                app.open_overlay(Overlay::Confirm(action.clone()));
                None
            }
        };
        if let Some(result) = chosen {
            if let Some(result) = result.and_then(|r| r.parse().ok()) {
                app.game_mut().set_result(result);
            }
            super::saving::write_checked(app, path.clone(), *append);
        }
        return;
    }
    if let Pending::Changed(origin) = &action {
        match key {
            EditKey::Char('a' | 'A') => {
                // Its old place is unknown now: it becomes a game of its own at the end.
                app.game_mut().set_origin(None);
                super::saving::queue_write(app, origin.path.clone(), true, None);
            }
            EditKey::Char('w' | 'W') => {
                app.game_mut().set_origin(None);
                super::prompt::open_prompt(app, super::app::PromptKind::WriteAs);
            }
            EditKey::Char('n' | 'N') | EditKey::Esc => app.info("nothing written"),
            _ => app.open_overlay(Overlay::Confirm(action.clone())),
        }
        return;
    }
    if let Pending::Overwrite { path, games } = &action {
        match key {
            EditKey::Char('r' | 'R') => {
                let what = format!("{} games replaced", games);
                super::saving::queue_write(app, path.clone(), false, None);
                return app.info(format!("writing {} ({what})", path.display()));
            }
            EditKey::Char('a' | 'A') => super::saving::queue_write(app, path.clone(), true, None),
            EditKey::Char('n' | 'N') | EditKey::Esc => app.info("nothing written"),
            _ => app.open_overlay(Overlay::Confirm(action)),
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
        _ => app.open_overlay(Overlay::Confirm(action)),
    }
}

/// Saves the game where it belongs: back into the file it came from, else appended to the games
/// file, with no question (the game is written as it is). The game is taken now, so what comes
/// next cannot change what is written. `resumable`: a game in progress stays offered for
/// resuming (quitting), or is left for good (another game replaces it).
pub fn save_before_leaving(app: &mut App, resumable: bool) {
    let (path, append, origin) = match (
        app.game().origin().cloned(),
        app.games_file().map(std::path::PathBuf::from),
    ) {
        (Some(origin), _) => (origin.path.clone(), false, Some(origin)),
        (None, Some(file)) => (file, true, None),
        (None, None) => return app.error("no data directory to save games in"),
    };
    super::saving::queue_write_then(app, path, append, origin, resumable);
}

pub fn carry_out(app: &mut App, action: Pending) {
    match action {
        Pending::NewGame => start::open_new_game(app),
        Pending::Position(pos, message) => {
            start::enter_analyse_from(app, *pos);
            app.info(message);
        }
        Pending::Game(record, severity, message) => {
            start::enter_analyse_with(app, *record);
            app.show(severity, message);
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
            let was_playing = app.human().is_some() && app.game().end().is_none();
            start::enter_analyse(app);
            if was_playing && !app.game().is_empty() {
                app.info("the game stopped: analysing it now (not saved: ctrl-s saves it)");
            }
        }
        Pending::Overwrite { path, .. } => super::saving::queue_write(app, path, false, None),
        Pending::Changed(_) => {}
        Pending::ResultConflict { path, append, .. } => {
            super::saving::write_checked(app, path, append)
        }
    }
}
