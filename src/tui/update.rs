//! `update(&mut App, Action)`: the only place the interface state changes. Side effects
//! (engine commands, file writes) are queued in `app.effects` for the event loop.

use crate::chess::{Move, Position, Square};
use crate::game::{GameMove, NodeId};

use super::app::{App, Effect, Mode, Overlay, Prompt, PromptKind, promotion_role};
use super::autosave::Saved;
use super::browse::{self, LibraryEvent};
use super::confirm::{self, Pending};
use super::game::king_target;
use super::input::EditKey;
use super::keymap::Command;
use super::layout;
use super::{edit, endgame, engine_sync, learn, play, setup, start, tablebase, typed, undo};
use crate::engines::service::{EngineEvent, SearchId};

#[derive(Clone, Debug)]
pub enum Action {
    Command(Command),
    /// Move the board cursor by files and ranks (from White's view).
    Cursor(i8, i8),
    /// Enter on the board: select the piece under the cursor, or move the selected one there.
    PickSquare,
    Cancel,
    TypeMove(EditKey),
    Prompt(EditKey),
    Overlay(EditKey),
    Setup(EditKey),
    /// A key in browse mode (filter, list movement).
    Browse(EditKey),
    /// Background work on a PGN file finished a step.
    Library(LibraryEvent),
    MouseDown(u16, u16),
    MouseUp(u16, u16),
    Resize(u16, u16),
    Engine(SearchId, EngineEvent),
    /// Time passed (clocks).
    Tick,
    /// A background write finished: a message to show, or an error.
    JobDone(Result<String, String>),
    /// The tables answered for a position.
    Tablebase(Box<Position>, tablebase::Answer),
}

impl Action {
    /// Actions from the keyboard or mouse (which clear the last message).
    fn is_user(&self) -> bool {
        !matches!(
            self,
            Action::Engine(..)
                | Action::Tick
                | Action::JobDone(_)
                | Action::Resize(..)
                | Action::Library(LibraryEvent::Checked { .. })
                | Action::Tablebase(..)
        )
    }
}

pub fn update(app: &mut App, action: Action) {
    let user = action.is_user();
    if user {
        app.message = None;
    }
    match action {
        Action::Command(c) => command(app, c),
        Action::Cursor(df, dr) => {
            let (df, dr) = if app.flipped { (-df, -dr) } else { (df, dr) };
            let f = (app.cursor.file().index() as i32 + i32::from(df)).clamp(0, 7);
            let r = (app.cursor.rank().index() as i32 + i32::from(dr)).clamp(0, 7);
            app.cursor = Square::new((r * 8 + f) as u32);
        }
        Action::PickSquare => pick_square(app, app.cursor),
        Action::Cancel => {
            app.pv_cursor = 0;
            app.selected = None;
            app.hint = None;
            app.message = None;
        }
        Action::TypeMove(key) => typed::type_move(app, key),
        Action::Prompt(key) => super::prompt::key(app, key),
        Action::Overlay(key) => overlay_key(app, key),
        Action::Setup(key) => setup::key(app, key),
        Action::Browse(key) => browse::key(app, key),
        Action::Library(event) => browse::event(app, event),
        Action::MouseDown(x, y) if graph_node_at(app, x, y).is_some() => {
            navigate(app, graph_node_at(app, x, y));
        }
        Action::MouseDown(x, y) => {
            if let Some(sq) = square_at(app, x, y) {
                app.cursor = sq;
                let own =
                    app.position().piece_at(sq).map(|p| p.color) == Some(app.position().turn());
                if app.selected.is_some() && !own {
                    pick_square(app, sq);
                } else {
                    pick_square(app, sq);
                    app.drag_from = app.selected;
                }
            }
        }
        Action::MouseUp(x, y) => {
            let from = app.drag_from.take();
            if let (Some(from), Some(to)) = (from, square_at(app, x, y))
                && from != to
                && app.selected == Some(from)
            {
                pick_square(app, to);
            }
        }
        Action::Resize(w, h) => app.size = (w, h),
        Action::Engine(id, event) => engine_sync::engine_event(app, id, event),
        Action::Tick => play::tick(app),
        Action::JobDone(Ok(msg)) => app.info(msg),
        Action::JobDone(Err(msg)) => app.error(msg),
        Action::Tablebase(pos, answer) => app.tb.store(*pos, answer),
    }
    settle(app);
    // Only what the user does changes the work: engine reports and clock ticks, many a second,
    // would otherwise write the whole game out each time (the whole-game analysis autosaves
    // when it ends).
    if user {
        autosave_analysis(app);
    }
}

/// Follow-ups of any change: the book reply, the end of the game, the engine's task.
pub fn settle(app: &mut App) {
    play::book_reply(app);
    play::check_end(app);
    endgame::settle(app);
    tablebase::request(app);
    engine_sync::sync_engine(app);
}

/// An analysis with unsaved work is in the autosave file as it changes; once saved, it goes.
pub fn autosave_analysis(app: &mut App) {
    if !matches!(app.mode, Mode::Analyse(_)) {
        return;
    }
    if app.has_unsaved_work() {
        let text = Saved::capture(app).to_text();
        if text != app.autosaved {
            app.effects.push(Effect::Autosave(text.clone()));
            app.autosaved = text;
        }
    } else if !app.autosaved.is_empty() {
        app.autosaved.clear();
        app.effects.push(Effect::ClearAutosave);
    }
}

/// The node of the evaluation graph's line under a click, when the graph is shown.
fn graph_node_at(app: &App, x: u16, y: u16) -> Option<NodeId> {
    if matches!(app.mode, Mode::Setup(_) | Mode::Browse) {
        return None;
    }
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    let graph = layout::compute(area, app.config.coordinates)
        .side_panels(app.reference_lines())
        .graph;
    let line = app.game.line_through(app.game.current_node());
    let ply = layout::graph_ply_at(graph, line.len() - 1, x, y)?;
    line.get(ply).copied()
}

fn square_at(app: &App, x: u16, y: u16) -> Option<Square> {
    let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
    layout::compute(area, app.config.coordinates).square_at(x, y, app.flipped)
}

fn command(app: &mut App, c: Command) {
    if learn::command(app, c) || edit::command(app, c) {
        return;
    }
    match c {
        Command::Quit => request_quit(app),
        Command::Help => app.overlay = Some(Overlay::Help { scroll: 0 }),
        Command::Flip => app.flipped = !app.flipped,
        Command::Takeback if matches!(app.mode, Mode::Endgame(_)) => endgame::takeback(app),
        Command::Takeback if matches!(app.mode, Mode::Play(_)) => play::takeback(app),
        // Outside a game there is no move to take back: `u` undoes the last edit.
        Command::Takeback | Command::Undo => undo::undo(app),
        Command::Redo => undo::redo(app),
        Command::Hint if matches!(app.mode, Mode::Endgame(_)) => endgame::hint(app),
        Command::Hint => play::hint(app),
        Command::NextMove => navigate(app, app.game.tree().next(app.game.current_node())),
        Command::PrevMove => navigate(app, app.game.tree().previous(app.game.current_node())),
        Command::FirstMove => navigate(app, Some(NodeId::ROOT)),
        Command::LastMove => navigate(app, Some(app.game.tree().end(app.game.current_node()))),
        Command::ToggleAnalysis => match &mut app.mode {
            Mode::Analyse(a) => {
                a.infinite = !a.infinite;
                a.game_pass = None;
            }
            _ => app.info("analysis runs in analyse mode (f2)"),
        },
        Command::NewGame if matches!(app.mode, Mode::Endgame(_)) => endgame::again(app),
        Command::NewGame => confirm::ask_or_do(app, Pending::NewGame),
        Command::CommandLine => open_prompt(app, PromptKind::Command),
        Command::Resign => confirm::ask_or_do(app, Pending::Resign),
        Command::OfferDraw => play::offer_draw(app),
        Command::AnalyseGame => start_game_pass(app),
        Command::PvNext | Command::PvPrev => step_pv(app, c == Command::PvNext),
        Command::Save => open_prompt(app, PromptKind::SaveAs),
        Command::WriteGame => open_prompt(app, PromptKind::WriteAs),
        Command::CopyFen => {
            let fen = app.position().fen();
            app.info(format!("copied {fen}"));
            app.effects.push(Effect::Clipboard(fen));
        }
        Command::CopyPgn => {
            let pgn = app.game.to_game().to_pgn();
            app.info(format!("copied the game as PGN ({} moves)", app.game.len()));
            app.effects.push(Effect::Clipboard(pgn));
        }
        Command::Open => open_prompt(app, PromptKind::OpenPgn),
        Command::Setup => setup::enter(app),
        Command::ModePlay => confirm::ask_or_do(app, Pending::NewGame),
        Command::ModeAnalyse => confirm::ask_or_do(app, Pending::Analyse),
        Command::ModeBrowse => confirm::ask_or_do(app, Pending::Browse),
        Command::ModeEndgame => {
            app.prompt = Some(Prompt::preselected(
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

pub fn open_prompt(app: &mut App, kind: PromptKind) {
    app.prompt = Some(match kind {
        PromptKind::SaveAs => Prompt::preselected(
            kind,
            app.games_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        ),
        // The open file, else the current folder: typing replaces it, tab completes in it.
        PromptKind::OpenPgn => {
            let folder = std::env::current_dir()
                .map(|d| format!("{}{}", d.display(), std::path::MAIN_SEPARATOR))
                .unwrap_or_default();
            let text = app
                .library
                .as_ref()
                .map_or(folder, |l| l.path.display().to_string());
            Prompt::preselected(kind, text)
        }
        // A game read from a file is written back into it (only itself replaced there).
        PromptKind::WriteAs => {
            let origin = app.game.origin().map(|o| o.path.display().to_string());
            Prompt::preselected(kind, origin.unwrap_or_default())
        }
        _ => Prompt::new(kind, ""),
    });
}

/// How many games the file at `path` holds (0 when it is missing or unreadable).
fn games_in(path: &std::path::Path) -> u64 {
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

fn request_quit(app: &mut App) {
    if app.has_unsaved_work() && !matches!(app.overlay, Some(Overlay::ConfirmQuit)) {
        app.overlay = Some(Overlay::ConfirmQuit);
    } else {
        app.quit = true;
    }
}

/// Shows `node` (nothing happens at either end of a line).
pub fn navigate(app: &mut App, node: Option<NodeId>) {
    let Some(node) = node else {
        return;
    };
    app.game.goto(node);
    app.selected = None;
    app.hint = None;
    app.pv_cursor = 0;
}

/// Moves the cursor in the engine's first line, when one is shown.
fn step_pv(app: &mut App, forward: bool) {
    let len = app.shown_lines().first().map_or(0, |l| l.pv.len());
    if len == 0 {
        return app.info("no engine line to step through (space starts the engine)");
    }
    app.pv_cursor = if forward {
        (app.pv_cursor + 1).min(len)
    } else {
        app.pv_cursor.saturating_sub(1)
    };
}

/// Selects the piece on `sq`, or moves the selected piece there.
fn pick_square(app: &mut App, sq: Square) {
    if let Mode::Setup(_) = app.mode {
        return;
    }
    if let Some(from) = app.selected {
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
                app.overlay = Some(Overlay::Promotion { from, to: sq });
                return;
            }
        }
    }
    let pos = app.position();
    let own = pos.piece_at(sq).is_some_and(|p| p.color == pos.turn());
    if !own || app.selected == Some(sq) {
        app.selected = None;
    } else if !app.can_move() {
        app.info(not_your_move(app));
    } else {
        app.selected = Some(sq);
    }
}

fn not_your_move(app: &App) -> &'static str {
    if app.game.end().is_some() && app.game.at_main_end() {
        "the game is over (n: new game)"
    } else if !app.game.at_main_end() {
        "go to the last move to play (end)"
    } else {
        "wait for the engine's move"
    }
}

/// Plays a legal move from the user.
pub fn make_move(app: &mut App, m: Move) {
    app.selected = None;
    app.hint = None;
    app.pv_cursor = 0;
    app.input.clear();
    if let Mode::Learn(_) = app.mode {
        return learn::attempt(app, m);
    }
    if !app.can_move() {
        let why = not_your_move(app);
        app.info(why);
        return;
    }
    let tree = app.game.tree();
    let existed = tree
        .node(app.game.current_node())
        .children()
        .iter()
        .any(|&c| tree.node(c).game_move() == Some(GameMove::Move(m)));
    let mover = app.position().turn();
    if !existed && matches!(app.mode, Mode::Analyse(_)) {
        undo::checkpoint(app, "move");
    }
    let node = app.game.play(m);
    endgame::grade_move(app, node, m);
    if existed {
        // An existing move was followed: nothing changed.
        return;
    }
    app.saved = false;
    if !app.game.tree().is_mainline(node) && app.game.variation_start(node) == Some(node) {
        app.info("new variation");
    }
    if let Mode::Play(p) = &mut app.mode {
        p.clocks.press(mover, app.now);
        if p.clocks.is_timed() {
            let left = p.clocks.remaining(mover, app.now);
            app.game.set_clock(node, left);
        }
        app.effects
            .push(Effect::Autosave(Saved::capture(app).to_text()));
    }
}

fn overlay_key(app: &mut App, key: EditKey) {
    let Some(overlay) = app.overlay.take() else {
        return;
    };
    match overlay {
        Overlay::Help { scroll } => super::help::key(app, scroll, key),
        Overlay::Confirm(action) => confirm::key(app, action, key),
        Overlay::ConfirmQuit => match key {
            EditKey::Char('y' | 'Y') => {
                app.quit = true;
                confirm::save_before_leaving(app, true);
            }
            EditKey::Char('n' | 'N') => {
                app.effects.push(Effect::ClearAutosave);
                app.quit = true;
            }
            EditKey::Esc => {}
            _ => app.overlay = Some(Overlay::ConfirmQuit),
        },
        Overlay::Resume(saved) => match key {
            EditKey::Char('y' | 'Y') | EditKey::Enter => start::resume(app, &saved),
            EditKey::Char('n' | 'N') | EditKey::Esc => {
                if let Some(file) = saved.file.clone() {
                    app.effects.push(Effect::RemoveAutosave(file));
                }
                app.info("the unfinished work of last time was discarded");
            }
            _ => app.overlay = Some(Overlay::Resume(saved)),
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
                (None, EditKey::Esc) => app.selected = None,
                _ => app.overlay = Some(Overlay::Promotion { from, to }),
            }
        }
        Overlay::NewGame(d) => start::new_game_key(app, d, key),
    }
}

fn start_game_pass(app: &mut App) {
    start::enter_analyse(app);
    if let Mode::Analyse(a) = &mut app.mode {
        a.infinite = false;
        a.game_pass = Some(NodeId::ROOT);
    }
}

/// Saves the game as PGN: appended to `path`, or to the games file.
pub fn save_game(app: &mut App, path: Option<std::path::PathBuf>) {
    let Some(path) = path.or_else(|| app.games_file.clone()) else {
        return app.error("no data directory to save games in");
    };
    write_game(app, path, true);
}

/// Queues the game for writing: appended to `path`, or replacing the file. A game read from
/// `path` replaces only itself there; another file that holds games is not replaced without a
/// question.
pub fn write_game(app: &mut App, path: std::path::PathBuf, append: bool) {
    // A Result tag that contradicts the moves' result is not written without a word.
    let game = app.game.to_game();
    let tag = game.headers.get("Result").unwrap_or("*").to_owned();
    if tag != game.result.as_str() {
        let moves = game.result.as_str().to_owned();
        app.overlay = Some(Overlay::Confirm(Pending::ResultConflict {
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
pub fn write_checked(app: &mut App, path: std::path::PathBuf, append: bool) {
    // Saved to its own file, a game replaces itself there (appending would make a copy).
    let origin = app
        .game
        .origin()
        .filter(|o| o.path == path || crate::game::same_file(&o.path, &path))
        .cloned();
    if origin.is_none() && !append {
        let games = games_in(&path);
        if games > 0 {
            app.overlay = Some(Overlay::Confirm(Pending::Overwrite { path, games }));
            return;
        }
    }
    queue_write(app, path, append, origin);
}

/// Queues the write that `write_game` decided on.
pub fn queue_write(
    app: &mut App,
    path: std::path::PathBuf,
    append: bool,
    origin: Option<crate::game::GameOrigin>,
) {
    queue_write_then(app, path, append, origin, true);
}

/// Queues a write; `resumable` false when the game is being left for good (saved, then
/// replaced by a new one), so its autosave goes once it is in the file.
pub fn queue_write_then(
    app: &mut App,
    path: std::path::PathBuf,
    append: bool,
    origin: Option<crate::game::GameOrigin>,
    resumable: bool,
) {
    // A game against the engine that is over has nothing to resume; one saved before its end
    // stays resumable, and its autosave will say where it went.
    let playing = matches!(app.mode, Mode::Play(_));
    let finished = app.game.end().is_some() || !resumable;
    app.effects.push(Effect::SaveGame {
        path,
        game: Box::new(app.game.to_game()),
        append,
        clears_autosave: !playing || finished,
        origin: origin.map(Box::new),
        resume: (playing && !finished).then(|| Box::new(Saved::capture(app))),
    });
    app.saved = true;
    if let Mode::Play(p) = &mut app.mode {
        p.recorded = true;
    }
}
