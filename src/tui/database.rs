//! The game database beside the board: `:db FILE` (or `[database] path`) opens it, the explorer
//! panel asks for the shown position whenever it changes, Enter on a row plays that move, `g`
//! lists the games that reached the position and Enter opens one there, `m` shows only the
//! configured player's games as White, then as Black. Every query runs on the explorer's thread.

use std::path::PathBuf;

use crate::game::NodeId;

use super::action::{Action, EditKey};
use super::app::{App, Effect, Mode, Overlay, Severity};
use super::dialog::Pending;
use super::explorer::worker::{Reply, Request};
use super::explorer::{GamesList, Scope};
use super::game::Record;
use super::keymap::Command;

/// Opens the database at `path` in the explorer panel.
pub fn open(app: &mut App, path: PathBuf) {
    app.info(format!("opening {}...", path.display()));
    let request = app.explorer_mut().open(path);
    app.effect(Effect::Explorer(request));
}

/// `:db` alone: what is open.
pub fn describe(app: &mut App) {
    match (app.explorer().path(), app.explorer().games()) {
        (None, _) => app.info("no database open: :db FILE.kdb (made by kibitzer db import)"),
        (Some(path), None) => app.info(format!("opening {}...", path.display())),
        (Some(path), Some(n)) => {
            let text = format!("{}: {n} games (tab: the explorer)", path.display());
            app.info(text)
        }
    }
}

pub fn close(app: &mut App) {
    app.explorer_mut().close();
    app.info("database closed");
}

/// Whether the panel is on the screen: a database is open and a game is being analysed.
pub fn shown(app: &App) -> bool {
    app.explorer().is_open() && matches!(app.mode(), Mode::Analyse(_))
}

/// Rows of text the panel wants: its summary and one per move (0 when it is not shown).
pub fn panel_lines(app: &App) -> u16 {
    if !shown(app) {
        return 0;
    }
    let moves = app
        .explorer()
        .report_for(app.position())
        .map_or(0, |r| r.moves.len());
    1 + moves.min(64) as u16
}

/// Asks for the shown position's report when the panel lacks it.
pub fn settle(app: &mut App) {
    if !shown(app) {
        return;
    }
    let player = app.config().database_player.clone();
    let pos = app.position().clone();
    if let Some(request) = app.explorer_mut().request_for(&pos, player.as_deref()) {
        app.effect(Effect::Explorer(request));
    }
}

/// The explorer key: focus on the panel and back.
pub fn toggle_focus(app: &mut App) {
    if !app.explorer().is_open() {
        return app.error("no database open: :db FILE.kdb, or [database] path in config.toml");
    }
    if !matches!(app.mode(), Mode::Analyse(_)) {
        return app.error("the explorer shows in analyse mode (f2)");
    }
    let focus = !app.explorer().focused();
    app.explorer_mut().set_focus(focus);
    if focus {
        app.info("explorer: up/down choose, enter plays, g games, m my games, tab/esc back");
    }
}

/// A key while the panel has the focus.
pub fn key(app: &mut App, key: EditKey) {
    let rows = app
        .explorer()
        .report_for(app.position())
        .map_or(0, |r| r.moves.len());
    // The whole list is a page: page up/down go to its ends.
    if let Some(row) = key.moved(app.explorer().selected(), rows.saturating_sub(1), rows) {
        return app.explorer_mut().select_row(row, rows);
    }
    match key {
        EditKey::Left => app.follow(Action::Command(Command::PrevMove)),
        EditKey::Right => app.follow(Action::Command(Command::NextMove)),
        EditKey::Enter => match app.explorer().selected_move(app.position()) {
            Some(m) => super::moves::make_move(app, m),
            None => app.info("no move to play here"),
        },
        EditKey::Char(c @ '1'..='9') => {
            let row = c as usize - '1' as usize;
            if row >= rows {
                return;
            }
            app.explorer_mut().select_row(row, rows);
            if let Some(m) = app.explorer().selected_move(app.position()) {
                super::moves::make_move(app, m);
            }
        }
        EditKey::Char('g') => list_games(app),
        EditKey::Char('m') => cycle_scope(app),
        EditKey::Esc | EditKey::Tab => app.explorer_mut().set_focus(false),
        _ => {}
    }
}

fn cycle_scope(app: &mut App) {
    let Some(player) = app.config().database_player.clone() else {
        return app.error("set [database] player in config.toml to see your own games");
    };
    let scope = app.explorer().scope().next();
    app.explorer_mut().set_scope(scope);
    match scope {
        Scope::All => app.info("explorer: all games"),
        Scope::Mine(color) => app.info(format!(
            "explorer: {player}'s games as {}",
            color.fold("White", "Black")
        )),
    }
}

fn list_games(app: &mut App) {
    let player = app.config().database_player.clone();
    app.info("finding the games...");
    app.effect(Effect::Explorer(Request::Games {
        position: Box::new(app.position().clone()),
        filters: Box::new(app.explorer().filters(player.as_deref())),
    }));
}

/// A key while the games list is open.
pub fn games_key(app: &mut App, mut list: GamesList, key: EditKey) {
    let last = list.games.len().saturating_sub(1);
    let page = usize::from(app.size().1.saturating_sub(8)).max(1);
    if let Some(row) = key.moved(list.selected, last, page) {
        list.selected = row;
    }
    match key {
        EditKey::Enter => {
            if let Some(game) = list.games.get(list.selected) {
                app.info(format!("opening game {}...", game.id));
                app.effect(Effect::Explorer(Request::Load {
                    id: game.id,
                    position: list.position.clone(),
                }));
            }
            return;
        }
        EditKey::Esc | EditKey::Char('q') => return,
        _ => {}
    }
    app.open_overlay(Overlay::DbGames(list));
}

/// What the explorer's thread answered.
pub fn reply(app: &mut App, reply: Reply) {
    match reply {
        Reply::Opened { path, games } => {
            app.explorer_mut().opened(&path, &games);
            match games {
                Ok(n) => app.info(format!(
                    "{}: {n} games (tab: the explorer, in analyse mode)",
                    path.display()
                )),
                Err(why) => app.error(why),
            }
        }
        Reply::Explored {
            position,
            filters,
            report,
        } => app.explorer_mut().explored(&position, &filters, report),
        Reply::Games {
            position,
            games: Ok(games),
        } => {
            if games.is_empty() {
                return app.info("no game reached this position");
            }
            app.messages_mut().dismiss();
            app.open_overlay(Overlay::DbGames(GamesList {
                position,
                games,
                selected: 0,
            }));
        }
        Reply::Games { games: Err(e), .. } => app.error(e),
        Reply::Loaded { game: Err(e), .. } => app.error(e),
        Reply::Loaded {
            id,
            position,
            game: Ok(game),
        } => {
            let mut record = Record::from_game(*game);
            let at = first_reaching(&record, &position);
            record.goto(at.unwrap_or(NodeId::ROOT));
            let message = format!(
                "game {id}: {} vs {}{}",
                record.headers().get("White").unwrap_or("?"),
                record.headers().get("Black").unwrap_or("?"),
                if at.is_some() {
                    ""
                } else {
                    " (the position is not in its main line)"
                }
            );
            app.ask_or_do(Pending::Game(Box::new(record), Severity::Info, message));
        }
    }
}

/// The first node of the main line where the game reached `pos`.
fn first_reaching(record: &Record, pos: &crate::chess::Position) -> Option<NodeId> {
    let key = pos.hash();
    std::iter::once(NodeId::ROOT)
        .chain(record.mainline())
        .find(|&n| record.position(n).hash() == key)
}

#[cfg(test)]
mod tests;
