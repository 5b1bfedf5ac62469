//! Endgame mode: a random tablebase position of a chosen material (or a given FEN) played
//! against the tablebase defender; each of the user's moves graded against the tables, and a
//! summary when the game ends.

use crate::chess::TbWdl;
use crate::chess::{Move, Position};
use crate::game::{Nag, NodeId};
use crate::tablebase::{Material, Summary, generate, grade};

use super::app::{App, Mode};
use super::component::{Component, board_command};
use super::game::Record;
use super::keymap::Command;
use super::mode::EndgameState;

/// Material offered when none was chosen yet.
pub const DEFAULT_MATERIAL: &str = "KRvK";

/// `KQvK` (a new random position where the user wins) or a FEN (the side to move is the user).
pub fn start(app: &mut App, target: &str) {
    let target = target.trim();
    let target = if target.is_empty() {
        DEFAULT_MATERIAL
    } else {
        target
    };
    if let Ok(material) = target.parse::<Material>() {
        return start_material(app, material);
    }
    match Position::from_fen(target) {
        Ok(pos) => start_position(app, pos, None),
        Err(e) => app.error(format!(
            "'{target}' is neither a material (KQvK, KRPvKR...) nor a FEN: {e}"
        )),
    }
}

fn start_material(app: &mut App, material: Material) {
    let Some(tables) = app.tb().tables.clone() else {
        return app.error(format!(
            "the endgame trainer needs tablebases ({})",
            app.tb().note
        ));
    };
    let user = super::play::configured_color(app.config(), app.now());
    let rng = app.rng();
    let mut next = || rng.next_u64();
    match generate(&tables, &material, user, TbWdl::Win, &mut next) {
        Ok(pos) => start_position(app, pos, Some(material)),
        Err(e) => app.error(e.to_string()),
    }
}

fn start_position(app: &mut App, pos: Position, material: Option<Material>) {
    if !app.tb().applies(&pos) || app.tb().tables.is_none() {
        return app.error(format!(
            "{} pieces or castling rights: not a tablebase position ({})",
            pos.occupied().count(),
            app.tb().note
        ));
    }
    app.stop_clocks();
    let user = pos.turn();
    let label = material
        .as_ref()
        .map_or_else(|| Material::of(&pos, user).to_string(), |m| m.to_string());
    *app.game_mut() = Record::new(pos);
    app.game_mut()
        .headers_mut()
        .set("Event", &format!("Endgame practice: {label}"));
    app.set_mode(Mode::Endgame(EndgameState {
        user,
        material,
        grades: Vec::new(),
        summary: None,
    }));
    app.board_mut().face(user);
    app.clear_marks();
    app.lines_mut().clear();
    app.game_mut().mark_saved();
    app.info(format!(
        "{label}: you play {}; convert against the tablebase defender (t: hint, n: new position)",
        user.fold("White", "Black")
    ));
}

/// Grades the user's move `m`, just played to `node` (shown): in the trainer panel, the status
/// line and as a NAG in the move list.
pub fn grade_move(app: &mut App, node: NodeId, m: Move) {
    let Mode::Endgame(_) = app.mode() else {
        return;
    };
    let Some(parent) = app.game().tree().previous(node) else {
        return;
    };
    let pos = app.game().position(parent).clone();
    let san = pos.san(m);
    let graded = match app.tb_mut().view_now(&pos) {
        Some(Ok(view)) => grade(&view.ranking, m),
        Some(Err(e)) => {
            app.error(format!("tablebase: {e}"));
            None
        }
        None => None,
    };
    let Some(g) = graded else {
        return;
    };
    let ply = app.game().ply(node);
    if let Mode::Endgame(e) = app.mode_mut() {
        e.grades.retain(|&(p, ..)| p < ply);
        e.grades.push((ply, node, g));
    }
    let nag = match g.glyph() {
        "?!" => Some(Nag::DUBIOUS),
        "?" => Some(Nag::MISTAKE),
        "??" => Some(Nag::BLUNDER),
        _ => None,
    };
    if let Some(nag) = nag
        && app.game().current_node() == node
    {
        app.game_mut().toggle_nag(nag);
    }
    app.info(format!("{san}{}: {g}", g.glyph()));
}

/// The defender's reply once the tables have answered for its position; the summary once the
/// game is over.
pub fn settle(app: &mut App) {
    let Mode::Endgame(e) = app.mode() else {
        return;
    };
    let user = e.user;
    if let Some(end) = app.game().end() {
        if e.summary.is_none() {
            let outcome = match end {
                crate::game::Ending::Rules(o) => Some(o),
                _ => None,
            };
            let summary = Summary::new(user, &e.user_grades(), outcome);
            let text = format!("drill over: {summary}");
            if let Mode::Endgame(e) = app.mode_mut() {
                e.summary = Some(summary);
            }
            app.info(text);
        }
        return;
    }
    let last = app.game().last().clone();
    if last.turn() == user {
        return;
    }
    let reply = match app.tb().answer(&last) {
        Some(Ok(view)) => view.ranking.moves.first().map(|m| m.mv),
        Some(Err(e)) => {
            let msg = format!("the defender cannot move: {e}");
            return app.error(msg);
        }
        // Still probing.
        None => return,
    };
    let Some(m) = reply.filter(|&m| last.is_legal(m)) else {
        return;
    };
    app.game_mut().push_main(m);
}

/// Takes back the user's last move (and the defender's reply).
fn takeback(app: &mut App) {
    let Mode::Endgame(e) = app.mode() else {
        return;
    };
    let user = e.user;
    let mut popped = false;
    while !app.game().is_empty() {
        let mover = !app.game().last().turn();
        if app.game_mut().pop_main().is_none() {
            break;
        }
        popped = true;
        if mover == user {
            break;
        }
    }
    if !popped {
        return app.info("nothing to take back");
    }
    let len = app.game().len();
    if let Mode::Endgame(e) = app.mode_mut() {
        e.grades.retain(|&(p, ..)| p <= len);
        e.summary = None;
    }
    let end = app.game().main_end();
    app.game_mut().goto(end);
    app.info("took back your last move");
}

/// The best move of the shown position, from the tables.
fn hint(app: &mut App) {
    let pos = app.position().clone();
    match app.tb_mut().view_now(&pos) {
        Some(Ok(view)) => match view.ranking.moves.first() {
            Some(best) => {
                app.set_hint(Some(best.mv));
                app.info(format!(
                    "hint: {} ({}, {})",
                    pos.san(best.mv),
                    best.wdl.name(),
                    best.detail()
                ));
            }
            None => app.info("no moves here"),
        },
        Some(Err(e)) => app.error(format!("tablebase: {e}")),
        None => app.error("no tablebases"),
    }
}

/// `n` in endgame mode: a new position of the same material (or the same FEN again).
fn again(app: &mut App) {
    let Mode::Endgame(e) = app.mode() else {
        return;
    };
    match e.material.clone() {
        Some(m) => start_material(app, m),
        None => {
            let start = app.game().start().clone();
            start_position(app, start, None);
        }
    }
}

impl Component for EndgameState {
    fn name(&self) -> &'static str {
        "ENDGAME"
    }

    fn takes(&self, command: Command) -> bool {
        use Command::*;
        board_command(command) || matches!(command, Takeback | Hint | NewGame)
    }

    fn suggested(&self) -> &'static [(Command, &'static str)] {
        &[
            (Command::Hint, "best move"),
            (Command::Takeback, "takeback"),
            (Command::NewGame, "new position"),
        ]
    }

    fn can_move(&self, app: &App) -> bool {
        app.game().at_main_end() && app.game().end().is_none() && app.position().turn() == self.user
    }

    fn command(app: &mut App, command: Command) -> bool {
        match command {
            Command::Takeback => takeback(app),
            Command::Hint => hint(app),
            Command::NewGame => again(app),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests;
