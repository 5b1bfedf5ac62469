//! Undo and redo of the edits made to a game in analyse mode. Each edit first stores the whole
//! record (a game tree is a few kilobytes), so a cut line or a deleted variation comes back
//! exactly, with its comments and marks.

use super::app::{App, Mode};
use super::game::{Record, Snapshot};

/// Carries out `change` (which says whether it changed anything) as one undoable edit: a
/// change that did nothing is not remembered and leaves what can be redone.
pub fn try_edit(
    app: &mut App,
    edit: &'static str,
    change: impl FnOnce(&mut Record) -> bool,
) -> bool {
    let before = app.game().clone();
    if !change(app.game_mut()) {
        return false;
    }
    remember(app, before, edit);
    app.game_mut().mark_changed();
    true
}

/// Remembers the game as it is before `edit` changes it.
pub fn checkpoint(app: &mut App, edit: &'static str) {
    remember(app, app.game().clone(), edit);
}

fn remember(app: &mut App, game: Record, edit: &'static str) {
    app.undo_history().remember(Snapshot { game, edit });
}

pub fn undo(app: &mut App) {
    step(app, true);
}

pub fn redo(app: &mut App) {
    step(app, false);
}

/// Moves one state back (`back`) or forward: the state taken from one stack is shown, and the
/// one shown goes on the other.
fn step(app: &mut App, back: bool) {
    let (verb, done) = if back {
        ("undo", "undone")
    } else {
        ("redo", "redone")
    };
    if !matches!(app.mode(), Mode::Analyse(_)) {
        return app.info(format!("{verb} works on the edits of analyse mode (f2)"));
    }
    let Some(state) = app.undo_history().take(back) else {
        return app.info(format!("nothing to {verb}"));
    };
    let shown = swap_in(app, state.game, state.edit);
    let hint = if back { " (ctrl-y redoes)" } else { "" };
    app.info(format!("{done}: {}{hint}", shown.edit));
    app.undo_history().keep(back, shown);
}

/// Shows `game` and returns what was shown, as a snapshot for the other stack.
fn swap_in(app: &mut App, game: Record, edit: &'static str) -> Snapshot {
    let old = std::mem::replace(app.game_mut(), game);
    app.clear_marks();
    // Its next node may not be in the other record.
    if let Mode::Analyse(a) = app.mode_mut() {
        a.game_pass = None;
    }
    Snapshot { game: old, edit }
}
