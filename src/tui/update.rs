//! `update(&mut App, Action)`: the only place the interface state changes. It hands the action
//! to the part of the interface it concerns, then the actions that followed from it
//! (`App::follow`: a confirmed question, a submitted prompt), then settles. Side effects
//! (engine commands, file writes) are queued by `App::effect` for the event loop.

use crate::chess::{Move, Square};
use crate::game::NodeId;

use super::action::{Action, EditKey};
use super::app::{App, Effect, Mode, Overlay, Prompt, PromptKind, promotion_role};
use super::browse;
use super::component::mode_command;
use super::confirm;
use super::dialog::Pending;
use super::game::king_target;
use super::keymap::Command;
use super::layout;
use super::moves::{make_move, not_your_move};
use super::prompt::open_prompt;
use super::{
    commands, database, edit, endgame, engine_sync, play, premove, saving, setup, start, typed,
    undo,
};

pub fn update(app: &mut App, action: Action) {
    let user = action.is_user();
    if user {
        app.messages_mut().dismiss();
    }
    dispatch(app, action);
    // What followed from it, in order (each may queue more).
    while let Some(next) = app.next_followed() {
        dispatch(app, next);
    }
    settle(app);
    // Only what the user does changes the work: engine reports and clock ticks, many a second,
    // would otherwise write the whole game out each time (the whole-game analysis autosaves
    // when it ends).
    if user {
        saving::autosave_analysis(app);
    }
}

/// Hands one action to the part of the interface it concerns.
fn dispatch(app: &mut App, action: Action) {
    match action {
        Action::Command(c) => command(app, c),
        Action::Cursor(df, dr) => app.board_mut().move_cursor(df, dr),
        Action::PickSquare => pick_square(app, app.board().cursor()),
        Action::Cancel => {
            app.clear_marks();
            app.messages_mut().dismiss();
            premove::cancel(app);
        }
        Action::TypeMove(EditKey::Enter) if premove::wanted(app) => premove::set(app),
        Action::TypeMove(key) => typed::type_move(app, key),
        Action::Prompt(key) => super::prompt::key(app, key),
        Action::Overlay(key) => overlay_key(app, key),
        Action::Setup(key) => setup::key(app, key),
        Action::Browse(key) => browse::key(app, key),
        Action::ExplorerKey(key) => database::key(app, key),
        Action::Explorer(reply) => database::reply(app, reply),
        Action::Library(event) => browse::event(app, event),
        Action::MouseDown(x, y) if graph_node_at(app, x, y).is_some() => {
            app.navigate(graph_node_at(app, x, y));
        }
        Action::MouseDown(x, y) if list_node_at(app, x, y).is_some() => {
            app.navigate(list_node_at(app, x, y));
        }
        Action::MouseDown(x, y) => {
            if let Some(sq) = square_at(app, x, y) {
                app.board_mut().set_cursor(sq);
                let own =
                    app.position().piece_at(sq).map(|p| p.color) == Some(app.position().turn());
                if app.board().selected().is_some() && !own {
                    pick_square(app, sq);
                } else {
                    pick_square(app, sq);
                    app.board_mut().start_drag();
                }
            }
        }
        Action::MouseUp(x, y) => {
            if let (Some(from), Some(to)) = (app.board_mut().end_drag(), square_at(app, x, y))
                && from != to
            {
                pick_square(app, to);
            }
        }
        Action::Resize(w, h) => app.resize(w, h),
        Action::Engine(id, event) => engine_sync::engine_event(app, id, event),
        Action::Tick => play::tick(app),
        Action::JobDone(Ok(msg)) => app.info(msg),
        Action::JobDone(Err(msg)) => app.error(msg),
        Action::Tablebase(pos, answer) => app.tb_mut().store(*pos, answer),
        Action::Confirmed(pending) => confirm::carry_out(app, pending),
        Action::Submit(kind, text) => commands::submit(app, kind, &text),
    }
}

/// Follow-ups of any change: the book reply, the end of the game, a premove, the engine's task.
pub fn settle(app: &mut App) {
    play::book_reply(app);
    play::check_end(app);
    if premove::play(app) {
        play::book_reply(app);
        play::check_end(app);
    }
    endgame::settle(app);
    request_tablebases(app);
    database::settle(app);
    engine_sync::sync_engine(app);
}

/// Asks the tables for the views the interface needs: the shown position, and in the endgame
/// trainer the position the defender must answer.
fn request_tablebases(app: &mut App) {
    let mut wanted = vec![app.position().clone()];
    if let Mode::Endgame(_) = app.mode() {
        wanted.push(app.game().last().clone());
    }
    for pos in app.tb_mut().to_request(wanted) {
        app.effect(Effect::Tablebase(Box::new(pos)));
    }
}

/// The node of the evaluation graph's line under a click, when the graph is shown.
fn graph_node_at(app: &App, x: u16, y: u16) -> Option<NodeId> {
    if matches!(app.mode(), Mode::Setup(_) | Mode::Browse) {
        return None;
    }
    let area = ratatui::layout::Rect::new(0, 0, app.size().0, app.size().1);
    let graph =
        super::view::side_panels(app, &layout::compute(area, app.config().coordinates)).graph;
    let line = app.game().line_through(app.game().current_node());
    let ply = layout::graph_ply_at(graph, line.len() - 1, x, y)?;
    line.get(ply).copied()
}

/// The move of the move list under a click (not while solving a puzzle: the list is the way
/// there, not a way on).
fn list_node_at(app: &App, x: u16, y: u16) -> Option<NodeId> {
    if matches!(app.mode(), Mode::Setup(_) | Mode::Browse | Mode::Learn(_)) {
        return None;
    }
    let area = ratatui::layout::Rect::new(0, 0, app.size().0, app.size().1);
    let moves =
        super::view::side_panels(app, &layout::compute(area, app.config().coordinates)).moves;
    super::view::moves::node_at(app, moves, x, y)
}

fn square_at(app: &App, x: u16, y: u16) -> Option<Square> {
    let area = ratatui::layout::Rect::new(0, 0, app.size().0, app.size().1);
    layout::compute(area, app.config().coordinates).square_at(x, y, app.board().flipped())
}

fn command(app: &mut App, c: Command) {
    if mode_command(app, c) || edit::command(app, c) {
        return;
    }
    match c {
        Command::Quit => request_quit(app),
        Command::Help => app.open_overlay(Overlay::Help { scroll: 0 }),
        Command::Flip => app.board_mut().flip(),
        // Outside a game there is no move to take back: `u` undoes the last edit.
        Command::Takeback | Command::Undo => undo::undo(app),
        Command::Redo => undo::redo(app),
        Command::Hint => app.info("hints are for play mode; space starts the engine here"),
        Command::NextMove => app.navigate(app.game().tree().next(app.game().current_node())),
        Command::PrevMove => app.navigate(app.game().tree().previous(app.game().current_node())),
        Command::FirstMove => app.navigate(Some(NodeId::ROOT)),
        Command::LastMove => app.navigate(Some(app.game().tree().end(app.game().current_node()))),
        Command::ToggleAnalysis => app.info("analysis runs in analyse mode (f2)"),
        Command::NewGame => app.ask_or_do(Pending::NewGame),
        Command::CommandLine => open_prompt(app, PromptKind::Command),
        Command::Resign => app.ask_or_do(Pending::Resign),
        Command::OfferDraw => app.info("no game in progress"),
        Command::AnalyseGame => start_game_pass(app),
        Command::PvNext | Command::PvPrev => step_pv(app, c == Command::PvNext),
        Command::Save => open_prompt(app, PromptKind::SaveAs),
        Command::WriteGame => open_prompt(app, PromptKind::WriteAs),
        Command::CopyFen => {
            let fen = app.position().fen();
            app.info(format!("copied {fen}"));
            app.effect(Effect::Clipboard(fen));
        }
        Command::CopyPgn => {
            let pgn = app.game().to_game().to_pgn();
            app.info(format!(
                "copied the game as PGN ({} moves)",
                app.game().len()
            ));
            app.effect(Effect::Clipboard(pgn));
        }
        Command::Open => open_prompt(app, PromptKind::OpenPgn),
        Command::Explorer => database::toggle_focus(app),
        Command::Setup => setup::enter(app),
        Command::ModePlay => app.ask_or_do(Pending::NewGame),
        Command::ModeAnalyse => app.ask_or_do(Pending::Analyse),
        Command::ModeBrowse => app.ask_or_do(Pending::Browse),
        Command::ModeEndgame => {
            app.prompt_mut().open(Prompt::preselected(
                PromptKind::Endgame,
                endgame::DEFAULT_MATERIAL,
            ));
        }
        // Tree commands, handled by `edit::command` above.
        Command::NextVariation
        | Command::PrevVariation
        | Command::LeaveVariation
        | Command::PromoteVariation
        | Command::MakeMainLine
        | Command::DeleteVariation
        | Command::CutLine
        | Command::Comment
        | Command::Nag(_)
        | Command::NextMarked
        | Command::PrevMarked => {}
    }
}

fn request_quit(app: &mut App) {
    if app.has_unsaved_work() && !matches!(app.overlay(), Some(Overlay::ConfirmQuit)) {
        app.open_overlay(Overlay::ConfirmQuit);
    } else {
        app.quit();
    }
}

/// Moves the cursor in the engine's first line, when one is shown.
fn step_pv(app: &mut App, forward: bool) {
    let len = app.shown_lines().first().map_or(0, |l| l.pv.len());
    if len == 0 {
        return app.info("no engine line to step through (space starts the engine)");
    }
    app.lines_mut().step_cursor(forward, len);
}

/// Selects the piece on `sq`, or moves the selected piece there.
fn pick_square(app: &mut App, sq: Square) {
    if let Mode::Setup(_) = app.mode() {
        return;
    }
    if let Some(from) = app.board().selected() {
        let candidates: Vec<Move> = app
            .destinations()
            .into_iter()
            .filter(|&m| m.to() == sq || king_target(m) == sq)
            .collect();
        match candidates.as_slice() {
            [] => {}
            [m] => {
                make_move(app, *m);
                return;
            }
            _ => {
                app.open_overlay(Overlay::Promotion { from, to: sq });
                return;
            }
        }
    }
    let pos = app.position();
    let own = pos.piece_at(sq).is_some_and(|p| p.color == pos.turn());
    if !own || app.board().selected() == Some(sq) {
        app.board_mut().select(None);
    } else if !app.mode().component().can_move(app) {
        app.info(not_your_move(app));
    } else {
        app.board_mut().select(Some(sq));
    }
}

fn overlay_key(app: &mut App, key: EditKey) {
    let Some(overlay) = app.take_overlay() else {
        return;
    };
    match overlay {
        Overlay::Help { scroll } => super::help::key(app, scroll, key),
        Overlay::Messages { scroll } => super::help::messages_key(app, scroll, key),
        Overlay::Confirm(action) => confirm::key(app, action, key),
        Overlay::DbGames(list) => database::games_key(app, list, key),
        Overlay::ConfirmQuit => match key {
            EditKey::Char('y' | 'Y') => {
                app.quit();
                confirm::save_before_leaving(app, true);
            }
            EditKey::Char('n' | 'N') => {
                app.effect(Effect::ClearAutosave);
                app.quit();
            }
            EditKey::Esc => {}
            _ => app.open_overlay(Overlay::ConfirmQuit),
        },
        Overlay::Resume(saved) => match key {
            EditKey::Char('y' | 'Y') | EditKey::Enter => start::resume(app, &saved),
            EditKey::Char('n' | 'N') | EditKey::Esc => {
                if let Some(file) = saved.file.clone() {
                    app.effect(Effect::RemoveAutosave(file));
                }
                app.info("the unfinished work of last time was discarded");
            }
            _ => app.open_overlay(Overlay::Resume(saved)),
        },
        Overlay::Promotion { from, to } => {
            let role = match key {
                EditKey::Char(c) => promotion_role(c),
                EditKey::Enter => promotion_role('q'),
                _ => None,
            };
            let chosen = role.and_then(|r| {
                app.destinations()
                    .into_iter()
                    .find(|m| m.from() == from && m.to() == to && m.promotion_role() == Some(r))
            });
            match (chosen, key) {
                (Some(m), _) => make_move(app, m),
                (None, EditKey::Esc) => app.board_mut().select(None),
                _ => app.open_overlay(Overlay::Promotion { from, to }),
            }
        }
        Overlay::NewGame(d) => start::new_game_key(app, d, key),
    }
}

fn start_game_pass(app: &mut App) {
    start::enter_analyse(app);
    if let Mode::Analyse(a) = app.mode_mut() {
        a.infinite = false;
        a.game_pass = Some(NodeId::ROOT);
    }
}
