//! Saving the shown game: appended to the games file or another, written back into the file
//! it came from, never replacing other games without a question; and the analysis autosave.

use std::path::{Path, PathBuf};

use super::app::{App, Effect, Mode, Overlay};
use super::dialog::Pending;

/// Saves the game as PGN: appended to `path`, or to the games file.
pub fn save_game(app: &mut App, path: Option<PathBuf>) {
    let Some(path) = path.or_else(|| app.games_file().map(PathBuf::from)) else {
        return app.error("no data directory to save games in");
    };
    write_game(app, path, true);
}

/// Queues the game for writing: appended to `path`, or replacing the file. A game read from
/// `path` replaces only itself there; another file that holds games is not replaced without a
/// question.
pub fn write_game(app: &mut App, path: PathBuf, append: bool) {
    // A Result tag that contradicts the moves' result is not written without a word.
    let game = app.game().to_game();
    let tag = game.headers.get("Result").unwrap_or("*").to_owned();
    if tag != game.result.as_str() {
        let moves = game.result.as_str().to_owned();
        app.open_overlay(Overlay::Confirm(Pending::ResultConflict {
            path,
            append,
            tag,
            moves,
        }));
        return;
    }
    write_checked(app, path, append);
}

/// `write_game` once the result is settled.
pub fn write_checked(app: &mut App, path: PathBuf, append: bool) {
    // Saved to its own file, a game replaces itself there (appending would make a copy).
    let origin = app
        .game()
        .origin()
        .filter(|o| o.path == path || crate::game::same_file(&o.path, &path))
        .cloned();
    if origin.is_none() && !append {
        let games = games_in(&path);
        if games > 0 {
            app.open_overlay(Overlay::Confirm(Pending::Overwrite { path, games }));
            return;
        }
    }
    queue_write(app, path, append, origin);
}

/// Queues the write that `write_game` decided on.
pub fn queue_write(
    app: &mut App,
    path: PathBuf,
    append: bool,
    origin: Option<crate::game::GameOrigin>,
) {
    queue_write_then(app, path, append, origin, true);
}

/// Queues a write; `resumable` false when the game is being left for good (saved, then
/// replaced by a new one), so its autosave goes once it is in the file.
pub fn queue_write_then(
    app: &mut App,
    path: PathBuf,
    append: bool,
    origin: Option<crate::game::GameOrigin>,
    resumable: bool,
) {
    // A game against the engine that is over has nothing to resume; one saved before its end
    // stays resumable, and its autosave will say where it went.
    let playing = matches!(app.mode(), Mode::Play(_));
    let finished = app.game().end().is_some() || !resumable;
    app.effect(Effect::SaveGame {
        path,
        game: Box::new(app.game().to_game()),
        append,
        clears_autosave: !playing || finished,
        origin: origin.map(Box::new),
        resume: (playing && !finished).then(|| Box::new(app.snapshot())),
    });
    app.game_mut().mark_saved();
    if let Mode::Play(p) = app.mode_mut() {
        p.recorded = true;
    }
}

/// How many games the file at `path` holds (0 when it is missing or unreadable).
fn games_in(path: &Path) -> u64 {
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return 0;
    }
    let mut games = 0;
    let _ = crate::game::index::scan(file, |_| games += 1);
    games
}

/// An analysis with unsaved work is in the autosave file as it changes; once saved, it goes.
pub fn autosave_analysis(app: &mut App) {
    if !matches!(app.mode(), Mode::Analyse(_)) {
        return;
    }
    if app.has_unsaved_work() {
        let text = app.snapshot().to_text();
        if app.note_autosaved(&text) {
            app.effect(Effect::Autosave(text));
        }
    } else if app.forget_autosaved() {
        app.effect(Effect::ClearAutosave);
    }
}
