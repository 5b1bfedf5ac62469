//! A client for external UCI engines (Stockfish, Ethereal...): one process for the session,
//! given the whole game (`position startpos moves ...`) at every search. Its output becomes the
//! same [`SearchEvent`]s our own engine sends, so the interface treats both alike. When the
//! process dies the event channel closes, which is how callers notice a crash.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::chess::{Move, Position};
use crate::engine::{Bound, Limit, Score, SearchEvent, SearchInfo, SearchLimits};

/// An external engine as configured: a name to show, the program, its arguments, the protocol
/// it speaks, and options set after the handshake.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub path: PathBuf,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub protocol: Protocol,
}

/// How an external engine is spoken to.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Protocol {
    #[default]
    Uci,
    /// The xboard/WinBoard protocol (CECP).
    Xboard,
}

#[derive(Debug, Error)]
pub enum ClientError {
    #[error("cannot start engine '{name}' ({path}): {source}")]
    Spawn {
        name: String,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("engine '{name}' did not answer '{command}' within {waited:?}")]
    NoAnswer {
        name: String,
        command: &'static str,
        waited: Duration,
    },
    #[error("engine '{name}' has exited")]
    Exited { name: String },
    #[error("engine '{name}' cannot search {what}")]
    Unsupported { name: String, what: &'static str },
}

/// How long the engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Roots of the searches sent and not yet answered, oldest first: info lines are read against
/// the front one (an engine finishes searches in the order they were started).
type Roots = Arc<Mutex<VecDeque<Position>>>;

pub struct UciClient {
    process: EngineProcess,
    /// The engine's own name (`id name`), else the configured one.
    id_name: String,
    /// Options the engine declared.
    declared: Vec<String>,
    roots: Roots,
}

impl UciClient {
    /// Starts the engine and completes the UCI handshake, then sets the configured options.
    /// Returns the client and its search events.
    pub fn start(
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<(UciClient, Receiver<SearchEvent>), ClientError> {
        let (events_tx, events) = mpsc::channel();
        let roots: Roots = Arc::default();
        let reader_roots = Arc::clone(&roots);
        let process = EngineProcess::start(spec, "uci", move |stdout, control| {
            read_output(stdout, control, events_tx, reader_roots)
        })?;
        let mut client = UciClient {
            process,
            id_name: spec.name.clone(),
            declared: Vec::new(),
            roots,
        };
        client.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = client.process.control_line(deadline, "uci")?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                client.id_name = name.trim().to_owned();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                client.declared.push(name.to_owned());
            }
        }
        for (name, value) in spec.options.clone() {
            client.set_option(&name, &value)?;
        }
        client.sync(timeout)?;
        Ok((client, events))
    }

    /// The name the engine gives itself.
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.process.spec
    }

    pub fn pid(&self) -> u32 {
        self.process.child.id()
    }

    /// Whether the engine declared option `name` (UCI option names ignore case).
    pub fn has_option(&self, name: &str) -> bool {
        self.declared.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, waiting for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.process.control_line(deadline, "isready")? != "readyok" {}
        Ok(())
    }

    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")
    }

    /// Searches the position after `moves` from `start`; events arrive on the channel, ending
    /// with one `BestMove`. A search still running is stopped first (its `BestMove` comes
    /// before this one's).
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        let mut root = start.clone();
        let mut ucis = Vec::with_capacity(moves.len());
        for &m in moves {
            ucis.push(root.uci(m));
            root.play_unchecked(m);
        }
        let base = if start.fen() == Position::startpos().fen() {
            "position startpos".to_owned()
        } else {
            format!("position fen {}", start.fen())
        };
        let position = if ucis.is_empty() {
            base
        } else {
            format!("{base} moves {}", ucis.join(" "))
        };
        let go = go_command(&root, limits);
        self.send(&position)?;
        lock(&self.roots).push_back(root);
        self.send(&go)
    }

    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.send("stop")
    }

    /// The expected move was played: a `go ponder` search goes on as a normal one.
    pub fn ponderhit(&mut self) -> Result<(), ClientError> {
        self.send("ponderhit")
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.process.child.try_wait(), Ok(None))
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.process.send(line)
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        // The process, dropped next, sends `quit`.
        let _ = self.send("stop");
    }
}

/// Writing to an engine that has died must be an error its client reports, not a SIGPIPE that
/// ends kibitzer (the binary restores the signal's default for `kibitzer ... | head`): once an
/// engine is started the signal is ignored for good, and broken pipes come back as errors.
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: SIG_IGN is a valid disposition for SIGPIPE; signal(2) changes the process-wide
    // disposition atomically, whatever other threads run.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// An external engine's process, whatever its protocol: its input, and the lines of its output
/// that are not search output. Dropping it tells the engine to quit and makes sure it is gone.
pub(crate) struct EngineProcess {
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    control: Receiver<String>,
}

impl EngineProcess {
    /// Starts the program of `spec`; `read` runs on a thread of its own (named after `protocol`
    /// and the engine) with the program's output and where to send the lines that are not
    /// search output.
    pub fn start(
        spec: &EngineSpec,
        protocol: &str,
        read: impl FnOnce(ChildStdout, Sender<String>) + Send + 'static,
    ) -> Result<EngineProcess, ClientError> {
        let (child, stdin, stdout) = spawn(spec)?;
        let (control_tx, control) = mpsc::channel();
        thread::Builder::new()
            .name(format!("{protocol}-{}", spec.name))
            .spawn(move || read(stdout, control_tx))
            .expect("spawning a thread");
        Ok(EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            control,
        })
    }

    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| ClientError::Exited {
                name: self.spec.name.clone(),
            })
    }

    /// The next line the engine wrote other than search output, by `deadline`: the answer to
    /// `command`, or why there is none.
    pub fn control_line(
        &self,
        deadline: Instant,
        command: &'static str,
    ) -> Result<String, ClientError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.control.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::NoAnswer {
                name: self.spec.name.clone(),
                command,
                waited: wait,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Exited {
                name: self.spec.name.clone(),
            }),
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        end(&mut self.child);
    }
}

/// Starts an engine's process, its input and output piped.
fn spawn(spec: &EngineSpec) -> Result<(Child, ChildStdin, ChildStdout), ClientError> {
    ignore_sigpipe();
    let start = || {
        Command::new(&spec.path)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
    };
    // A program just written (an engine installed a moment ago) can be "busy" while another
    // thread's child still holds it open for writing between its fork and exec: try again.
    const TEXT_FILE_BUSY: i32 = 26;
    let mut started = start();
    for _ in 0..10 {
        match &started {
            Err(e) if e.raw_os_error() == Some(TEXT_FILE_BUSY) => {
                thread::sleep(Duration::from_millis(20));
                started = start();
            }
            _ => break,
        }
    }
    let mut child = started.map_err(|source| ClientError::Spawn {
        name: spec.name.clone(),
        path: spec.path.clone(),
        source,
    })?;
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    Ok((child, stdin, stdout))
}

/// Gives an engine told to quit a moment to do so, then makes sure it is gone.
fn end(child: &mut Child) {
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline {
        if !matches!(child.try_wait(), Ok(None)) {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn lock(roots: &Roots) -> std::sync::MutexGuard<'_, VecDeque<Position>> {
    roots.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The `go` line for `limits` (no limits: `infinite`).
pub fn go_command(root: &Position, limits: &SearchLimits) -> String {
    let mut go = String::from("go");
    if limits.ponder {
        go.push_str(" ponder");
    }
    for limit in &limits.limits {
        match limit {
            Limit::Depth(d) => go.push_str(&format!(" depth {d}")),
            Limit::Nodes(n) => go.push_str(&format!(" nodes {n}")),
            Limit::MoveTime(t) => go.push_str(&format!(" movetime {}", t.as_millis())),
            Limit::Mate(n) => go.push_str(&format!(" mate {n}")),
            Limit::Clock(c) => {
                go.push_str(&format!(
                    " wtime {} btime {} winc {} binc {}",
                    c.time.white.as_millis(),
                    c.time.black.as_millis(),
                    c.inc.white.as_millis(),
                    c.inc.black.as_millis()
                ));
                if let Some(n) = c.moves_to_go {
                    go.push_str(&format!(" movestogo {n}"));
                }
            }
        }
    }
    if limits.limits.is_empty() {
        go.push_str(" infinite");
    }
    if !limits.search_moves.is_empty() {
        go.push_str(" searchmoves");
        for &m in &limits.search_moves {
            go.push(' ');
            go.push_str(&root.uci(m));
        }
    }
    go
}

fn read_output(
    stdout: impl io::Read,
    control: Sender<String>,
    events: Sender<SearchEvent>,
    roots: Roots,
) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let first = line.split_whitespace().next().unwrap_or("");
        let sent = match first {
            "info" => {
                let root = lock(&roots).front().cloned();
                match root.and_then(|r| parse_info(line, &r)) {
                    Some(info) => events.send(SearchEvent::Info(info)).is_ok(),
                    None => true,
                }
            }
            "bestmove" => {
                let root = lock(&roots).pop_front();
                match root {
                    Some(root) => {
                        let (best, ponder) = parse_bestmove(line, &root);
                        events.send(SearchEvent::BestMove { best, ponder }).is_ok()
                    }
                    // A best move nobody asked for: ignore it.
                    None => true,
                }
            }
            _ => {
                // Nobody waits for these after the handshake.
                let _ = control.send(line.to_owned());
                true
            }
        };
        if !sent {
            break;
        }
    }
}

/// An `info` line with a score, read against its root; `None` for other infos (strings,
/// current move) and for lines too broken to use.
pub fn parse_info(line: &str, root: &Position) -> Option<SearchInfo> {
    let mut tokens = line.split_whitespace().skip(1).peekable();
    let mut info = SearchInfo::bare(Score::Cp(0));
    let mut scored = false;
    let number = |t: Option<&str>| t.and_then(|s| s.parse::<u64>().ok());
    while let Some(token) = tokens.next() {
        match token {
            "depth" => info.depth = number(tokens.next())? as u32,
            "seldepth" => info.seldepth = number(tokens.next())? as u32,
            "multipv" => info.multipv = number(tokens.next())?.max(1) as usize,
            "nodes" => info.nodes = number(tokens.next())?,
            "nps" => info.nps = number(tokens.next())?,
            "hashfull" => info.hashfull = number(tokens.next())? as u32,
            "tbhits" => info.tbhits = number(tokens.next())?,
            "time" => info.time = Duration::from_millis(number(tokens.next())?),
            "score" => {
                let kind = tokens.next()?;
                let value: i32 = tokens.next()?.parse().ok()?;
                info.score = match kind {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    _ => return None,
                };
                scored = true;
                match tokens.peek() {
                    Some(&"lowerbound") => info.bound = Bound::Lower,
                    Some(&"upperbound") => info.bound = Bound::Upper,
                    _ => {}
                }
            }
            "string" => return None,
            "pv" => {
                let mut pos = root.clone();
                for text in tokens.by_ref() {
                    let Ok(m) = pos.parse_uci(text) else { break };
                    pos.play_unchecked(m);
                    info.pv.push(m);
                }
            }
            _ => {}
        }
    }
    info.wdl = info.score.wdl();
    scored.then_some(info)
}

/// `bestmove e2e4 ponder e7e5`; moves illegal in `root` (or `(none)`) become `None`.
pub fn parse_bestmove(line: &str, root: &Position) -> (Option<Move>, Option<Move>) {
    let mut tokens = line.split_whitespace().skip(1);
    let best = tokens.next().and_then(|t| root.parse_uci(t).ok());
    let ponder = match (best, tokens.next(), tokens.next()) {
        (Some(b), Some("ponder"), Some(p)) => {
            let mut after = root.clone();
            after.play_unchecked(b);
            after.parse_uci(p).ok()
        }
        _ => None,
    };
    (best, ponder)
}

#[cfg(test)]
pub(crate) mod tests;
