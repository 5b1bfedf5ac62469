//! The interface's link to the engine service: commands go out over a channel to a worker
//! thread that owns the engine, and search events come back tagged with the id of the search
//! that produced them, so events from a stopped or superseded search are recognised and dropped.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::chess::{ByColor, Color, Move, Position};
use crate::engine::{self, Clock, Engine, Limit, SearchEvent, SearchLimits};
use crate::tablebase::Tablebases;

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
        /// In a tablebase position, search only the moves that keep the best result within
        /// the fifty-move rule (so won endgames are converted).
        tb_root: bool,
    },
    Stop,
    Options(EngineOptions),
    Tablebases(Option<Tablebases>),
}

/// The interface's handle on the engine worker.
pub struct EngineLink {
    commands: Sender<EngineCommand>,
}

/// Name shown in the engine panel.
pub const ENGINE_NAME: &str = "kibitzer engine";

/// Searches started and not yet finished, oldest first, with the side to move at their root
/// (engine scores are from that side's view). The engine finishes searches in order.
type Pending = Arc<Mutex<VecDeque<(SearchId, Color)>>>;

impl EngineLink {
    /// Starts the engine on a worker thread; `deliver` receives every event with the id of its
    /// search.
    pub fn spawn(deliver: impl Fn(SearchId, EngineEvent) + Send + 'static) -> EngineLink {
        let (tx, rx) = mpsc::channel();
        let pending: Pending = Arc::default();
        let worker_pending = Arc::clone(&pending);
        thread::Builder::new()
            .name("engine-link".into())
            .spawn(move || {
                let (engine, events) = Engine::new(engine::EngineOptions::default());
                let forward_pending = Arc::clone(&worker_pending);
                thread::Builder::new()
                    .name("engine-events".into())
                    .spawn(move || forward(events, forward_pending, deliver))
                    .expect("spawning a thread");
                serve(rx, engine, worker_pending);
            })
            .expect("spawning a thread");
        EngineLink { commands: tx }
    }

    pub fn send(&self, command: EngineCommand) {
        // The worker lives as long as the interface; a send can only fail during shutdown.
        let _ = self.commands.send(command);
    }
}

fn serve(rx: Receiver<EngineCommand>, mut engine: Engine, pending: Pending) {
    let mut tables = None;
    for command in rx {
        match command {
            EngineCommand::Go {
                id,
                start,
                moves,
                limits,
                tb_root,
            } => {
                engine.stop();
                if engine.set_position(*start, &moves).is_err() {
                    // The interface only sends legal games; nothing to search otherwise.
                    continue;
                }
                let turn = engine.position().turn();
                let mut limits = search_limits(limits);
                if tb_root
                    && let Some((keep, _)) = tables
                        .as_ref()
                        .and_then(|t: &Tablebases| t.root_filter(engine.position(), true))
                {
                    limits.search_moves = keep;
                }
                lock(&pending).push_back((id, turn));
                engine.go(limits);
            }
            EngineCommand::Stop => engine.stop(),
            EngineCommand::Tablebases(t) => tables = t,
            EngineCommand::Options(o) => {
                engine.stop();
                if engine.options().hash_mb != o.hash_mb as usize {
                    engine.set_hash(o.hash_mb as usize);
                }
                if engine.options().threads != o.threads as usize {
                    engine.set_threads(o.threads as usize);
                }
                engine.set_multipv(o.multipv as usize);
                engine.set_strength(level_elo(o.level));
            }
        }
    }
}

fn lock(pending: &Pending) -> std::sync::MutexGuard<'_, VecDeque<(SearchId, Color)>> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

fn forward(
    events: Receiver<SearchEvent>,
    pending: Pending,
    deliver: impl Fn(SearchId, EngineEvent),
) {
    for event in events {
        let Some(&(id, turn)) = lock(&pending).front() else {
            continue;
        };
        match event {
            SearchEvent::Info(info) => deliver(
                id,
                EngineEvent::Info(PvInfo {
                    multipv: info.multipv as u32,
                    depth: info.depth,
                    seldepth: info.seldepth,
                    score: Some(
                        match info.score {
                            engine::Score::Cp(cp) => Score::Cp(cp),
                            engine::Score::Mate(n) => Score::Mate(n),
                        }
                        .white_view(turn),
                    ),
                    nodes: info.nodes,
                    nps: info.nps,
                    hashfull: info.hashfull,
                    tbhits: info.tbhits,
                    pv: info.pv,
                }),
            ),
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, ponder } => {
                lock(&pending).pop_front();
                deliver(id, EngineEvent::BestMove { best, ponder });
            }
        }
    }
}

fn search_limits(limits: GoLimits) -> SearchLimits {
    match limits {
        GoLimits::Infinite => SearchLimits::infinite(),
        GoLimits::MoveTime(t) => SearchLimits::move_time(t),
        GoLimits::Clock {
            white,
            black,
            white_inc,
            black_inc,
        } => SearchLimits::with(Limit::Clock(Clock {
            time: ByColor { white, black },
            inc: ByColor {
                white: white_inc,
                black: black_inc,
            },
            moves_to_go: None,
        })),
    }
}

/// Interface levels 1..=20 spread over the engine's Elo range; 20 is full strength.
pub fn level_elo(level: u8) -> Option<u32> {
    (level < MAX_LEVEL).then(|| {
        let step = (engine::MAX_ELO - engine::MIN_ELO) / u32::from(MAX_LEVEL - 1);
        engine::MIN_ELO + step * u32::from(level.max(1) - 1)
    })
}

pub const MAX_LEVEL: u8 = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_onto_the_elo_range() {
        assert_eq!(level_elo(1), Some(engine::MIN_ELO));
        assert_eq!(level_elo(20), None);
        assert!(level_elo(19).unwrap() < engine::MAX_ELO);
        assert!(level_elo(10) < level_elo(11));
    }

    #[test]
    fn real_engine_answers_through_the_link() {
        let (tx, rx) = mpsc::channel();
        let link = EngineLink::spawn(move |id, ev| {
            let _ = tx.send((id, ev));
        });
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        link.send(EngineCommand::Go {
            id: 1,
            start: Box::new(start.clone()),
            moves: vec![e4],
            limits: GoLimits::Infinite,
            tb_root: false,
        });
        link.send(EngineCommand::Go {
            id: 2,
            start: Box::new(start),
            moves: vec![e4],
            limits: GoLimits::MoveTime(Duration::from_millis(100)),
            tb_root: false,
        });
        let mut best = Vec::new();
        while best.len() < 2 {
            let (id, ev) = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("engine answers");
            if let EngineEvent::BestMove { best: m, .. } = ev {
                best.push((id, m.is_some()));
            }
        }
        assert_eq!(best, [(1, true), (2, true)]);
    }
}
