//! The seam between the interface and a chess engine: commands go out over a channel, search
//! events come back tagged with the id of the search that produced them, so events from a
//! stopped or superseded search are recognised and dropped.
//!
//! Until the engine service lands, the worker behind the seam is a placeholder that picks a
//! legal move (captures first) and labels itself as such everywhere it is shown.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use crate::chess::position::see_value;
use crate::chess::{Color, Move, Position, Role};

/// A score from White's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in N moves (negative: Black mates).
    Mate(i32),
}

impl Score {
    /// Centipawns for graphs and bars, mates as a large value.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n >= 0 => 10_000 - n,
            Score::Mate(n) => -10_000 - n,
        }
    }

    /// Turns a side-to-move score into White's view.
    pub fn white_view(self, turn: Color) -> Score {
        match (self, turn) {
            (s, Color::White) => s,
            (Score::Cp(cp), Color::Black) => Score::Cp(-cp),
            (Score::Mate(n), Color::Black) => Score::Mate(-n),
        }
    }

    /// `+0.34`, `-1.20`, `#3`, `#-2`.
    pub fn label(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

/// One principal variation of a search report.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PvInfo {
    /// 1-based line number.
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    /// Per mille.
    pub hashfull: u32,
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineEvent {
    Info(PvInfo),
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

/// How long a search may run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GoLimits {
    Infinite,
    MoveTime(Duration),
    Clock {
        white: Duration,
        black: Duration,
        white_inc: Duration,
        black_inc: Duration,
    },
}

/// Identifies one search so its events can be matched to the request.
pub type SearchId = u64;

/// Settings the engine is asked to honour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineOptions {
    pub hash_mb: u32,
    pub threads: u32,
    pub multipv: u32,
    /// 1..=20, 20 is full strength.
    pub level: u8,
}

#[derive(Clone, Debug)]
pub enum EngineCommand {
    Go {
        id: SearchId,
        start: Box<Position>,
        moves: Vec<Move>,
        limits: GoLimits,
    },
    Stop,
    Options(EngineOptions),
}

/// The interface's handle on the engine worker.
pub struct EngineLink {
    commands: Sender<EngineCommand>,
}

/// Name shown in the engine panel while the placeholder stands in for the engine.
pub const ENGINE_NAME: &str = "placeholder opponent (random legal move; engine not yet merged)";

impl EngineLink {
    /// Starts the worker; `deliver` receives every event with the id of its search.
    pub fn spawn(deliver: impl Fn(SearchId, EngineEvent) + Send + 'static) -> EngineLink {
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("engine-link".into())
            .spawn(move || placeholder_worker(rx, deliver))
            .expect("spawning a thread");
        EngineLink { commands: tx }
    }

    pub fn send(&self, command: EngineCommand) {
        // The worker outlives the interface; a send can only fail during shutdown.
        let _ = self.commands.send(command);
    }
}

fn placeholder_worker(rx: Receiver<EngineCommand>, deliver: impl Fn(SearchId, EngineEvent)) {
    let mut pending: Option<(SearchId, Position, GoLimits)> = None;
    loop {
        let command = match &pending {
            // While "searching", wait for the move time (or a stop) before answering.
            Some((_, _, limits)) => {
                let wait = match limits {
                    GoLimits::Infinite => None,
                    GoLimits::MoveTime(t) => Some((*t).min(Duration::from_millis(300))),
                    GoLimits::Clock { .. } => Some(Duration::from_millis(300)),
                };
                match wait {
                    Some(t) => match rx.recv_timeout(t) {
                        Ok(c) => Some(c),
                        Err(mpsc::RecvTimeoutError::Timeout) => None,
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    },
                    None => match rx.recv() {
                        Ok(c) => Some(c),
                        Err(_) => return,
                    },
                }
            }
            None => match rx.recv() {
                Ok(c) => Some(c),
                Err(_) => return,
            },
        };
        match command {
            Some(EngineCommand::Go {
                id,
                start,
                moves,
                limits,
            }) => {
                if let Some((old, pos, _)) = pending.take() {
                    deliver(old, best_event(&pos));
                }
                let mut pos = *start;
                for m in moves {
                    pos.play_unchecked(m);
                }
                if let Some(m) = pick(&pos) {
                    let info = PvInfo {
                        multipv: 1,
                        depth: 1,
                        seldepth: 1,
                        score: Some(Score::Cp(material(&pos))),
                        nodes: pos.count_legal_moves() as u64,
                        pv: vec![m],
                        ..PvInfo::default()
                    };
                    deliver(id, EngineEvent::Info(info));
                }
                pending = Some((id, pos, limits));
            }
            Some(EngineCommand::Stop) | None => {
                if let Some((id, pos, _)) = pending.take() {
                    deliver(id, best_event(&pos));
                }
            }
            Some(EngineCommand::Options(_)) => {}
        }
    }
}

fn best_event(pos: &Position) -> EngineEvent {
    EngineEvent::BestMove {
        best: pick(pos),
        ponder: None,
    }
}

/// Captures of the most valuable piece first, otherwise a move chosen by the position key.
fn pick(pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    let key = pos.hash();
    moves
        .iter()
        .enumerate()
        .max_by_key(|&(i, &m)| {
            let gain = pos.captured_role(m).map_or(0, see_value);
            (gain, (key.rotate_left(i as u32) & 0xffff) as i32)
        })
        .map(|(_, &m)| m)
}

/// Material balance from White's view, in centipawns.
fn material(pos: &Position) -> i32 {
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .into_iter()
    .map(|r| {
        let diff =
            pos.pieces(Color::White, r).count() as i32 - pos.pieces(Color::Black, r).count() as i32;
        diff * see_value(r)
    })
    .sum()
}
