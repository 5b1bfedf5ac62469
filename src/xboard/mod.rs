//! The xboard/WinBoard protocol (CECP version 2), engine side: `kibitzer xboard`. The same engine,
//! book, tables and strength levels as UCI, driven the way xboard drives an engine: the engine
//! plays a side (or none, in force mode), moves when it is its turn, ponders when `hard`, and
//! analyses in `analyze` mode. Engine events are printed by a separate thread, which also plays
//! the engine's move into the game, so `?`, `ping` and `force` are answered during a search.

mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::chess::{ByColor, CastlingMode, Color, Move, Position, UciMove};
use crate::engine::{
    Clock, Engine, EngineOptions, Limit, Score, SearchEvent, SearchInfo, SearchLimits,
};
use crate::engines::cecp::parse_move;
use crate::engines::policy::{BookRule, PlayPolicy};
use crate::engines::protocol::read_lines;
use crate::engines::settings::{self, Settings};

const NAME: &str = concat!("kibitzer ", env!("CARGO_PKG_VERSION"));

pub use crate::engines::protocol::Output;

/// What a search started for, so its result is used as it should be. The engine finishes its
/// searches in order, one best move each: the oldest entry is the search reporting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// The engine's move: played and sent.
    Play,
    /// On the opponent's time, after the reply it expects; becomes `Play` if that reply comes.
    Ponder(Move),
    /// `analyze` mode: lines only.
    Analyze,
    /// Overtaken (the game changed, `force`, a missed ponder): its result is dropped.
    Dropped,
}

/// Time controls as `level`, `st`, `sd`, `nps`, `time` and `otim` set them.
#[derive(Clone, Debug, Default)]
struct TimeControl {
    /// Moves per session (0: the whole game), base and increment (`level`).
    moves_per_session: u32,
    increment: Duration,
    /// `st`: exactly this long a move.
    move_time: Option<Duration>,
    /// `sd`: no deeper than this.
    depth: Option<u32>,
    /// `nps`: think as if searching this many nodes a second.
    nps: Option<u64>,
    /// `time` and `otim`: the clocks, ours and the opponent's.
    ours: Option<Duration>,
    theirs: Option<Duration>,
}

/// The last search report, for `.`, draw offers and hints.
#[derive(Clone, Debug, Default)]
struct LastInfo {
    depth: u32,
    nodes: u64,
    time: Duration,
    /// From the engine's side (the side to move at its root), centipawns; mates far out.
    cp: i32,
    pv: Vec<Move>,
}

/// Everything the command loop and the printer share.
struct State {
    engine: Engine,
    out: Output,
    start: Position,
    moves: Vec<Move>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    chess960: bool,
    searches: VecDeque<Purpose>,
    tc: TimeControl,
    policy: PlayPolicy,
    last: LastInfo,
    options: Settings,
}

/// The `kibitzer xboard` session.
pub struct Session {
    state: Arc<Mutex<State>>,
    printer: Option<JoinHandle<()>>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Session {
    pub fn new(out: Output) -> Session {
        let (engine, events) = Engine::new(EngineOptions::default());
        let state = Arc::new(Mutex::new(State {
            options: Settings::new(engine.options()),
            engine,
            out,
            start: Position::startpos(),
            moves: Vec::new(),
            engine_side: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            chess960: false,
            searches: VecDeque::new(),
            tc: TimeControl::default(),
            policy: PlayPolicy::default(),
            last: LastInfo::default(),
        }));
        // The printer holds the state weakly: dropping the session drops the engine, which
        // closes the event channel and ends the printer.
        let printer = {
            let state = Arc::downgrade(&state);
            std::thread::Builder::new()
                .name("xboard-print".into())
                .spawn(move || {
                    for event in events.iter() {
                        let Some(state) = state.upgrade() else {
                            break;
                        };
                        lock(&state).event(event);
                    }
                })
                .expect("spawning the xboard printer")
        };
        Session {
            state,
            printer: Some(printer),
        }
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        lock(&self.state).command(line.trim())
    }

    /// Stops the engine and waits for its last events to be printed.
    pub fn shutdown(self) {
        let Session { state, printer } = self;
        {
            let mut state = lock(&state);
            state.engine.stop();
            state.engine.wait();
        }
        // The printer ends when the engine (its event sender) is gone.
        drop(state);
        if let Some(printer) = printer {
            let _ = printer.join();
        }
    }
}

/// Reads commands until `quit` or the end of input (lines that are not UTF-8 are read lossily).
pub fn run(input: impl BufRead, out: Output) {
    let mut session = Session::new(out);
    read_lines(input, |line| session.handle_line(&line));
    session.shutdown();
}

impl State {
    fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The keys of the positions before the current one, for repetitions.
    fn history(&self) -> Vec<u64> {
        let mut pos = self.start.clone();
        let mut keys = vec![pos.hash()];
        for &m in &self.moves {
            pos.play_unchecked(m);
            keys.push(pos.hash());
        }
        keys.pop();
        keys
    }

    /// The move as xboard writes it: coordinates, castling as O-O in Chess960.
    fn format_move(&self, m: Move) -> String {
        if self.chess960 && m.is_castle() {
            return if m.to() > m.from() { "O-O" } else { "O-O-O" }.to_owned();
        }
        UciMove::from_move(m, CastlingMode::Standard).to_string()
    }

    fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "bk" | "otherboard" => {}
            "protover" => self.features(),
            "quit" => return false,
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" => {
                self.drop_searches();
                self.engine_side = None;
            }
            "go" => {
                self.engine_side = Some(self.position().turn());
                self.think();
            }
            "playother" => {
                self.drop_searches();
                self.engine_side = Some(!self.position().turn());
                self.think();
            }
            "usermove" => self.user_move(rest),
            "time" | "otim" => match rest.parse::<u64>() {
                Ok(cs) => {
                    let t = Some(Duration::from_millis(cs * 10));
                    if word == "time" {
                        self.tc.ours = t;
                    } else {
                        self.tc.theirs = t;
                    }
                }
                Err(_) => self.error(line, "a time in centiseconds"),
            },
            "level" => self.level(line, rest),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.tc.move_time = Some(Duration::from_secs_f64(s)),
                _ => self.error(line, "seconds per move"),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.tc.depth = Some(d),
                _ => self.error(line, "a depth"),
            },
            "nps" => match rest.parse::<u64>() {
                Ok(n) => self.tc.nps = (n > 0).then_some(n),
                Err(_) => self.error(line, "nodes per second"),
            },
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(self.searches.back(), Some(Purpose::Ponder(_))) {
                    self.drop_searches();
                }
            }
            "analyze" => {
                self.analyzing = true;
                self.engine_side = None;
                self.think();
            }
            "exit" => {
                self.analyzing = false;
                self.drop_searches();
            }
            "." => self.status(),
            "hint" => self.hint(),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "setboard" => self.set_board(rest),
            "result" => {
                self.drop_searches();
                self.engine_side = None;
            }
            "ping" => self.out.line(&format!("pong {rest}")),
            "draw" => self.draw_offered(),
            "?" => self.engine.stop(),
            "memory" | "cores" | "egtpath" | "option" => self.option(word, rest),
            _ if parse_move(&self.position(), word).is_some() && rest.is_empty() => {
                self.user_move(word);
            }
            _ => self.out.line(&format!("Error (unknown command): {line}")),
        }
        true
    }

    fn error(&self, line: &str, wanted: &str) {
        self.out.line(&format!("Error (expected {wanted}): {line}"));
    }

    fn features(&self) {
        let mut features = vec![
            format!("myname=\"{NAME}\""),
            "setboard=1 usermove=1 ping=1 playother=1 draw=1 sigint=0 sigterm=0 reuse=1".to_owned(),
            "analyze=1 colors=0 san=0 time=1 memory=1 smp=1 egt=\"syzygy\"".to_owned(),
            "variants=\"normal,fischerandom\"".to_owned(),
        ];
        features.extend(
            options::declarations()
                .into_iter()
                .map(|o| format!("option=\"{o}\"")),
        );
        for f in features {
            self.out.line(&format!("feature {f}"));
        }
        self.out.line("feature done=1");
    }

    fn new_game(&mut self) {
        self.drop_searches();
        self.engine.wait();
        self.engine.new_game();
        self.chess960 = false;
        self.start = Position::startpos();
        self.moves.clear();
        self.engine_side = Some(Color::Black);
        self.analyzing = false;
        self.tc.move_time = None;
        self.tc.depth = None;
        self.tc.nps = None;
        self.last = LastInfo::default();
    }

    fn variant(&mut self, name: &str) {
        match name {
            "normal" => self.chess960 = false,
            "fischerandom" => {
                self.chess960 = true;
                self.start.set_castling_mode(CastlingMode::Chess960);
            }
            _ => self
                .out
                .line(&format!("Error (variant not supported): {name}")),
        }
    }

    /// `level MPS BASE INC`: BASE in minutes or minutes:seconds.
    fn level(&mut self, line: &str, rest: &str) {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let [mps, base, inc] = parts[..] else {
            return self.error(line, "level MPS BASE INC");
        };
        let base_ok = base
            .split(':')
            .all(|p| p.parse::<u32>().is_ok() && !p.is_empty());
        match (mps.parse::<u32>(), base_ok, inc.parse::<f64>()) {
            (Ok(mps), true, Ok(inc)) if inc >= 0.0 => {
                self.tc.moves_per_session = mps;
                self.tc.increment = Duration::from_secs_f64(inc);
                self.tc.move_time = None;
            }
            _ => self.error(line, "level MPS BASE INC"),
        }
    }

    fn user_move(&mut self, text: &str) {
        let pos = self.position();
        let Some(m) = parse_move(&pos, text) else {
            return self.out.line(&format!("Illegal move: {text}"));
        };
        if pos.outcome(&self.history()).is_some() {
            return self
                .out
                .line(&format!("Illegal move (the game is over): {text}"));
        }
        // The reply the ponder search expected: it goes on as the engine's own search.
        let pondered = match self.searches.back() {
            Some(&Purpose::Ponder(expected)) if expected == m => true,
            _ => {
                self.drop_searches();
                false
            }
        };
        self.moves.push(m);
        if pondered {
            if let Some(last) = self.searches.back_mut() {
                *last = Purpose::Play;
            }
            self.engine.ponderhit();
            return;
        }
        self.think();
    }

    /// Stops the running search and drops what it would say.
    fn drop_searches(&mut self) {
        for purpose in &mut self.searches {
            *purpose = Purpose::Dropped;
        }
        self.engine.stop();
    }

    /// Starts what the state asks for: analysis, or the engine's move when it is its turn.
    fn think(&mut self) {
        self.drop_searches();
        let pos = self.position();
        if pos.outcome(&self.history()).is_some() {
            return;
        }
        if self.analyzing {
            return self.search(
                Purpose::Analyze,
                SearchLimits::infinite(),
                &self.moves.clone(),
            );
        }
        if self.engine_side != Some(pos.turn()) {
            return;
        }
        if let Some(m) = self
            .policy
            .book_move(&pos, self.moves.len(), BookRule::WHILE_KNOWN)
        {
            self.play(m);
            return;
        }
        let limits = self.limits(pos.turn());
        self.search(Purpose::Play, limits, &self.moves.clone());
    }

    fn search(&mut self, purpose: Purpose, limits: SearchLimits, moves: &[Move]) {
        if self.engine.set_position(self.start.clone(), moves).is_err() {
            return;
        }
        self.searches.push_back(purpose);
        self.engine.go(limits);
    }

    /// The limits of the engine's search with `us` to move.
    fn limits(&self, us: Color) -> SearchLimits {
        let tc = &self.tc;
        let mut limits = SearchLimits::default();
        if let Some(d) = tc.depth {
            limits.limits.push(Limit::Depth(d));
        }
        let budget = match (tc.move_time, tc.ours) {
            (Some(t), _) => {
                limits.limits.push(Limit::MoveTime(t));
                Some(t)
            }
            (None, Some(ours)) => {
                let theirs = tc.theirs.unwrap_or(ours);
                let moves_to_go = (tc.moves_per_session > 0).then(|| {
                    let ours_played = (self.moves.len() as u32 + u32::from(us == Color::White)) / 2;
                    tc.moves_per_session - ours_played % tc.moves_per_session
                });
                limits.limits.push(Limit::Clock(Clock {
                    time: ByColor {
                        white: us.fold(ours, theirs),
                        black: us.fold(theirs, ours),
                    },
                    inc: ByColor {
                        white: tc.increment,
                        black: tc.increment,
                    },
                    moves_to_go,
                }));
                Some(ours / moves_to_go.unwrap_or(30).max(1) + tc.increment)
            }
            (None, None) => None,
        };
        // `nps`: as many nodes as that rate gives in the time this move may take.
        if let (Some(nps), Some(budget)) = (tc.nps, budget) {
            let nodes = (nps as f64 * budget.as_secs_f64()).max(1.0) as u64;
            limits.limits.push(Limit::Nodes(nodes));
        }
        if limits.limits.is_empty() {
            limits.limits.push(Limit::MoveTime(Duration::from_secs(5)));
        }
        limits
    }

    /// Plays the engine's move, sends it, and reports the end of the game if it ends it.
    fn play(&mut self, m: Move) {
        self.out.line(&format!("move {}", self.format_move(m)));
        self.moves.push(m);
        let after = self.position();
        if let Some(outcome) = after.outcome(&self.history()) {
            self.out
                .line(&format!("{} {{{outcome}}}", outcome.result()));
        }
    }

    /// An engine event, from the printer thread.
    fn event(&mut self, event: SearchEvent) {
        let Some(&purpose) = self.searches.front() else {
            return;
        };
        match event {
            SearchEvent::Info(info) if info.multipv == 1 && purpose != Purpose::Dropped => {
                self.last = LastInfo {
                    depth: info.depth,
                    nodes: info.nodes,
                    time: info.time,
                    cp: cp_of(info.score),
                    pv: info.pv.clone(),
                };
                if self.post || purpose == Purpose::Analyze {
                    self.out.line(&self.thinking(&info, purpose));
                }
            }
            SearchEvent::Info(_) | SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, ponder } => {
                self.searches.pop_front();
                if purpose != Purpose::Play {
                    return;
                }
                let Some(best) = best else {
                    return;
                };
                self.play(best);
                // On the opponent's time, after the reply the engine expects.
                if let Some(reply) = ponder.filter(|_| self.ponder)
                    && self.position().outcome(&self.history()).is_none()
                {
                    let mut moves = self.moves.clone();
                    moves.push(reply);
                    let mut limits = self.limits(!self.position().turn());
                    limits.ponder = true;
                    self.search(Purpose::Ponder(reply), limits, &moves);
                }
            }
        }
    }

    /// `depth score time nodes pv`: the score in centipawns from the engine's side, mates as
    /// 100000 + moves, the time in centiseconds, the line in coordinates.
    fn thinking(&self, info: &SearchInfo, purpose: Purpose) -> String {
        let mut pos = self.position();
        let mut line = String::new();
        if let Purpose::Ponder(expected) = purpose {
            line.push_str(&format!("({}) ", self.format_move(expected)));
            pos.play_unchecked(expected);
        }
        for &m in &info.pv {
            if !pos.is_legal(m) {
                break;
            }
            line.push_str(&self.format_move(m));
            line.push(' ');
            pos.play_unchecked(m);
        }
        format!(
            "{} {} {} {} {}",
            info.depth,
            cp_of(info.score),
            info.time.as_millis() / 10,
            info.nodes,
            line.trim_end()
        )
    }

    /// `.` in analyze mode: `stat01: time nodes ply moves-left moves-total current-move`.
    fn status(&self) {
        if !self.analyzing {
            return;
        }
        let pos = self.position();
        let current = self
            .last
            .pv
            .first()
            .filter(|&&m| pos.is_legal(m))
            .map_or_else(String::new, |&m| self.format_move(m));
        self.out.line(&format!(
            "stat01: {} {} {} 0 {} {current}",
            self.last.time.as_millis() / 10,
            self.last.nodes,
            self.last.depth,
            pos.legal_moves().len()
        ));
    }

    /// `Hint: MOVE`: the reply the engine expects, else a book move, else its last line's move.
    fn hint(&mut self) {
        let pos = self.position();
        let expected = match self.searches.back() {
            Some(Purpose::Ponder(m)) => Some(*m),
            _ => None,
        };
        let hint = expected
            .or_else(|| {
                self.policy
                    .book_move(&pos, self.moves.len(), BookRule::WHILE_KNOWN)
            })
            .or_else(|| self.last.pv.first().copied())
            .filter(|&m| pos.is_legal(m));
        if let Some(m) = hint {
            self.out.line(&format!("Hint: {}", self.format_move(m)));
        }
    }

    fn take_back(&mut self, plies: usize) {
        if self.moves.len() < plies {
            return self.out.line(&format!(
                "Error (no moves to take back): {}",
                if plies == 1 { "undo" } else { "remove" }
            ));
        }
        self.drop_searches();
        self.moves.truncate(self.moves.len() - plies);
        if self.analyzing {
            self.think();
        }
    }

    fn set_board(&mut self, fen: &str) {
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        match Position::from_fen_with_mode(fen, mode) {
            Ok(pos) => {
                self.drop_searches();
                self.start = pos;
                self.moves.clear();
                if self.analyzing {
                    self.think();
                }
            }
            Err(e) => self
                .out
                .line(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// A draw offer: taken when the engine's last score says it is no better than lost, or a
    /// dead level position late in the game.
    fn draw_offered(&self) {
        let cp = self.last.cp;
        let late_and_level = cp.abs() <= 10 && self.position().fullmoves() >= 40;
        if cp <= -300 || late_and_level {
            self.out.line("offer draw");
        }
    }

    /// `option NAME[=VALUE]`, and `memory`, `cores` and `egtpath syzygy` for the options they
    /// stand for. An unknown option is an error of the command; a value that cannot be used is
    /// told to the user.
    fn option(&mut self, word: &str, rest: &str) {
        let (name, value) = match word {
            "memory" => ("Hash", rest),
            "cores" => ("Threads", rest),
            "egtpath" => match rest.split_once(' ') {
                Some(("syzygy", path)) => ("Syzygy Path", path),
                _ => {
                    let e = format!("egtpath: only syzygy tables: {rest}");
                    return self.out.line(&format!("Error ({e}): {word} {rest}"));
                }
            },
            _ => rest.split_once('=').unwrap_or((rest, "")),
        };
        let name = name.trim();
        let Some(declared) = settings::find(name, false) else {
            let e = format!("no option '{name}'");
            return self.out.line(&format!("Error ({e}): {word} {rest}"));
        };
        match self.options.set(declared, name, Some(value)) {
            Ok(effect) => {
                self.drop_searches();
                self.engine.wait();
                let applied =
                    options::apply(effect, &mut self.engine, &mut self.policy, &self.options);
                if let Err(e) = applied {
                    self.out.line(&format!("tellusererror {e}"));
                }
            }
            Err(e) => self.out.line(&format!("tellusererror {e}")),
        }
    }
}

/// A score as xboard reads it: centipawns, a mate in n as 100000 + n (negative when mated).
fn cp_of(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    }
}
