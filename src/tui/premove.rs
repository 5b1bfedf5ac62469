//! Premoves: a move typed during the engine's turn is kept and played once the engine has
//! moved, if it is legal then.

use super::app::{App, Mode};
use super::moves::make_move;
use super::typed::parse_typed;

/// Whether a move typed now is a premove: a game is on and the engine is to move.
pub fn wanted(app: &App) -> bool {
    match app.mode() {
        Mode::Play(p) => {
            app.game().end().is_none()
                && app.game().at_main_end()
                && app.game().last().turn() != p.human
        }
        _ => false,
    }
}

/// Keeps the typed move to play once the engine has moved.
pub fn set(app: &mut App) {
    let text = app.board_mut().take_typed();
    if text.is_empty() {
        return;
    }
    if let Mode::Play(p) = app.mode_mut() {
        p.premove = Some(text.clone());
        app.info(format!(
            "premove {text}: played once the engine has moved (esc cancels)"
        ));
    }
}

/// Forgets the premove, saying so.
pub fn cancel(app: &mut App) {
    if let Mode::Play(p) = app.mode_mut()
        && let Some(text) = p.premove.take()
    {
        app.info(format!("premove {text} cancelled"));
    }
}

/// Plays the premove once it is the player's turn, if it is legal then; true if played.
pub fn play(app: &mut App) -> bool {
    if !app.mode().component().can_move(app) {
        return false;
    }
    let Mode::Play(p) = app.mode_mut() else {
        return false;
    };
    let Some(text) = p.premove.take() else {
        return false;
    };
    match parse_typed(app.position(), &text) {
        Ok(m) => {
            make_move(app, m);
            app.info(format!("premove {text} played"));
            true
        }
        Err(why) => {
            app.error(format!("premove dropped: {why}"));
            false
        }
    }
}
