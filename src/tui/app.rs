//! The one state of the interface. Only `update` changes it; `view` only reads it.

use std::path::PathBuf;
use std::time::Instant;

use crate::book::BookMove;
use crate::chess::{Color, Move, Position, Rng, Role};
use crate::engines::policy::{BookRule, PlayPolicy};
use crate::game::{Game, GameMove, IndexEntry, NodeId};

use super::action::Action;
use super::autosave::Saved;
use super::board_input::BoardInput;
use super::clock::{Clocks, TimeControl};
use super::config::Config;
use super::engine_lines::EngineLines;
use super::explorer::ExplorerPanel;
use super::game::Record;
use super::library::Library;
use super::tablebase::TbPanel;
use crate::engines::service::{EngineCommand, GoLimits, PvInfo};
use crate::game::Score;

pub use super::mode::{AnalyseState, Mode, PlayState};
pub use super::searches::{Purpose, Search, Searches};

pub use super::dialog::{
    DialogField, Messages, NewGameDialog, Overlay, Pending, Prompt, PromptKind, PromptLine,
    Severity,
};

/// Side effects requested by `update`, carried out by the event loop.
#[derive(Clone, Debug)]
pub enum Effect {
    Engine(EngineCommand),
    /// Write a game as PGN off the UI thread, appended to `path` or replacing it atomically;
    /// the result comes back as a job event.
    SaveGame {
        path: PathBuf,
        game: Box<Game>,
        append: bool,
        /// The saved game is the one in the autosave file, which goes once the save succeeds.
        clears_autosave: bool,
        /// Write the game back over the one it was read from, instead (`path` is its file).
        origin: Option<Box<crate::game::GameOrigin>>,
        /// An unfinished game against the engine: autosaved again once saved, with where it
        /// went, so that it can be resumed and finished there.
        resume: Option<Box<super::autosave::Saved>>,
    },
    Autosave(String),
    ClearAutosave,
    /// Remove an autosave of an earlier run, resumed or discarded.
    RemoveAutosave(PathBuf),
    /// Index a PGN file, then report `LibraryEvent::Indexed`.
    IndexPgn(PathBuf),
    /// Parse every game of a PGN file, reporting the bad ones (`LibraryEvent::Checked`).
    CheckPgn(PathBuf),
    /// Read one game (`LibraryEvent::Loaded`).
    LoadGame {
        path: PathBuf,
        entry: Box<IndexEntry>,
    },
    /// Put this text on the terminal's clipboard.
    Clipboard(String),
    /// Probe the tables for this position off the UI thread.
    Tablebase(Box<Position>),
    /// Ask the explorer's thread (the open game database).
    Explorer(super::explorer::worker::Request),
}

pub struct App {
    config: Config,
    /// Colours on (off when NO_COLOR is set).
    colors: bool,
    mode: Mode,
    game: Record,
    /// The cursor, the piece picked up, a drag, the move being typed, the board's orientation.
    board: BoardInput,
    /// A one-line prompt at the bottom (`:` commands, FEN, file names) and what was entered
    /// at each.
    prompt: PromptLine,
    overlay: Option<Overlay>,
    /// The search the interface wants answers from.
    searches: Searches,
    /// The engine's lines, the position they start from and the cursor in the first.
    lines: EngineLines,
    hint: Option<Move>,
    /// The terminal's columns and rows.
    size: (u16, u16),
    /// The time of the event being handled.
    now: Instant,
    effects: Vec<Effect>,
    /// Actions that follow from the one being handled (a confirmed question, a submitted
    /// prompt, a command typed at the prompt): `update` carries them out before it settles.
    queued: std::collections::VecDeque<Action>,
    quit: bool,
    /// Where the finished games of play mode are appended.
    games_file: Option<PathBuf>,
    /// The edits of analyse mode that can be undone and redone.
    history: super::game::UndoHistory,
    /// The opening book (and tables) the opponent plays with; the book panel shows its book.
    policy: PlayPolicy,
    /// Random Chess960 starts and endgame positions.
    rng: Rng,
    /// The PGN file open in browse mode.
    library: Option<Library>,
    /// The tablebases and their answers.
    tb: TbPanel,
    /// The analysis last autosaved (empty: none is in the autosave file).
    autosaved: String,
    /// The game database and its explorer panel.
    explorer: ExplorerPanel,
    /// The status line's message and every message shown.
    messages: Messages,
}

impl App {
    pub fn new(config: Config, now: Instant) -> App {
        App {
            config,
            colors: true,
            mode: Mode::Analyse(AnalyseState::default()),
            game: Record::new(Position::startpos()),
            board: BoardInput::default(),
            prompt: PromptLine::default(),
            overlay: None,
            searches: Searches::default(),
            lines: EngineLines::default(),
            hint: None,
            size: (80, 24),
            now,
            effects: Vec::new(),
            queued: Default::default(),
            quit: false,
            games_file: None,
            history: Default::default(),
            policy: PlayPolicy::default(),
            rng: Rng::from_time(),
            library: None,
            tb: TbPanel::default(),
            autosaved: String::new(),
            explorer: ExplorerPanel::default(),
            messages: Messages::default(),
        }
    }

    /// Colours on (off when NO_COLOR is set).
    pub fn colors(&self) -> bool {
        self.colors
    }

    pub fn set_colors(&mut self, on: bool) {
        self.colors = on;
    }

    /// The time of the event being handled: clocks run on it.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// The event loop's clock: the time of the next event.
    pub fn set_now(&mut self, now: Instant) {
        self.now = now;
    }

    /// Stops the clocks of a game against the engine (leaving it, or ending it).
    pub fn stop_clocks(&mut self) {
        if let Mode::Play(p) = &mut self.mode {
            p.clocks.stop(self.now);
        }
    }

    /// The terminal's columns and rows.
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    pub fn resize(&mut self, columns: u16, rows: u16) {
        self.size = (columns, rows);
    }

    /// What the user is doing, and that mode's state.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    pub fn mode_mut(&mut self) -> &mut Mode {
        &mut self.mode
    }

    /// Enters another mode.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// The dialog over the board, if one is open.
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlay.as_ref()
    }

    pub fn overlay_mut(&mut self) -> Option<&mut Overlay> {
        self.overlay.as_mut()
    }

    pub fn open_overlay(&mut self, overlay: Overlay) {
        self.overlay = Some(overlay);
    }

    /// Closes the dialog, handing it over.
    pub fn take_overlay(&mut self) -> Option<Overlay> {
        self.overlay.take()
    }

    /// The move suggested on the board (a hint, a puzzle's answer, the tables' best move).
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    pub fn set_hint(&mut self, hint: Option<Move>) {
        self.hint = hint;
    }

    /// Clears what belongs to the position shown before it changed: the piece picked up, the
    /// hint, and the engine line's cursor (back to the shown position).
    pub fn clear_marks(&mut self) {
        self.board.select(None);
        self.hint = None;
        self.lines.reset_cursor();
    }

    /// The PGN file open in browse mode.
    pub fn library(&self) -> Option<&Library> {
        self.library.as_ref()
    }

    pub fn library_mut(&mut self) -> Option<&mut Library> {
        self.library.as_mut()
    }

    pub fn set_library(&mut self, library: Library) {
        self.library = Some(library);
    }

    pub fn lines(&self) -> &EngineLines {
        &self.lines
    }

    pub fn lines_mut(&mut self) -> &mut EngineLines {
        &mut self.lines
    }

    pub fn searches(&self) -> &Searches {
        &self.searches
    }

    pub fn searches_mut(&mut self) -> &mut Searches {
        &mut self.searches
    }

    pub fn messages(&self) -> &Messages {
        &self.messages
    }

    pub fn messages_mut(&mut self) -> &mut Messages {
        &mut self.messages
    }

    pub fn policy(&self) -> &PlayPolicy {
        &self.policy
    }

    pub fn policy_mut(&mut self) -> &mut PlayPolicy {
        &mut self.policy
    }

    pub fn tb(&self) -> &TbPanel {
        &self.tb
    }

    pub fn tb_mut(&mut self) -> &mut TbPanel {
        &mut self.tb
    }

    pub fn explorer(&self) -> &ExplorerPanel {
        &self.explorer
    }

    pub fn explorer_mut(&mut self) -> &mut ExplorerPanel {
        &mut self.explorer
    }

    pub fn prompt(&self) -> &PromptLine {
        &self.prompt
    }

    pub fn prompt_mut(&mut self) -> &mut PromptLine {
        &mut self.prompt
    }

    pub fn board(&self) -> &BoardInput {
        &self.board
    }

    pub fn board_mut(&mut self) -> &mut BoardInput {
        &mut self.board
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    pub fn game(&self) -> &Record {
        &self.game
    }

    pub fn game_mut(&mut self) -> &mut Record {
        &mut self.game
    }

    pub fn position(&self) -> &Position {
        self.game.current()
    }

    /// The player's colour when playing against the engine.
    pub fn human(&self) -> Option<Color> {
        match &self.mode {
            Mode::Play(p) => Some(p.human),
            _ => None,
        }
    }

    pub fn clocks(&self) -> Option<&Clocks> {
        match &self.mode {
            Mode::Play(p) if p.clocks.control() != TimeControl::Untimed => Some(&p.clocks),
            _ => None,
        }
    }

    /// Whether replacing the game would lose something: a game against the engine in progress,
    /// or changes not yet saved.
    pub fn has_unsaved_work(&self) -> bool {
        match &self.mode {
            Mode::Play(p) => !p.recorded && !self.game.is_empty(),
            _ => !self.game.is_saved() && !self.game.is_empty(),
        }
    }

    /// Legal moves of the selected piece (castling shown on the king's target square too).
    pub fn destinations(&self) -> Vec<Move> {
        let Some(from) = self.board.selected() else {
            return Vec::new();
        };
        self.position()
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect()
    }

    /// The engine's judgement stays hidden: while solving puzzles, or while a game against it
    /// is on and the config does not ask to see it.
    pub fn engine_hidden(&self) -> bool {
        matches!(self.mode, Mode::Learn(_))
            || matches!(self.mode, Mode::Play(_))
                && self.game.end().is_none()
                && !self.config.show_engine_in_play
    }

    /// With the PV cursor on: the position before the line's move at the cursor, that move,
    /// and the line's move before it.
    pub fn pv_preview(&self) -> Option<(Position, Move, Option<Move>)> {
        let pv = &self.shown_lines().first()?.pv;
        let k = self.lines.cursor().min(pv.len());
        if k == 0 {
            return None;
        }
        let mut pos = self.position().clone();
        for &m in &pv[..k - 1] {
            pos = pos.play(m).ok()?;
        }
        Some((pos, pv[k - 1], k.checked_sub(2).map(|i| pv[i])))
    }

    /// The engine's lines when they are for the shown position and may be shown; else none.
    pub fn shown_lines(&self) -> &[PvInfo] {
        if self.engine_hidden() {
            &[]
        } else {
            self.lines.for_position(self.position())
        }
    }

    /// The engine's best move in the shown position, where its lines may be shown.
    pub fn engine_best_move(&self) -> Option<Move> {
        self.shown_lines().first()?.pv.first().copied()
    }

    /// The best score known for the shown position, White's view.
    pub fn shown_eval(&self) -> Option<Score> {
        if self.engine_hidden() {
            return None;
        }
        match self.shown_lines().first() {
            Some(first) => first.score,
            None => self.game.eval(self.game.current_node()),
        }
    }

    /// Shows `node` (nothing happens at either end of a line).
    pub fn navigate(&mut self, node: Option<NodeId>) {
        let app = self;
        let Some(node) = node else {
            return;
        };
        app.game_mut().goto(node);
        app.clear_marks();
    }

    /// Carries `action` out now, or asks first when it would throw away work.
    pub fn ask_or_do(&mut self, action: Pending) {
        let app = self;
        let asks = match action {
            Pending::Changed(_) => true,
            Pending::Resign => app.human().is_some() && app.game().end().is_none(),
            Pending::Analyse => {
                app.human().is_some() && app.game().end().is_none() && !app.game().is_empty()
            }
            // The list keeps the game until another is opened; a game in play would stop.
            Pending::Browse => app.has_unsaved_work() && !matches!(app.mode, Mode::Browse),
            _ => app.has_unsaved_work(),
        };
        if asks {
            app.open_overlay(Overlay::Confirm(action));
        } else {
            app.follow(Action::Confirmed(action));
        }
    }

    /// What the autosave file keeps of the game and the mode.
    pub fn snapshot(&self) -> Saved {
        let app = self;
        let game = &app.game();
        let tree = game.tree();
        let moves = game
            .mainline()
            .map_while(|n| match tree.node(n).game_move() {
                Some(GameMove::Move(m)) => tree.previous(n).map(|p| tree.position(p).uci(m)),
                _ => None,
            })
            .collect();
        let origin = game.origin();
        let mut saved = Saved {
            fen: game.start().fen(),
            moves,
            human: None,
            level: None,
            time_control: None,
            white_ms: None,
            black_ms: None,
            pgn: None,
            shown: Vec::new(),
            origin_path: origin.map(|o| o.path.to_string_lossy().into_owned()),
            origin_number: origin.map(|o| o.number),
            origin_offset: origin.map(|o| o.offset),
            // Bytes that are not UTF-8 come back different, and a write-back then refuses.
            origin_text: origin.map(|o| String::from_utf8_lossy(&o.bytes).into_owned()),
            saved_to: None,
            file: None,
        };
        if let Mode::Analyse(_) = &app.mode {
            saved.pgn = Some(game.to_game().to_pgn());
            saved.shown = super::autosave::path_to(tree, game.current_node());
        }
        if let Mode::Play(p) = &app.mode {
            saved.human = Some(p.human.fold("white", "black").into());
            saved.level = Some(p.level);
            saved.time_control = Some(p.clocks.control().to_string());
            saved.white_ms = Some(p.clocks.remaining(Color::White, app.now()).as_millis() as u64);
            saved.black_ms = Some(p.clocks.remaining(Color::Black, app.now()).as_millis() as u64);
        }
        saved
    }

    /// The opponent's book move at the main line's end, if the book has one under `rule`.
    pub fn book_pick(&mut self, rule: BookRule) -> Option<Move> {
        self.policy
            .book_move(self.game.last(), self.game.len(), rule)
    }

    /// Book moves of the shown position, most weight first.
    pub fn book_moves(&self) -> Vec<BookMove> {
        let mut moves = self
            .policy
            .book()
            .map_or_else(Vec::new, |b| b.probe(self.position()));
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// What the reference panel shows for the shown position.
    pub fn reference(&self) -> Reference {
        match &self.mode {
            // Book and tables would tell a puzzle's answer.
            Mode::Setup(_) | Mode::Browse | Mode::Learn(_) => Reference::None,
            Mode::Endgame(e) if e.summary.is_none() => Reference::Trainer,
            _ if self.tb.applies(self.position()) => Reference::Tablebase,
            _ if !self.book_moves().is_empty() => Reference::Book,
            _ => Reference::None,
        }
    }

    /// Lines of the reference panel for the shown position; 0 hides it.
    pub fn reference_lines(&self) -> u16 {
        match self.reference() {
            Reference::None => 0,
            Reference::Book => 2,
            Reference::Trainer => 4,
            Reference::Tablebase => match self.tb.answer(self.position()) {
                Some(Ok(view)) => view.ranking.moves.len().clamp(1, 16) as u16,
                _ => 1,
            },
        }
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.show(Severity::Info, text.into());
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.show(Severity::Error, text.into());
    }

    /// Shows a message in the status line and keeps it in the log.
    pub fn show(&mut self, severity: Severity, text: String) {
        self.messages.show(severity, text);
    }

    /// The message in the status line.
    pub fn message(&self) -> Option<&(Severity, String)> {
        self.messages.shown()
    }

    pub fn engine(&mut self, command: EngineCommand) {
        self.effects.push(Effect::Engine(command));
    }

    /// Asks the event loop for a side effect.
    pub fn effect(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    /// The side effects asked for so far, oldest first.
    pub fn effects(&self) -> &[Effect] {
        &self.effects
    }

    /// Hands the side effects asked for to the event loop.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// An action to carry out after the one being handled, before `update` settles.
    pub fn follow(&mut self, action: Action) {
        self.queued.push_back(action);
    }

    /// The next action queued by `follow`.
    pub fn next_followed(&mut self) -> Option<Action> {
        self.queued.pop_front()
    }

    /// Ends the session (the event loop stops after this update).
    pub fn quit(&mut self) {
        self.quit = true;
    }

    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// Where the finished games of play mode are appended.
    pub fn games_file(&self) -> Option<&std::path::Path> {
        self.games_file.as_deref()
    }

    pub fn set_games_file(&mut self, path: Option<PathBuf>) {
        self.games_file = path;
    }

    /// The edits of analyse mode that can be undone and redone.
    pub fn undo_history(&mut self) -> &mut super::game::UndoHistory {
        &mut self.history
    }

    /// Random Chess960 starts and endgame positions.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// Notes `text` as the analysis in the autosave file: whether it differs from the last.
    pub fn note_autosaved(&mut self, text: &str) -> bool {
        let changed = self.autosaved != text;
        if changed {
            text.clone_into(&mut self.autosaved);
        }
        changed
    }

    /// Forgets the autosaved analysis: whether there was one.
    pub fn forget_autosaved(&mut self) -> bool {
        let had = !self.autosaved.is_empty();
        self.autosaved.clear();
        had
    }

    /// Limits for the opponent's search in play mode.
    pub fn opponent_limits(&self) -> GoLimits {
        match &self.mode {
            Mode::Play(p) if p.clocks.is_timed() => GoLimits::Clock {
                white: p.clocks.remaining(Color::White, self.now),
                black: p.clocks.remaining(Color::Black, self.now),
                white_inc: p.clocks.increment(),
                black_inc: p.clocks.increment(),
                max_move: p.clocks.control().human_pace(),
            },
            _ => GoLimits::MoveTime(std::time::Duration::from_secs(2)),
        }
    }
}

/// The panel between the move list and the engine lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reference {
    None,
    /// Book moves with their weights.
    Book,
    /// The tablebase verdict of every move.
    Tablebase,
    /// The endgame trainer's grades (the tables stay hidden until the drill ends).
    Trainer,
}

/// A promotion piece chosen by key.
pub fn promotion_role(c: char) -> Option<Role> {
    match c.to_ascii_lowercase() {
        'q' => Some(Role::Queen),
        'r' => Some(Role::Rook),
        'b' => Some(Role::Bishop),
        'n' => Some(Role::Knight),
        _ => None,
    }
}
