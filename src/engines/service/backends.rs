//! The engines behind the service: the built-in one and an external UCI or xboard engine, each
//! with the thread that forwards its events to the caller tagged with their search's id.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use super::{EngineEvent, EngineSettings, PvInfo, SearchId, level_elo};
use crate::chess::{Color, Move, Position};
use crate::engine::{self, Bound, Engine, SearchEvent, SearchLimits};
use crate::engines::cecp::CecpClient;
use crate::engines::external::{ClientError, EngineSpec, HANDSHAKE_TIMEOUT, Protocol, UciClient};
use crate::engines::score::white_score;

/// Searches started and not yet finished, oldest first, with the side to move at their root
/// (engine scores are from that side's view). Neither engine names the search an event belongs
/// to (UCI has no search ids), but each finishes its searches in order, one best move each.
pub(super) type InFlight = Arc<Mutex<VecDeque<(SearchId, Color)>>>;

/// Where events go: the caller's channel, shared by the forwarding threads.
pub(super) type Deliver = Arc<dyn Fn(SearchId, EngineEvent) + Send + Sync>;

/// One engine as the service drives it: the built-in one or an external UCI engine.
pub(super) trait Backend {
    /// Searches `moves` played from `start`; the events come back tagged with `id`. The worker
    /// has stopped every engine before.
    fn go(
        &mut self,
        id: SearchId,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError>;
    fn stop(&mut self);
    /// The expected move was played: the ponder search goes on as a normal one.
    fn ponderhit(&mut self);
    fn set_multipv(&mut self, n: u32);
}

/// Our engine and the thread forwarding its events.
pub(super) struct BuiltIn {
    pub(super) engine: Engine,
    pending: InFlight,
}

impl BuiltIn {
    pub(super) fn start(deliver: Deliver) -> BuiltIn {
        let (engine, events) = Engine::new(engine::EngineOptions::default());
        let pending: InFlight = Arc::default();
        let forward_pending = Arc::clone(&pending);
        thread::Builder::new()
            .name("engine-events".into())
            .spawn(move || forward(events, forward_pending, &*deliver))
            .expect("spawning a thread");
        BuiltIn { engine, pending }
    }

    pub(super) fn configure(&mut self, o: EngineSettings) {
        let engine = &mut self.engine;
        engine.stop();
        if engine.options().hash_mb != o.hash_mb as usize {
            // The configuration refuses sizes larger than memory; a table the system still
            // will not give leaves the one the engine has.
            let _ = engine.set_hash(o.hash_mb as usize);
        }
        if engine.options().threads != o.threads as usize {
            engine.set_threads(o.threads as usize);
        }
        engine.set_strength(level_elo(o.level));
    }
}

impl Backend for BuiltIn {
    fn go(
        &mut self,
        id: SearchId,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        if self.engine.set_position(start.clone(), moves).is_err() {
            return Ok(());
        }
        lock(&self.pending).push_back((id, self.engine.position().turn()));
        self.engine.go(limits.clone());
        Ok(())
    }

    fn stop(&mut self) {
        self.engine.stop();
    }

    fn ponderhit(&mut self) {
        self.engine.ponderhit();
    }

    fn set_multipv(&mut self, n: u32) {
        self.engine.set_multipv(n as usize);
    }
}

/// A running external engine and the thread forwarding its events.
pub(super) struct External {
    pub(super) client: Client,
    pending: InFlight,
    /// Set by the forwarding thread when the engine's output ends (a crash).
    pub(super) dead: Arc<AtomicBool>,
}

impl External {
    pub(super) fn start(spec: &EngineSpec, deliver: Deliver) -> Result<External, ClientError> {
        let (client, events) = match spec.protocol {
            Protocol::Uci => {
                let (c, events) = UciClient::start(spec, HANDSHAKE_TIMEOUT)?;
                (Client::Uci(c), events)
            }
            Protocol::Xboard => {
                let (c, events) = CecpClient::start(spec, HANDSHAKE_TIMEOUT)?;
                (Client::Xboard(Box::new(c)), events)
            }
        };
        let pending: InFlight = Arc::default();
        let dead = Arc::new(AtomicBool::new(false));
        let (forward_pending, forward_dead) = (Arc::clone(&pending), Arc::clone(&dead));
        let name = spec.name.clone();
        thread::Builder::new()
            .name(format!("engine-events-{name}"))
            .spawn(move || {
                forward(events, Arc::clone(&forward_pending), &*deliver);
                // The output ended: the searches still waiting will get no move.
                forward_dead.store(true, Ordering::Release);
                for (id, _) in lock(&forward_pending).drain(..) {
                    deliver(
                        id,
                        EngineEvent::Lost(format!(
                            "engine '{name}' stopped working; the built-in engine takes over"
                        )),
                    );
                }
            })
            .expect("spawning a thread");
        Ok(External {
            client,
            pending,
            dead,
        })
    }
}

impl Backend for External {
    fn go(
        &mut self,
        id: SearchId,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        let turn = moves.iter().fold(start.turn(), |turn, _| !turn);
        lock(&self.pending).push_back((id, turn));
        let sent = self.client.go(start, moves, limits);
        if sent.is_err() {
            lock(&self.pending).pop_back();
        }
        sent
    }

    fn stop(&mut self) {
        let _ = self.client.stop();
    }

    fn ponderhit(&mut self) {
        let _ = self.client.ponderhit();
    }

    fn set_multipv(&mut self, n: u32) {
        if self.client.has_option("MultiPV") {
            let _ = self.client.set_option("MultiPV", &n.to_string());
        }
    }
}

/// An external engine's client, by the protocol it speaks.
pub(super) enum Client {
    Uci(UciClient),
    Xboard(Box<CecpClient>),
}

impl Client {
    pub(super) fn spec(&self) -> &EngineSpec {
        match self {
            Client::Uci(c) => c.spec(),
            Client::Xboard(c) => c.spec(),
        }
    }

    fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), ClientError> {
        match self {
            Client::Uci(c) => c.go(start, moves, limits),
            Client::Xboard(c) => c.go(start, moves, limits),
        }
    }

    fn stop(&mut self) -> Result<(), ClientError> {
        match self {
            Client::Uci(c) => c.stop(),
            Client::Xboard(c) => c.stop(),
        }
    }

    fn ponderhit(&mut self) -> Result<(), ClientError> {
        match self {
            Client::Uci(c) => c.ponderhit(),
            Client::Xboard(c) => c.ponderhit(),
        }
    }

    fn has_option(&self, name: &str) -> bool {
        match self {
            Client::Uci(c) => c.has_option(name),
            Client::Xboard(c) => c.has_option(name),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        match self {
            Client::Uci(c) => c.set_option(name, value),
            Client::Xboard(c) => c.set_option(name, value),
        }
    }
}

fn lock(pending: &InFlight) -> std::sync::MutexGuard<'_, VecDeque<(SearchId, Color)>> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

fn forward(
    events: Receiver<SearchEvent>,
    pending: InFlight,
    deliver: &dyn Fn(SearchId, EngineEvent),
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
                    score: Some(white_score(info.score, turn)),
                    nodes: info.nodes,
                    nps: info.nps,
                    hashfull: info.hashfull,
                    tbhits: info.tbhits,
                    partial: info.bound != Bound::Exact,
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
