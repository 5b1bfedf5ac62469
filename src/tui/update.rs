//! `update(&mut App, Action)`: the only place the interface state changes. Side effects
//! (engine commands, file writes) are queued in `app.effects` for the event loop.

use crate::chess::{Color, Move, Piece, Position, Square};
use crate::game::{GameMove, NodeId};

use super::app::{
    AnalyseState, App, Effect, Mode, NewGameDialog, Overlay, PlayState, Prompt, PromptKind,
    Purpose, Search, promotion_role,
};
use super::autosave::Saved;
use super::browse::{self, LibraryEvent};
use super::clock::{Clocks, PRESETS, TimeControl};
use super::config::BUILTIN;
use super::confirm::{self, Pending};
use super::engine_link::{EngineCommand, EngineEvent, EngineOptions, GoLimits, SearchId};
use super::game::{Record, king_target};
use super::input::EditKey;
use super::keymap::Command;
use super::layout;
use super::setup::SetupState;
use super::{edit, endgame, play, tablebase, undo};

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
    if action.is_user() {
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
            app.selected = None;
            app.hint = None;
            app.message = None;
        }
        Action::TypeMove(key) => type_move(app, key),
        Action::Prompt(key) => super::prompt::key(app, key),
        Action::Overlay(key) => overlay_key(app, key),
        Action::Setup(key) => setup_key(app, key),
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
        Action::Engine(id, event) => engine_event(app, id, event),
        Action::Tick => play::tick(app),
        Action::JobDone(Ok(msg)) => app.info(msg),
        Action::JobDone(Err(msg)) => app.error(msg),
        Action::Tablebase(pos, answer) => app.tb.store(*pos, answer),
    }
    settle(app);
}

/// Follow-ups of any change: the book reply, the end of the game, the engine's task.
pub fn settle(app: &mut App) {
    play::book_reply(app);
    play::check_end(app);
    endgame::settle(app);
    tablebase::request(app);
    sync_engine(app);
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
    if edit::command(app, c) {
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
        Command::Setup => enter_setup(app),
        Command::ModePlay => confirm::ask_or_do(app, Pending::NewGame),
        Command::ModeAnalyse => enter_analyse(app),
        Command::ModeBrowse => browse::enter(app),
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
        _ => Prompt::new(kind, ""),
    });
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
    app.input.clear();
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

fn type_move(app: &mut App, key: EditKey) {
    match key {
        EditKey::Char(c) if !c.is_whitespace() => app.input.push(c),
        EditKey::Backspace => {
            app.input.pop();
        }
        EditKey::Esc => app.input.clear(),
        EditKey::Tab => {
            let matches = completions(app.position(), &app.input);
            if let Some(prefix) = super::prompt::common_prefix(&matches) {
                app.input = prefix;
            }
        }
        EditKey::Enter => match parse_typed(app.position(), &app.input) {
            Ok(m) => make_move(app, m),
            Err(e) => app.error(e),
        },
        _ => {}
    }
}

/// SAN or UCI, or the one legal move the text is a prefix of.
pub fn parse_typed(pos: &Position, text: &str) -> Result<Move, String> {
    let san = pos.parse_san(text);
    if let Ok(m) = san {
        return Ok(m);
    }
    if let Ok(m) = pos.parse_uci(text) {
        return Ok(m);
    }
    if let Err(crate::chess::SanError::Ambiguous(_)) = san {
        return Err(format!(
            "{text} is ambiguous: {}",
            or_list(&disambiguations(pos, text))
        ));
    }
    let matches = completions(pos, text);
    match matches.as_slice() {
        [one] => pos.parse_san(one).map_err(|e| e.to_string()),
        [] => Err(format!("{text} is not legal here")),
        many => Err(format!("{text} could be {}", or_list(many))),
    }
}

/// The legal moves an ambiguous SAN could mean: same piece, same target, a file or rank more.
fn disambiguations(pos: &Position, text: &str) -> Vec<String> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let (Some(piece), Some(target)) = (bare.get(..1), bare.get(bare.len().saturating_sub(2)..))
    else {
        return Vec::new();
    };
    pos.legal_moves()
        .iter()
        .map(|&m| pos.san(m))
        .filter(|san| {
            let s = san.trim_end_matches(['+', '#']);
            s.starts_with(piece) && s.ends_with(target) && s.len() > bare.len()
        })
        .collect()
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Legal moves in SAN whose SAN (or UCI) starts with `text`.
pub fn completions(pos: &Position, text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .filter_map(|&m| {
            let san = pos.san(m);
            (san.starts_with(text) || pos.uci(m).starts_with(text)).then_some(san)
        })
        .collect()
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
                save_game(app, None);
            }
            EditKey::Char('n' | 'N') => {
                app.effects.push(Effect::ClearAutosave);
                app.quit = true;
            }
            EditKey::Esc => {}
            _ => app.overlay = Some(Overlay::ConfirmQuit),
        },
        Overlay::Resume(saved) => match key {
            EditKey::Char('y' | 'Y') | EditKey::Enter => resume(app, &saved),
            EditKey::Char('n' | 'N') | EditKey::Esc => app.effects.push(Effect::ClearAutosave),
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
        Overlay::NewGame(mut d) => match key {
            EditKey::Up => {
                d.field = d.field.saturating_sub(1);
                app.overlay = Some(Overlay::NewGame(d));
            }
            EditKey::Down | EditKey::Tab => {
                d.field = (d.field + 1) % 4;
                app.overlay = Some(Overlay::NewGame(d));
            }
            EditKey::Left | EditKey::Right => {
                let step = if key == EditKey::Left { -1 } else { 1 };
                match d.field {
                    0 => d.color = !d.color,
                    1 => {
                        d.preset =
                            (d.preset as i32 + step).rem_euclid(PRESETS.len() as i32) as usize
                    }
                    2 => d.level = (i32::from(d.level) + step).clamp(1, 20) as u8,
                    _ => {
                        let all = super::config::BookChoice::ALL;
                        let i = all.iter().position(|&c| c == d.book).unwrap_or(1) as i32;
                        d.book = all[(i + step).rem_euclid(all.len() as i32) as usize];
                    }
                }
                app.overlay = Some(Overlay::NewGame(d));
            }
            EditKey::Enter => {
                let tc = PRESETS[d.preset].parse().expect("presets parse");
                app.config.book_choice = d.book;
                start_play(app, Position::startpos(), d.color, tc, d.level);
            }
            EditKey::Esc => {}
            _ => app.overlay = Some(Overlay::NewGame(d)),
        },
    }
}

pub fn open_new_game(app: &mut App) {
    let tc = app.config.time_control.to_string();
    let preset = PRESETS
        .iter()
        .position(|p| p.parse::<TimeControl>().ok().map(|t| t.to_string()) == Some(tc.clone()));
    app.overlay = Some(Overlay::NewGame(NewGameDialog {
        field: 0,
        color: play::configured_color(&app.config, app.now),
        preset: preset.unwrap_or(2),
        level: app.config.level,
        book: app.config.book_choice,
    }));
}

/// Starts a game against the engine from `start`.
pub fn start_play(app: &mut App, start: Position, human: Color, tc: TimeControl, level: u8) {
    app.game = Record::new(start);
    // Clocks start with the first move.
    let clocks = Clocks::new(tc);
    app.mode = Mode::Play(PlayState {
        human,
        level,
        clocks,
        recorded: false,
        hint_pending: false,
        expected: None,
    });
    play::set_headers(app);
    app.flipped = human == Color::Black;
    reset_view(app);
    set_engine_options(app);
    app.info(format!(
        "new game: you play {} ({tc}, level {level})",
        human.fold("White", "Black")
    ));
}

fn resume(app: &mut App, saved: &Saved) {
    let (start, moves) = match saved.replay() {
        Ok(r) => r,
        Err(e) => return app.error(e.to_string()),
    };
    match saved.human() {
        Some(human) => {
            start_play(
                app,
                start,
                human,
                saved.time_control(),
                saved.level.unwrap_or(20),
            );
            if let (Mode::Play(p), Some((w, b))) = (&mut app.mode, saved.remaining()) {
                p.clocks
                    .set_remaining(crate::chess::ByColor { white: w, black: b });
            }
        }
        None => enter_analyse_from(app, start),
    }
    for m in moves {
        app.game.play(m);
    }
    if let Mode::Play(p) = &mut app.mode
        && !app.game.is_empty()
    {
        p.clocks.start(app.game.last().turn(), app.now);
    }
    app.info("resumed the game from last time");
}

fn reset_view(app: &mut App) {
    app.selected = None;
    app.hint = None;
    app.input.clear();
    app.lines.clear();
    app.lines_root = None;
    app.saved = true;
    app.history.clear();
}

pub fn set_engine_options(app: &mut App) {
    let (multipv, level) = match &app.mode {
        Mode::Play(p) => (1, p.level),
        _ => (app.config.multipv, 20),
    };
    app.engine(EngineCommand::Options(EngineOptions {
        hash_mb: app.config.hash_mb,
        threads: app.config.threads,
        multipv,
        level,
    }));
}

/// Analyse mode on the current game (keeping it).
pub fn enter_analyse(app: &mut App) {
    if let Mode::Play(p) = &mut app.mode {
        p.clocks.stop(app.now);
    }
    if !matches!(app.mode, Mode::Analyse(_)) {
        app.mode = Mode::Analyse(AnalyseState::default());
        set_engine_options(app);
    }
}

/// Analyse mode on a new line starting at `start`.
pub fn enter_analyse_from(app: &mut App, start: Position) {
    enter_analyse_with(app, Record::new(start));
}

/// Analyse mode on `game`, from its start.
pub fn enter_analyse_with(app: &mut App, game: Record) {
    if let Mode::Play(p) = &mut app.mode {
        p.clocks.stop(app.now);
    }
    app.game = game;
    reset_view(app);
    app.mode = Mode::Analyse(AnalyseState::default());
    set_engine_options(app);
}

fn enter_setup(app: &mut App) {
    app.mode = Mode::Setup(SetupState::from_position(app.position()));
    app.selected = None;
}

fn setup_key(app: &mut App, key: EditKey) {
    let Mode::Setup(s) = &mut app.mode else {
        return;
    };
    let flip = app.flipped;
    let step = |sq: Square, df: i32, dr: i32| {
        let (df, dr) = if flip { (-df, -dr) } else { (df, dr) };
        let f = (sq.file().index() as i32 + df).clamp(0, 7);
        let r = (sq.rank().index() as i32 + dr).clamp(0, 7);
        Square::new((r * 8 + f) as u32)
    };
    match key {
        EditKey::Left => s.cursor = step(s.cursor, -1, 0),
        EditKey::Right => s.cursor = step(s.cursor, 1, 0),
        EditKey::Up => s.cursor = step(s.cursor, 0, 1),
        EditKey::Down => s.cursor = step(s.cursor, 0, -1),
        EditKey::Char(' ' | 'x') | EditKey::Backspace => s.put(None),
        EditKey::Char(
            c @ ('p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K'),
        ) => {
            s.put(Piece::from_char(c));
        }
        EditKey::Tab | EditKey::Char('w') => s.toggle_turn(),
        EditKey::Char(c @ '1'..='4') => s.toggle_castling(c as usize - '1' as usize),
        EditKey::Char('c') => s.clear(),
        EditKey::Char('s') => *s = SetupState::from_position(&Position::startpos()),
        EditKey::Char('f') => open_prompt(app, PromptKind::Fen),
        EditKey::Enter => match s.build() {
            Ok(pos) => confirm::ask_or_do(
                app,
                Pending::Position(
                    Box::new(pos),
                    "position set up; space starts the engine, n plays it",
                ),
            ),
            Err(e) => s.error = Some(e),
        },
        EditKey::Esc => enter_analyse(app),
        _ => {}
    }
}

fn start_game_pass(app: &mut App) {
    enter_analyse(app);
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

/// Queues the game for writing: appended to `path`, or replacing the file.
pub fn write_game(app: &mut App, path: std::path::PathBuf, append: bool) {
    // A game against the engine that is over, or saved on the way out, has nothing to resume.
    let finished = app.game.end().is_some() || app.quit;
    app.effects.push(Effect::SaveGame {
        path,
        game: Box::new(app.game.to_game()),
        append,
        clears_autosave: matches!(app.mode, Mode::Play(_)) && finished,
    });
    app.saved = true;
    if let Mode::Play(p) = &mut app.mode {
        p.recorded = true;
    }
}

fn engine_event(app: &mut App, id: SearchId, event: EngineEvent) {
    let Some(search) = app.search.as_ref().filter(|s| s.id == id) else {
        return;
    };
    let (purpose, node) = (search.purpose, search.node);
    match event {
        EngineEvent::Notice(msg) => {
            fail_engine(app);
            app.error(msg);
        }
        EngineEvent::Lost(msg) => {
            // Forget the search; `sync_engine` asks the built-in engine instead.
            app.search = None;
            fail_engine(app);
            app.error(msg);
        }
        EngineEvent::Info(info) => {
            if app.lines_root.as_ref() != Some(&search.root) {
                app.lines.clear();
                app.lines_root = Some(search.root.clone());
            }
            // A ponder search's score belongs to a position not (yet) in the game.
            if info.multipv == 1
                && !matches!(purpose, Purpose::Ponder(_))
                && let Some(score) = info.score
            {
                app.game.set_eval(node, score);
            }
            let slot = (info.multipv.max(1) - 1) as usize;
            if slot < app.lines.len() {
                app.lines[slot] = info;
            } else {
                app.lines.push(info);
            }
        }
        EngineEvent::BestMove { best, ponder } => {
            app.search = None;
            match purpose {
                Purpose::Opponent => play::engine_moved(app, node, best, ponder),
                Purpose::Ponder(_) => {
                    // It ended on its own (the engine holds a ponder move back until told):
                    // not started again on this move.
                    if let Mode::Play(p) = &mut app.mode {
                        p.expected = None;
                    }
                }
                Purpose::Hint => {
                    if let (Some(m), Mode::Play(p)) = (best, &mut app.mode) {
                        p.hint_pending = false;
                        app.hint = Some(m);
                        let san = app.game.last().san(m);
                        app.info(format!("hint: {san}"));
                    }
                }
                Purpose::GamePass => {
                    if let Mode::Analyse(a) = &mut app.mode {
                        a.game_pass = app
                            .game
                            .tree()
                            .is_mainline(node)
                            .then(|| app.game.tree().next(node))
                            .flatten();
                        if a.game_pass.is_none() {
                            app.info("game analysis finished");
                        }
                    }
                }
                Purpose::Analysis => {}
            }
        }
    }
}

/// The engine in use failed: the built-in one stands in for the rest of the session (the next
/// search switches to it).
fn fail_engine(app: &mut App) {
    let name = app.engine_current.clone();
    if name != BUILTIN && !app.engines_failed.contains(&name) {
        app.engines_failed.push(name);
    }
}

/// The engine (an `[[engines]]` name or `builtin`) configured for `purpose`, unless it failed.
pub fn engine_for(app: &App, purpose: Purpose) -> String {
    let name = match purpose {
        Purpose::Opponent | Purpose::Hint | Purpose::Ponder(_) => &app.config.opponent,
        Purpose::Analysis | Purpose::GamePass => &app.config.analysis,
    };
    if app.engines_failed.contains(name) || app.config.engine(name).is_none() {
        BUILTIN.into()
    } else {
        name.clone()
    }
}

/// What the engine should be doing for the current state.
fn wanted_search(app: &App) -> Option<(Purpose, NodeId, GoLimits)> {
    if matches!(app.overlay, Some(Overlay::Resume(_) | Overlay::NewGame(_))) {
        return None;
    }
    match &app.mode {
        Mode::Play(p) => {
            let end = app.game.main_end();
            if app.game.end().is_some() {
                None
            } else if app.game.last().turn() != p.human {
                Some((Purpose::Opponent, end, app.opponent_limits()))
            } else if p.hint_pending {
                Some((
                    Purpose::Hint,
                    end,
                    GoLimits::MoveTime(std::time::Duration::from_secs(1)),
                ))
            } else if let Some((node, reply)) = p.expected
                && app.config.ponder
                && node == end
                && ponder_root(app, node, reply).is_some()
            {
                // The limits the engine will have after the expected reply: its own clock is
                // stopped now, and starts at the ponder hit.
                Some((Purpose::Ponder(reply), end, app.opponent_limits()))
            } else {
                None
            }
        }
        Mode::Analyse(a) => match a.game_pass {
            Some(node) => Some((
                Purpose::GamePass,
                node,
                GoLimits::MoveTime(std::time::Duration::from_millis(play::GAME_PASS_MS)),
            )),
            None if a.infinite && app.position().outcome(&[]).is_none() => Some((
                Purpose::Analysis,
                app.game.current_node(),
                GoLimits::Infinite,
            )),
            None => None,
        },
        Mode::Setup(_) | Mode::Browse | Mode::Endgame(_) => None,
    }
}

/// The position after the expected reply `reply` at `node`, if the game goes on there.
fn ponder_root(app: &App, node: NodeId, reply: Move) -> Option<Position> {
    let after = app.game.position(node).play(reply).ok()?;
    (after.count_legal_moves() > 0).then_some(after)
}

/// The position a search for `purpose` at `node` starts from.
fn search_root(app: &App, purpose: Purpose, node: NodeId) -> Option<Position> {
    match purpose {
        Purpose::Ponder(reply) => ponder_root(app, node, reply),
        _ => Some(app.game.position(node).clone()),
    }
}

/// Whether the ponder search running predicted the player's move that led to `node`: it then
/// goes on as the opponent's search there.
fn ponder_hit(app: &App, node: NodeId) -> bool {
    let tree = app.game.tree();
    app.search.as_ref().is_some_and(|s| {
        matches!(s.purpose, Purpose::Ponder(reply)
            if tree.previous(node) == Some(s.node)
                && tree.node(node).game_move() == Some(GameMove::Move(reply))
                && s.root == *app.game.position(node))
    })
}

/// Starts, replaces or stops the search so it matches `wanted_search`.
fn sync_engine(app: &mut App) {
    let wanted = wanted_search(app);
    if let Some((Purpose::Opponent, node, _)) = wanted
        && ponder_hit(app, node)
    {
        app.engine(EngineCommand::PonderHit);
        if let Some(s) = &mut app.search {
            s.purpose = Purpose::Opponent;
            s.node = node;
            s.started = app.now;
        }
        return;
    }
    let current = app
        .search
        .as_ref()
        .map(|s| (s.purpose, s.node, s.root.clone()));
    let same = match (&wanted, &current) {
        (Some((p, node, _)), Some((cp, cnode, root))) => {
            p == cp && node == cnode && search_root(app, *p, *node).as_ref() == Some(root)
        }
        (None, None) => true,
        _ => false,
    };
    if same {
        return;
    }
    if app.search.take().is_some() {
        app.engine(EngineCommand::Stop);
    }
    if let Some((purpose, node, limits)) = wanted {
        let Some(root) = search_root(app, purpose, node) else {
            return;
        };
        let id = app.next_search_id;
        app.next_search_id += 1;
        let (start, mut moves) = app.game.engine_line(node);
        if let Purpose::Ponder(reply) = purpose {
            moves.push(reply);
        }
        let engine = engine_for(app, purpose);
        if engine != app.engine_current {
            let spec = app.config.engine(&engine).cloned();
            app.engine(EngineCommand::Use(spec));
            app.engine_current = engine;
        }
        app.engine(EngineCommand::Go {
            id,
            start: Box::new(start),
            moves,
            limits,
            ponder: matches!(purpose, Purpose::Ponder(_)),
        });
        app.search = Some(Search {
            id,
            purpose,
            node,
            root,
            started: app.now,
        });
    }
}
