//! A move made on the board, in whatever mode: a puzzle's try, a move in play (clocks
//! pressed), a new variation in analysis (undoable), a graded endgame move.

use crate::chess::Move;
use crate::game::GameMove;

use super::app::{App, Effect, Mode};
use super::{endgame, learn, undo};

/// Plays a legal move from the user.
pub fn make_move(app: &mut App, m: Move) {
    app.clear_marks();
    app.board_mut().clear_typed();
    if let Mode::Learn(_) = app.mode() {
        return learn::attempt(app, m);
    }
    if !app.mode().component().can_move(app) {
        let why = not_your_move(app);
        app.info(why);
        return;
    }
    let tree = app.game().tree();
    let existed = tree
        .node(app.game().current_node())
        .children()
        .iter()
        .any(|&c| tree.node(c).game_move() == Some(GameMove::Move(m)));
    let mover = app.position().turn();
    if !existed && matches!(app.mode(), Mode::Analyse(_)) {
        undo::checkpoint(app, "move");
    }
    let node = app.game_mut().play(m);
    endgame::grade_move(app, node, m);
    if existed {
        // An existing move was followed: nothing changed.
        return;
    }
    app.game_mut().mark_changed();
    if !app.game().tree().is_mainline(node) && app.game().variation_start(node) == Some(node) {
        app.info("new variation");
    }
    let now = app.now();
    if let Mode::Play(p) = app.mode_mut() {
        p.clocks.press(mover, now);
        if p.clocks.is_timed() {
            let left = p.clocks.remaining(mover, now);
            app.game_mut().set_clock(node, left);
        }
        app.effect(Effect::Autosave(app.snapshot().to_text()));
    }
}

pub fn not_your_move(app: &App) -> &'static str {
    if app.game().end().is_some() && app.game().at_main_end() {
        "the game is over (n: new game)"
    } else if !app.game().at_main_end() {
        "go to the last move to play (end)"
    } else {
        "wait for the engine's move"
    }
}
