//! A client for external xboard/WinBoard (CECP) engines (Fairy-Max, Crafty, GNU Chess...): one
//! process for the session. A search sends the whole game (`new`, `force`, `setboard`, the
//! moves, then the time and `go`, or `analyze` for an endless search), except while the engine
//! plays on: then only the opponent's reply goes, with the clocks, as xboard sends it. Its
//! thinking output and moves become the same [`SearchEvent`]s our own engine sends. Asked to
//! ponder, the engine is told `hard` and thinks on the opponent's time itself; the service's
//! ponder search waits for `ponderhit`, then sends the reply.

use std::io::{self, BufRead, BufReader};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::chess::{CastlingMode, Move, Position, UciMove};
use crate::engine::{Limit, Score, SearchEvent, SearchInfo, SearchLimits};

use super::external::{ClientError, EngineProcess, EngineSpec};

/// The search the engine is on: its root, and what its last line began with; and the game it
/// plays (not in force mode), so the next search can send only the opponent's reply.
#[derive(Default)]
struct Current {
    root: Option<Position>,
    analyzing: bool,
    first_move: Option<Move>,
    /// The game at the root of the engine's own search; after its move, the game it holds.
    game: Option<Held>,
}

/// A game the engine plays one side of, and the limits it was given (kept by the engine).
#[derive(Clone)]
struct Held {
    start: Position,
    moves: Vec<Move>,
    limits: Vec<Limit>,
    /// The engine has moved and waits for the opponent's reply.
    waiting: bool,
}

/// Whether `a` and `b` set the same fixed limits (clocks may differ: they are sent each move).
fn same_settings(a: &[Limit], b: &[Limit]) -> bool {
    let key = |l: &Limit| match *l {
        Limit::Clock(c) => Limit::Clock(crate::engine::Clock {
            time: c.inc,
            inc: c.inc,
            moves_to_go: None,
        }),
        other => other,
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

type Shared = Arc<Mutex<Current>>;

/// How long an engine may take to answer `?` (move now).
const MOVE_NOW_TIMEOUT: Duration = Duration::from_secs(2);

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Current> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A `ponder` search waiting for `ponderhit`.
struct Deferred {
    start: Position,
    moves: Vec<Move>,
    limits: SearchLimits,
}

pub struct CecpClient {
    process: EngineProcess,
    /// Features the engine declared (`name=value`).
    features: Vec<(String, String)>,
    events: Sender<SearchEvent>,
    current: Shared,
    deferred: Option<Deferred>,
}

impl CecpClient {
    /// Starts the engine and reads its features (`protover 2`), then sets the configured
    /// options. Returns the client and its search events.
    pub fn start(
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<(CecpClient, Receiver<SearchEvent>), ClientError> {
        let (events_tx, events) = mpsc::channel();
        let current: Shared = Arc::default();
        let (reader_current, reader_events) = (Arc::clone(&current), events_tx.clone());
        let process = EngineProcess::start(spec, "cecp", move |stdout, control| {
            read_output(stdout, &control, &reader_events, &reader_current)
        })?;
        let mut client = CecpClient {
            process,
            features: Vec::new(),
            events: events_tx,
            current,
            deferred: None,
        };
        client.send("xboard")?;
        client.send("protover 2")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = client.process.control_line(deadline, "protover 2")?;
            let Some(list) = line.strip_prefix("feature ") else {
                continue;
            };
            let features = parse_features(list);
            for (name, _) in &features {
                client.send(&format!("accepted {name}"))?;
            }
            let done = features.iter().any(|(n, v)| n == "done" && v == "1");
            client.features.extend(features);
            if done {
                break;
            }
        }
        client.send("new")?;
        client.send("easy")?;
        client.send("post")?;
        client.send("force")?;
        for (name, value) in spec.options.clone() {
            client.set_option(&name, &value)?;
        }
        Ok((client, events))
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.process.spec
    }

    fn feature(&self, name: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the engine declared option `name` (`feature option="NAME -type ..."`).
    pub fn has_option(&self, name: &str) -> bool {
        self.features.iter().any(|(n, v)| {
            n == "option"
                && v.split(" -")
                    .next()
                    .is_some_and(|o| o.trim().eq_ignore_ascii_case(name))
        })
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        match name {
            "memory" | "cores" => self.send(&format!("{name} {value}")),
            _ => self.send(&format!("option {name}={value}")),
        }
    }

    /// Searches the position after `moves` from `start`; events arrive on the channel, ending
    /// with one `BestMove`. A search still running is stopped first.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        self.stop()?;
        if limits.ponder {
            self.deferred = Some(Deferred {
                start: start.clone(),
                moves: moves.to_vec(),
                limits: SearchLimits {
                    ponder: false,
                    ..limits.clone()
                },
            });
            // The engine may think on the opponent's time itself (`hard`); the search that
            // answers waits for the reply.
            self.send("hard")?;
            return Ok(());
        }
        let analyzing = limits.limits.is_empty() || limits.is_infinite();
        if !analyzing && self.continues(start, moves, &limits.limits) {
            return self.reply(start, moves, limits);
        }
        self.send("new")?;
        self.send("force")?;
        self.send("post")?;
        if *start != Position::startpos() {
            if self.feature("setboard") != Some("1") {
                return Err(ClientError::Unsupported {
                    name: self.process.spec.name.clone(),
                    what: "a position other than the start (it has no setboard)",
                });
            }
            self.send(&format!("setboard {}", start.fen()))?;
        }
        let mut root = start.clone();
        for &m in moves {
            self.send_move(m)?;
            root.play_unchecked(m);
        }
        *lock(&self.current) = Current {
            root: Some(root.clone()),
            analyzing,
            first_move: None,
            game: (!analyzing).then(|| Held {
                start: start.clone(),
                moves: moves.to_vec(),
                limits: limits.limits.clone(),
                waiting: false,
            }),
        };
        if analyzing {
            return self.send("analyze");
        }
        for limit in &limits.limits {
            match *limit {
                Limit::Depth(d) => self.send(&format!("sd {d}"))?,
                Limit::MoveTime(t) => self.send(&format!("st {}", t.as_secs().max(1)))?,
                Limit::Clock(c) => {
                    let base = c.time[root.turn()].as_secs().max(1);
                    self.send(&format!(
                        "level {} {}:{:02} {}",
                        c.moves_to_go.unwrap_or(0),
                        base / 60,
                        base % 60,
                        c.inc[root.turn()].as_secs()
                    ))?;
                }
                Limit::Nodes(_) | Limit::Mate(_) => {}
            }
        }
        self.send_clocks(&root, &limits.limits)?;
        self.send("go")
    }

    /// Whether the engine holds this game but its last move (the opponent's reply), under the
    /// same settings: then only the reply is sent, and the engine answers it.
    fn continues(&self, start: &Position, moves: &[Move], limits: &[Limit]) -> bool {
        let current = lock(&self.current);
        current.game.as_ref().is_some_and(|held| {
            held.waiting
                && held.start == *start
                && moves.len() == held.moves.len() + 1
                && moves.starts_with(&held.moves)
                && same_settings(&held.limits, limits)
        })
    }

    /// Sends the opponent's reply (the last of `moves`) to the engine that waits for it.
    fn reply(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        let mut root = start.clone();
        for &m in moves {
            root.play_unchecked(m);
        }
        *lock(&self.current) = Current {
            root: Some(root.clone()),
            analyzing: false,
            first_move: None,
            game: Some(Held {
                start: start.clone(),
                moves: moves.to_vec(),
                limits: limits.limits.clone(),
                waiting: false,
            }),
        };
        self.send_clocks(&root, &limits.limits)?;
        let last = *moves.last().expect("a reply");
        self.send_move(last)
    }

    /// `time` and `otim` for the side to move at `root`, when the limits have a clock.
    fn send_clocks(&mut self, root: &Position, limits: &[Limit]) -> Result<(), ClientError> {
        for limit in limits {
            if let Limit::Clock(c) = limit {
                let us = root.turn();
                self.send(&format!("time {}", c.time[us].as_millis() / 10))?;
                self.send(&format!("otim {}", c.time[!us].as_millis() / 10))?;
            }
        }
        Ok(())
    }

    fn send_move(&mut self, m: Move) -> Result<(), ClientError> {
        let text = UciMove::from_move(m, CastlingMode::Standard).to_string();
        if self.feature("usermove") == Some("1") {
            self.send(&format!("usermove {text}"))
        } else {
            self.send(&text)
        }
    }

    /// Ends the search: the engine moves now (`?`), an analysis ends with the move its line
    /// began with, a ponder search that was never hit ends without a move.
    pub fn stop(&mut self) -> Result<(), ClientError> {
        if self.deferred.take().is_some() {
            let _ = self.events.send(SearchEvent::BestMove {
                best: None,
                ponder: None,
            });
        }
        let (searching, analyzing, first) = {
            let current = lock(&self.current);
            (
                current.root.is_some(),
                current.analyzing,
                current.first_move,
            )
        };
        if !searching {
            return Ok(());
        }
        if analyzing {
            *lock(&self.current) = Current::default();
            self.send("exit")?;
            let _ = self.events.send(SearchEvent::BestMove {
                best: first,
                ponder: None,
            });
            Ok(())
        } else {
            // Move now, and wait for the move: the next search's output must not be read
            // against this one's root. An engine that will not move is stopped by `new`.
            self.send("?")?;
            let deadline = Instant::now() + MOVE_NOW_TIMEOUT;
            while lock(&self.current).root.is_some() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(2));
            }
            let mut current = lock(&self.current);
            if current.root.take().is_some() {
                let _ = self.events.send(SearchEvent::BestMove {
                    best: None,
                    ponder: None,
                });
            }
            Ok(())
        }
    }

    /// The reply the ponder search waited for came: it searches now.
    pub fn ponderhit(&mut self) -> Result<(), ClientError> {
        match self.deferred.take() {
            Some(d) => self.go(&d.start, &d.moves, &d.limits),
            None => Ok(()),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.process.send(line)
    }
}

/// `name=value name="a value" ...` of a feature line.
fn parse_features(list: &str) -> Vec<(String, String)> {
    let mut features = Vec::new();
    let mut rest = list.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => after.split_once(' ').unwrap_or((after, "")),
        };
        features.push((name.trim().to_owned(), value.to_owned()));
        rest = next.trim();
    }
    features
}

fn read_output(
    stdout: impl io::Read,
    control: &Sender<String>,
    events: &Sender<SearchEvent>,
    current: &Shared,
) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let root = lock(current).root.clone();
        let event = match root {
            Some(root) => search_output(line, &root, current),
            None => None,
        };
        let sent = match event {
            Some(event) => events.send(event).is_ok(),
            None => {
                // Feature lines matter during the handshake; nobody waits for the rest.
                let _ = control.send(line.to_owned());
                true
            }
        };
        if !sent {
            break;
        }
    }
}

/// The event of a line of search output in `root`: thinking, the engine's move, or its
/// resignation (no move).
fn search_output(line: &str, root: &Position, current: &Shared) -> Option<SearchEvent> {
    if let Some(text) = line.strip_prefix("move ") {
        let best = parse_move(root, text.trim());
        let mut current = lock(current);
        let game = current.game.take().zip(best).map(|(mut held, m)| {
            held.moves.push(m);
            held.waiting = true;
            held
        });
        *current = Current {
            game,
            ..Current::default()
        };
        return Some(SearchEvent::BestMove { best, ponder: None });
    }
    if line == "resign" || line.starts_with("tellopponent resign") {
        *lock(current) = Current::default();
        return Some(SearchEvent::BestMove {
            best: None,
            ponder: None,
        });
    }
    let info = parse_thinking(line, root)?;
    lock(current).first_move = info.pv.first().copied();
    Some(SearchEvent::Info(info))
}

/// A move as the xboard protocol writes it, both ways: coordinates, or SAN (`Nf3`, `O-O`,
/// `0-0`); `None` unless legal in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Option<Move> {
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    pos.parse_uci(text)
        .ok()
        .or_else(|| pos.parse_san(&text.replace('0', "O")).ok())
        .filter(|&m| pos.is_legal(m))
}

/// `depth score time nodes pv...`: the score in centipawns from the side to move (mates as
/// 100000 + moves), the time in centiseconds; the line's moves as far as they are legal.
pub fn parse_thinking(line: &str, root: &Position) -> Option<SearchInfo> {
    let mut tokens = line.split_whitespace();
    let depth: u32 = tokens.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = tokens.next()?.parse().ok()?;
    let centis: u64 = tokens.next()?.parse().ok()?;
    let nodes: u64 = tokens.next()?.parse().ok()?;
    let score = if score >= 90_000 {
        Score::Mate(score - 100_000)
    } else if score <= -90_000 {
        Score::Mate(score + 100_000)
    } else {
        Score::Cp(score)
    };
    let mut info = SearchInfo::bare(score);
    info.depth = depth;
    info.nodes = nodes;
    info.time = Duration::from_millis(centis * 10);
    info.nps = (nodes * 100).checked_div(centis).unwrap_or(0);
    let mut pos = root.clone();
    for token in tokens {
        // Move numbers (`12.`, `12...`) and marks between the moves.
        if token.starts_with(|c: char| c.is_ascii_digit()) && token.ends_with('.')
            || token.chars().all(|c| c == '.')
        {
            continue;
        }
        let Some(m) = parse_move(&pos, token) else {
            break;
        };
        pos.play_unchecked(m);
        info.pv.push(m);
    }
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_thinking_lines_are_read() {
        let features = parse_features(r#"setboard=1 myname="Fairy-Max 5.0b" done=0"#);
        assert_eq!(
            features,
            [
                ("setboard".to_owned(), "1".to_owned()),
                ("myname".to_owned(), "Fairy-Max 5.0b".to_owned()),
                ("done".to_owned(), "0".to_owned())
            ]
        );
        let start = Position::startpos();
        let info = parse_thinking(" 7     23     31    12345 e2e4 e7e5 Nf3", &start).unwrap();
        assert_eq!((info.depth, info.nodes), (7, 12345));
        assert_eq!(info.score, Score::Cp(23));
        assert_eq!(info.time, Duration::from_millis(310));
        assert_eq!(info.pv.len(), 3);
        let mate = parse_thinking("12 100003 5 99 1. e4", &start).unwrap();
        assert_eq!(mate.score, Score::Mate(3));
        assert_eq!(mate.pv.len(), 1);
        assert!(parse_thinking("move e2e4", &start).is_none());
        assert!(parse_thinking("tellics say hello", &start).is_none());
    }
}
