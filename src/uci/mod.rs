//! The UCI front end: a thin layer over [`crate::engine::Engine`]. Input lines become
//! [`UciCommand`]s; engine events are printed by a separate thread, so `stop`, `isready` and
//! `quit` are answered during a search. Bad input gets an `info string` and is ignored.

mod command;
mod extras;
mod options;

use std::borrow::Cow;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crate::chess::{ByColor, CastlingMode, Move, Position, UciMove};
use crate::engine::bench;
use crate::engine::{
    Bound, Clock, Engine, EngineOptions, Limit, SearchEvent, SearchInfo, SearchLimits,
};
use crate::engines::protocol::read_lines;
use crate::engines::settings::EngineChange;

pub use command::{GoParams, StartPosition, UciCommand, UciError};
use extras::Extras;
use options::{OptionChange, PendingChange};

const NAME: &str = concat!("kibitzer ", env!("CARGO_PKG_VERSION"));

pub use crate::engines::protocol::Output;

/// Settings the printer thread reads while formatting events.
#[derive(Default)]
struct PrintSettings {
    chess960: AtomicBool,
    show_wdl: AtomicBool,
}

pub struct Session {
    engine: Engine,
    out: Output,
    printer: Option<JoinHandle<()>>,
    print: Arc<PrintSettings>,
    start: Position,
    moves: Vec<Move>,
    options: options::Values,
    /// Changes that need an idle engine, applied once the running search ends.
    pending: Vec<PendingChange>,
    extras: Extras,
}

fn format_move(m: Move, chess960: bool) -> String {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    UciMove::from_move(m, mode).to_string()
}

fn format_info(info: &SearchInfo, chess960: bool, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth, info.seldepth, info.multipv, info.score
    );
    match info.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        Bound::Exact => {}
    }
    if show_wdl {
        s += &format!(" wdl {} {} {}", info.wdl.win, info.wdl.draw, info.wdl.loss);
    }
    s += &format!(
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for &m in &info.pv {
            s.push(' ');
            s += &format_move(m, chess960);
        }
    }
    s
}

fn format_event(event: &SearchEvent, settings: &PrintSettings) -> String {
    let chess960 = settings.chess960.load(Ordering::Relaxed);
    match event {
        SearchEvent::Info(info) => {
            format_info(info, chess960, settings.show_wdl.load(Ordering::Relaxed))
        }
        SearchEvent::CurrMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            format_move(*mv, chess960)
        ),
        SearchEvent::BestMove { best, ponder } => {
            let best = best.map_or("0000".to_owned(), |m| format_move(m, chess960));
            match ponder {
                Some(p) => format!("bestmove {best} ponder {}", format_move(*p, chess960)),
                None => format!("bestmove {best}"),
            }
        }
    }
}

impl Session {
    pub fn new(out: Output) -> Session {
        let (engine, events) = Engine::new(EngineOptions::default());
        let print = Arc::new(PrintSettings::default());
        let printer = {
            let out = out.clone();
            let print = Arc::clone(&print);
            std::thread::Builder::new()
                .name("uci-print".into())
                .spawn(move || {
                    for event in events.iter() {
                        out.line(&format_event(&event, &print));
                    }
                })
                .expect("spawning the UCI printer")
        };
        Session {
            options: options::Values::new(engine.options()),
            engine,
            out,
            printer: Some(printer),
            print,
            start: Position::startpos(),
            moves: Vec::new(),
            pending: Vec::new(),
            extras: Extras::default(),
        }
    }

    fn info(&self, msg: &str) {
        for line in msg.lines() {
            self.out.line(&format!("info string {line}"));
        }
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        if line.trim().is_empty() {
            return true;
        }
        match line.parse::<UciCommand>() {
            Ok(command) => self.handle(command),
            Err(e) => {
                self.info(&format!("ignored: {e}"));
                true
            }
        }
    }

    fn apply_pending(&mut self) {
        if self.engine.is_searching() {
            return;
        }
        for change in std::mem::take(&mut self.pending) {
            if let Err(e) = change.apply(&mut self.engine) {
                self.info(&e);
            }
        }
    }

    pub fn handle(&mut self, command: UciCommand) -> bool {
        if !matches!(
            command,
            UciCommand::Stop | UciCommand::IsReady | UciCommand::PonderHit | UciCommand::Quit
        ) {
            self.apply_pending();
        }
        match command {
            UciCommand::Uci => {
                self.out.line(&format!("id name {NAME}"));
                self.out.line("id author the kibitzer authors");
                for line in options::declarations() {
                    self.out.line(&line);
                }
                self.out.line("uciok");
            }
            UciCommand::Debug(_) | UciCommand::Register => {}
            UciCommand::IsReady => self.out.line("readyok"),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::UciNewGame => self.queue(PendingChange::NewGame),
            UciCommand::Position { start, moves } => self.set_position(start, &moves),
            UciCommand::Go(params) => self.go(params),
            UciCommand::Stop => self.engine.stop(),
            UciCommand::PonderHit => self.engine.ponderhit(),
            UciCommand::Quit => return false,
            UciCommand::Display => {
                let pos = self.current_position();
                self.out.line(&format!("{pos}"));
                self.out.line(&format!("Fen: {}", pos.fen()));
                self.out.line(&format!("Key: {:016X}", pos.hash()));
                let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
                self.out.line(&format!("Checkers: {}", checkers.join(" ")));
            }
            UciCommand::Eval => {
                let pos = self.current_position();
                let eval = self.engine.evaluation();
                self.out.line(&format!("Evaluation: {eval}"));
                self.out.line(&eval.trace(&pos));
            }
            UciCommand::Bench { depth } => self.bench(depth),
        }
        true
    }

    fn queue(&mut self, change: PendingChange) {
        self.pending.push(change);
        self.apply_pending();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Err(e) => self.info(&e),
            Ok(change) => match change {
                OptionChange::Engine(c) => {
                    if let PendingChange::Setting(EngineChange::Evaluation(e)) = &c {
                        self.info(&format!("evaluation: {e}"));
                    }
                    self.queue(c);
                }
                OptionChange::Chess960(on) => {
                    self.print.chess960.store(on, Ordering::Relaxed);
                }
                OptionChange::ShowWdl(on) => self.print.show_wdl.store(on, Ordering::Relaxed),
                OptionChange::Book => {
                    let msg = self
                        .extras
                        .set_book(self.options.shared.own_book, &self.options.shared.book_file);
                    self.info(&msg);
                }
                OptionChange::Tablebases => {
                    for line in self.extras.set_tablebases(&self.options.shared.syzygy_path) {
                        self.info(&line);
                    }
                    self.update_tablebases();
                }
                OptionChange::TablebaseSettings => self.update_tablebases(),
                OptionChange::None => {}
            },
        }
    }

    /// Hands the tables and their settings to the engine (after the running search).
    fn update_tablebases(&mut self) {
        let shared = &self.options.shared;
        let config = self.extras.search_tables(shared.probe_depth, shared.rule50);
        self.queue(PendingChange::Tablebases(config));
    }

    fn current_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let mut pos = match start {
            StartPosition::StartPos => Position::startpos(),
            StartPosition::Fen(fen) => match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => {
                    self.info(&format!("ignored position: FEN '{fen}': {e}"));
                    return;
                }
            },
        };
        if self.options.chess960 {
            pos.set_castling_mode(CastlingMode::Chess960);
        }
        self.start = pos.clone();
        self.moves.clear();
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_uci(text) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    self.moves.push(m);
                }
                Err(e) => {
                    self.info(&format!(
                        "move {} '{text}': {e}; position kept up to the move before",
                        i + 1
                    ));
                    break;
                }
            }
        }
    }

    fn limits(&self, params: &GoParams, pos: &Position) -> SearchLimits {
        let mut limits = SearchLimits {
            ponder: params.ponder,
            ..SearchLimits::default()
        };
        for text in &params.searchmoves {
            match pos.parse_uci(text) {
                Ok(m) => limits.search_moves.push(m),
                Err(e) => self.info(&format!("searchmoves '{text}': {e}")),
            }
        }
        if params.infinite {
            return limits;
        }
        if let Some(d) = params.depth {
            limits.limits.push(Limit::Depth(d));
        }
        if let Some(n) = params.nodes {
            limits.limits.push(Limit::Nodes(n));
        }
        if let Some(m) = params.mate {
            limits.limits.push(Limit::Mate(m));
        }
        if let Some(t) = params.movetime {
            limits.limits.push(Limit::MoveTime(t));
        }
        let ours = pos.turn().fold(params.wtime, params.btime);
        if ours.is_some() {
            limits.limits.push(Limit::Clock(Clock {
                time: ByColor {
                    white: params.wtime.unwrap_or_default(),
                    black: params.btime.unwrap_or_default(),
                },
                inc: ByColor {
                    white: params.winc.unwrap_or_default(),
                    black: params.binc.unwrap_or_default(),
                },
                moves_to_go: params.movestogo,
            }));
        }
        limits
    }

    fn go(&mut self, params: GoParams) {
        // One line, however many tokens were bad: a GUI's log is no place for a million.
        if let Some(first) = params.warnings.first() {
            let more = match params.warnings.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            self.info(&format!("go: ignored {first}{more}"));
        }
        self.engine.stop();
        self.engine.wait();
        self.apply_pending();
        let pos = self.current_position();
        let may_use_book = !params.infinite && !params.ponder && params.searchmoves.is_empty();
        if may_use_book && let Some(m) = self.extras.book_move(&pos, self.moves.len()) {
            let chess960 = self.print.chess960.load(Ordering::Relaxed);
            self.info("book move");
            self.out
                .line(&format!("bestmove {}", format_move(m, chess960)));
            return;
        }
        let limits = self.limits(&params, &pos);
        // The moves were checked when the position was set.
        let _ = self.engine.set_position(self.start.clone(), &self.moves);
        self.engine.go(limits);
    }

    fn bench(&mut self, depth: Option<u32>) {
        self.engine.stop();
        self.engine.wait();
        let depth = depth.unwrap_or(bench::DEFAULT_DEPTH).clamp(1, 64);
        let options = EngineOptions {
            multipv: 1,
            strength: None,
            ..self.engine.options().clone()
        };
        let result = bench::run(depth, options, |_, _, _| {});
        self.out.line(&format!(
            "bench: {} positions, depth {depth}: {} nodes, {} ms, {} nps",
            result.positions,
            result.nodes,
            result.elapsed.as_millis(),
            result.nps()
        ));
    }

    /// Stops any search, prints its best move and ends the printer.
    pub fn shutdown(mut self) {
        self.engine.stop();
        self.engine.wait();
        let printer = self.printer.take();
        drop(self.engine);
        if let Some(p) = printer {
            let _ = p.join();
        }
    }
}

/// Runs the protocol over `input` until `quit` or end of input.
///
/// Lines are read as bytes: one that is not UTF-8 (a Latin-1 path from a GUI) is decoded with
/// replacement characters, said so with `info string`, and handled; the session goes on.
pub fn run(input: impl BufRead, out: Output) {
    let mut session = Session::new(out);
    read_lines(input, |line| {
        if let Cow::Owned(_) = line {
            session.info("input line is not valid UTF-8; read with replacement characters");
        }
        session.handle_line(line.trim_end_matches(['\n', '\r']))
    });
    session.shutdown();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::protocol::testing::Buffer;
    use std::time::Duration;

    fn session() -> (Session, Buffer) {
        let buf = Buffer::default();
        (Session::new(Output::new(buf.clone())), buf)
    }

    #[test]
    fn handshake_search_and_bad_input() {
        let (mut s, out) = session();
        for line in [
            "uci",
            "isready",
            "setoption name Hash value 8",
            "setoption name Hash value banana",
            "setoption name Warp Drive value 9",
            "frobnicate",
            "position startpos moves e2e4 e7e5 e1e3",
            "go depth 4 searchmoves g1f3 xx",
        ] {
            assert!(s.handle_line(line));
        }
        let text = out.wait_for("bestmove");
        assert!(text.contains("uciok") && text.contains("readyok"));
        assert!(text.contains("option name UCI_Elo type spin"));
        assert_eq!(text.matches("info string").count(), 5, "{text}");
        assert!(
            text.contains("bestmove g1f3"),
            "searchmoves respected: {text}"
        );
        assert!(!s.handle_line("quit"));
        s.shutdown();
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
        let buf = Buffer::default();
        let mut input = b"uci\nsetoption name BookFile value /tmp/caf\xe9.bin\n".to_vec();
        input.extend_from_slice(b"isready\r\ngo depth 3\n");
        run(&input[..], Output::new(buf.clone()));
        let text = buf.text();
        assert!(
            text.contains("info string input line is not valid UTF-8"),
            "{text}"
        );
        assert!(
            text.contains("readyok") && text.contains("bestmove"),
            "{text}"
        );
    }

    #[test]
    fn a_hash_larger_than_memory_is_refused_and_the_table_kept() {
        let Some(memory_mb) = crate::engine::physical_memory_mb() else {
            return;
        };
        let too_big = memory_mb + 1;
        if too_big > crate::engine::MAX_HASH_MB {
            eprintln!("skipped: this machine holds the largest hash table UCI offers");
            return;
        }
        let (mut s, out) = session();
        s.handle_line(&format!("setoption name Hash value {too_big}"));
        s.handle_line("isready");
        let text = out.wait_for("readyok");
        assert!(text.contains("more than this machine's"), "{text}");
        assert!(text.contains("keeping 64 MiB"), "{text}");
        assert_eq!(s.engine.options().hash_mb, 64);
        s.handle_line("go depth 3");
        out.wait_for("bestmove");
        s.shutdown();
    }

    #[test]
    fn many_bad_go_tokens_get_one_line() {
        let (mut s, out) = session();
        let line = format!("go depth 2{}", " depth".repeat(10_001));
        s.handle_line(&line);
        let text = out.wait_for("bestmove");
        assert_eq!(text.matches("info string").count(), 1, "{text}");
        assert!(text.contains("(and "), "{text}");
        s.shutdown();
    }

    #[test]
    fn commands_during_infinite_search_and_quit() {
        let (mut s, out) = session();
        s.handle_line("setoption name MultiPV value 2");
        s.handle_line("setoption name UCI_ShowWDL value true");
        s.handle_line("position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        s.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        s.handle_line("isready");
        s.handle_line("setoption name Hash value 2");
        s.handle_line("position startpos");
        let text = out.wait_for("readyok");
        assert!(!text.contains("bestmove"), "infinite search waits: {text}");
        s.handle_line("stop");
        let text = out.wait_for("bestmove");
        assert!(
            text.contains("multipv 2") && text.contains(" wdl "),
            "{text}"
        );
        // The new position and hash apply to the next search.
        s.handle_line("go depth 3");
        std::thread::sleep(Duration::from_millis(200));
        s.handle_line("d");
        s.handle_line("eval");
        s.shutdown();
        let text = out.text();
        assert_eq!(text.matches("bestmove").count(), 2, "{text}");
        assert!(text.contains("Evaluation"));
    }

    #[test]
    fn illegal_position_move_keeps_prefix_and_mate_gives_null_move() {
        let (mut s, out) = session();
        s.handle_line("position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3");
        let text = out.wait_for("info string");
        assert!(text.contains("move 5 'a2a3'"), "{text}");
        assert_eq!(s.moves.len(), 4);
        s.handle_line("go depth 2");
        out.wait_for("bestmove 0000");
        s.shutdown();
    }

    #[test]
    fn numbers_out_of_range_saturate_and_every_move_is_searched() {
        let (mut s, out) = session();
        s.handle_line("setoption name Hash value 99999999");
        s.handle_line("setoption name MultiPV value 0");
        let text = out.wait_for("MultiPV");
        assert!(text.contains("outside 1..65536"), "{text}");
        // A depth past i32 is the deepest search, not a negative one.
        s.handle_line("position startpos");
        s.handle_line("go depth 3000000000");
        out.wait_for("info depth 6 ");
        s.handle_line("stop");
        out.wait_for("bestmove");
        // No nodes, no time: depth 1 still completes.
        for go in ["go nodes 0", "go movetime 0", "go wtime -5 btime -5"] {
            s.handle_line("isready");
            out.wait_for("readyok");
            out.clear();
            s.handle_line(go);
            let text = out.wait_for("bestmove");
            assert!(text.contains("info depth 1 "), "{go}: {text}");
        }
        s.shutdown();
    }
}
