//! Working on the game tree in analyse mode: moving between variations, promoting and
//! deleting them, comments, NAGs, and stepping to the moves the analysis marked.

use crate::game::{MoveNumber, Nag, NodeId};

use super::app::Purpose;
use super::app::{App, Mode, Prompt, PromptKind};
use super::component::{Component, Wanted, board_command, tree_command};
use super::game::Record;
use super::keymap::Command;
use super::mode::AnalyseState;
use super::review::judge_move;
use super::undo::{checkpoint, try_edit};
use crate::engines::service::GoLimits;

/// Carries out a tree command; `false` if `command` is not one.
pub fn command(app: &mut App, command: Command) -> bool {
    let is_edit = matches!(
        command,
        Command::PromoteVariation
            | Command::MakeMainLine
            | Command::DeleteVariation
            | Command::CutLine
            | Command::Comment
            | Command::Nag(_)
    );
    if is_edit && !matches!(app.mode(), Mode::Analyse(_)) {
        app.info("the game can be annotated in analyse mode (f2)");
        return true;
    }
    let current = app.game().current_node();
    match command {
        Command::NextVariation | Command::PrevVariation => {
            let delta = if command == Command::NextVariation {
                1
            } else {
                -1
            };
            match app.game().tree().sibling(current, delta) {
                Some(n) => app.navigate(Some(n)),
                None => app.info(no_alternative(app, current, delta)),
            }
        }
        Command::LeaveVariation => match app.game().variation_start(current) {
            Some(start) => {
                let main = app.game().tree().siblings(start).first().copied();
                app.navigate(main);
            }
            None => app.info("on the main line"),
        },
        Command::PromoteVariation => {
            if try_edit(app, "variation promoted", Record::promote_variation) {
                app.info("variation promoted");
            } else {
                app.info("on the main line: nothing to promote");
            }
        }
        Command::MakeMainLine => {
            if try_edit(app, "main line changed", Record::promote_to_main) {
                app.info("this line is now the main line");
            } else {
                app.info("already the main line");
            }
        }
        Command::DeleteVariation => {
            if try_edit(app, "variation deleted", |g| g.delete_variation().is_some()) {
                app.navigate(Some(app.game().current_node()));
                app.info("variation deleted (u undoes)");
            } else {
                app.info("on the main line (X cuts the moves from here)");
            }
        }
        Command::CutLine => {
            if try_edit(app, "moves cut", |g| g.cut().is_some()) {
                app.info("the moves from here are cut (u undoes)");
            } else {
                app.info("no moves after this one to cut");
            }
        }
        Command::Comment => {
            let comment = Prompt::new(PromptKind::Comment, app.game().comment());
            app.prompt_mut().open(comment);
        }
        Command::Nag(n) => {
            if current == NodeId::ROOT {
                app.info("go to a move to mark it");
                return true;
            }
            let nag = Nag(n);
            checkpoint(app, "mark");
            let on = app.game_mut().toggle_nag(nag);
            app.game_mut().mark_changed();
            let glyph = nag.glyph().unwrap_or_default();
            app.info(if on {
                format!("marked {glyph}")
            } else {
                format!("{glyph} removed")
            });
        }
        Command::NextMarked | Command::PrevMarked => {
            let line = app.game().line_through(current);
            let at = line.iter().position(|&n| n == current).unwrap_or(0);
            let marked = |&&n: &&NodeId| judge_move(app.game(), n).is_some();
            let target = if command == Command::NextMarked {
                line[at + 1..].iter().find(marked)
            } else {
                line[..at].iter().rev().find(marked)
            };
            match target.copied() {
                Some(n) => {
                    app.navigate(Some(n));
                    app.info(what_was_better(app, n));
                }
                None => app.info("no more marked moves (ctrl-a analyses the game)"),
            }
        }
        _ => return false,
    }
    true
}

/// "3... Nf6?? Blunder; better was 3...g6 4.Qd1 Nf6" for the judged move leading to `id`.
fn what_was_better(app: &App, id: NodeId) -> String {
    let tree = app.game().tree();
    let (Some(parent), Some(judgement)) = (tree.previous(id), judge_move(app.game(), id)) else {
        return String::new();
    };
    let before = app.game().position(parent);
    let number = MoveNumber {
        fullmove: before.fullmoves(),
        black: before.turn() == crate::chess::Color::Black,
    };
    let played = format!(
        "{number} {}{} {}",
        tree.san(id).unwrap_or_default(),
        judgement.nag().glyph().unwrap_or_default(),
        judgement.name()
    );
    match app.game().better_line(id).filter(|line| !line.is_empty()) {
        Some(line) => {
            let line = crate::tui::view::engine::pv_san(before, &line, 8);
            format!("{played}; better was {line}")
        }
        None => played,
    }
}

fn no_alternative(app: &App, current: NodeId, delta: isize) -> &'static str {
    let alternatives = app.game().tree().siblings(current).len();
    match (alternatives, delta) {
        (1, _) if app.game().tree().node(current).children().len() > 1 => {
            "no alternative to this move; j, then ] enters the variations of the next one"
        }
        (1, _) => "no alternative to this move",
        (_, 1) => "this is the last alternative",
        _ => "this is the first alternative",
    }
}

/// Sets the comment of the shown move from the prompt.
pub fn set_comment(app: &mut App, text: &str) {
    checkpoint(app, "comment");
    app.game_mut().set_comment(text);
    app.game_mut().mark_changed();
    app.info(if text.is_empty() {
        "comment removed"
    } else {
        "comment set"
    });
}

impl Component for AnalyseState {
    fn name(&self) -> &'static str {
        "ANALYSE"
    }

    fn takes(&self, command: Command) -> bool {
        use Command::*;
        board_command(command)
            || tree_command(command)
            || matches!(command, Takeback | NewGame | Explorer)
    }

    fn suggested(&self) -> &'static [(Command, &'static str)] {
        &[
            (Command::ToggleAnalysis, "engine"),
            (Command::Takeback, "undo"),
            (Command::AnalyseGame, "analyse game"),
            (Command::Comment, "comment"),
        ]
    }

    fn can_move(&self, _app: &App) -> bool {
        true
    }

    fn command(app: &mut App, command: Command) -> bool {
        match (command, app.mode_mut()) {
            (Command::ToggleAnalysis, Mode::Analyse(a)) => {
                a.infinite = !a.infinite;
                a.game_pass = None;
                true
            }
            _ => false,
        }
    }

    /// The next move of the whole-game pass, else the shown position while analysis is on.
    fn wanted_search(&self, app: &App) -> Option<Wanted> {
        match self.game_pass {
            Some(node) => Some((
                Purpose::GamePass,
                node,
                GoLimits::MoveTime(std::time::Duration::from_millis(
                    app.config().analysis_movetime_ms,
                )),
            )),
            None if self.infinite && app.position().outcome(&[]).is_none() => Some((
                Purpose::Analysis,
                app.game().current_node(),
                GoLimits::Infinite,
            )),
            None => None,
        }
    }
}
