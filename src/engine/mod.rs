//! The engine as an in-process service. The TUI, `annotate` and the UCI front end all use it
//! the same way; it never prints.
//!
//! ```no_run
//! use kibitzer::chess::Position;
//! use kibitzer::engine::{Engine, EngineOptions, SearchEvent, SearchLimits};
//!
//! let (mut engine, events) = Engine::new(EngineOptions::default());
//! let start = Position::startpos();
//! let e4 = start.parse_uci("e2e4").unwrap();
//! engine.set_position(start, &[e4]).unwrap(); // full game history: repetitions count
//! engine.go(SearchLimits::depth(10));          // returns at once
//! for event in events.iter() {
//!     match event {
//!         SearchEvent::Info(info) => println!("depth {} score {}", info.depth, info.score),
//!         SearchEvent::CurrMove { .. } => {}
//!         SearchEvent::BestMove { best, ponder } => {
//!             println!("{best:?} {ponder:?}");
//!             break;
//!         }
//!     }
//! }
//! ```
//!
//! * [`Engine::new`] gives the handle and the event [`Receiver`]; keep one engine per game.
//! * [`Engine::set_position`] takes the start position and every move played since, checked.
//! * [`Engine::go`] starts a search under [`SearchLimits`] (an empty limit list is infinite
//!   analysis; `ponder` searches until [`Engine::ponderhit`] or [`Engine::stop`]). A search
//!   already running is stopped first (its `BestMove` still arrives, before the new search's
//!   events). [`Engine::stop`] and [`Engine::ponderhit`] return immediately.
//!   [`Engine::search_here`] runs the same search on the caller's thread and returns after its
//!   `BestMove` (self-play, where a thread per short search costs more than it gives).
//! * Every search ends with exactly one [`SearchEvent::BestMove`] (`best: None` when the side
//!   to move has no legal move). Infos arrive after each iteration, per multi-PV line.
//! * Options: [`Engine::set_hash`], [`Engine::set_threads`], [`Engine::set_multipv`],
//!   [`Engine::set_move_overhead`], [`Engine::set_strength`], [`Engine::clear_hash`],
//!   [`Engine::new_game`], [`Engine::set_evaluation`]. They wait for a running search to end,
//!   so stop it first.

pub mod bench;
pub mod datagen;
pub mod eval;
mod history;
mod limits;
pub mod nnue;
mod params;
mod picker;
mod prefetch;
mod probe;
mod report;
mod score;
mod search;
mod strength;
mod thread;
mod time;
mod tt;

use std::panic::AssertUnwindSafe;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::chess::{Move, Position};

pub use eval::{DEFAULT_HCE_SHARE, EvalFileError, Evaluation, HandCrafted};
pub use limits::{Clock, Limit, SearchLimits};
pub use params::{TUNABLES, Tunable};
pub use probe::{TablebaseConfig, TablebaseProbe, TbRoot, TbRootMove};
pub use score::{Bound, Score, Wdl};
pub use strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO};

use strength::Strength;
use thread::{Flags, Job, ThreadData};
use tt::TranspositionTable;
pub use tt::{HashSizeError, check_hash_size, physical_memory_mb};

/// One search report line (UCI `info`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub wdl: Wdl,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub tbhits: u64,
    pub time: Duration,
    /// From the root position; empty only for a position without legal moves.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// An info with only a score: the start of one built field by field.
    pub fn bare(score: Score) -> SearchInfo {
        SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            wdl: score.wdl(),
            nodes: 0,
            nps: 0,
            hashfull: 0,
            tbhits: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        }
    }
}

/// What a search reports, in order: infos and current moves, then one best move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SearchEvent {
    Info(SearchInfo),
    /// The root move being searched (sent only after a few seconds of thinking).
    CurrMove {
        depth: u32,
        mv: Move,
        number: usize,
    },
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

/// Engine settings (UCI options map onto these).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    /// `Some(elo)`: play at about that strength (UCI_LimitStrength + UCI_Elo).
    pub strength: Option<u32>,
    pub evaluation: Evaluation,
}

impl EngineOptions {
    /// The evaluation a search uses. The strength levels were calibrated with the hand-crafted
    /// evaluation: a network sees more in the same nodes and would play above the Elo asked for.
    pub fn search_evaluation(&self) -> Evaluation {
        match self.strength {
            Some(_) => Evaluation::HandCrafted,
            None => self.evaluation.clone(),
        }
    }
}

pub const MAX_HASH_MB: usize = 65_536;
pub const MAX_THREADS: usize = 256;
pub const MAX_MULTIPV: usize = 256;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(50),
            strength: None,
            evaluation: Evaluation::default(),
        }
    }
}

/// An illegal move in a game given to [`Engine::set_position`]; the position is kept up to it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move {index} ({mv:?}) is illegal in {fen}")]
pub struct IllegalGameMove {
    pub index: usize,
    pub mv: Move,
    pub fen: String,
}

/// The engine handle. Dropping it stops and joins any search.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    threads: Arc<Mutex<Vec<ThreadData>>>,
    tablebases: Option<TablebaseConfig>,
    flags: Arc<Flags>,
    position: Position,
    /// Keys of the positions before `position`, oldest first.
    game_keys: Vec<u64>,
    events: Sender<SearchEvent>,
    worker: Option<JoinHandle<()>>,
}

impl Engine {
    pub fn new(options: EngineOptions) -> (Engine, Receiver<SearchEvent>) {
        let (tx, rx) = channel();
        let options = EngineOptions {
            hash_mb: options.hash_mb.clamp(1, MAX_HASH_MB),
            threads: options.threads.clamp(1, MAX_THREADS),
            multipv: options.multipv.clamp(1, MAX_MULTIPV),
            ..options
        };
        // Front ends check sizes from users with `check_hash_size`; a size that still fails
        // gets the smallest table rather than an abort.
        let (tt, options) = match TranspositionTable::try_new(options.hash_mb) {
            Ok(tt) => (tt, options),
            Err(_) => (
                TranspositionTable::new(1),
                EngineOptions {
                    hash_mb: 1,
                    ..options
                },
            ),
        };
        let engine = Engine {
            tt: Arc::new(tt),
            tablebases: None,
            threads: Arc::new(Mutex::new(
                (0..options.threads).map(ThreadData::new).collect(),
            )),
            flags: Arc::new(Flags::default()),
            position: Position::startpos(),
            game_keys: Vec::new(),
            events: tx,
            worker: None,
            options,
        };
        (engine, rx)
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The position searches start from (after the moves given).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the game: its start position and every move since (so repetitions count).
    /// On an illegal move the position is kept up to it and the error says which.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Result<(), IllegalGameMove> {
        self.wait();
        self.game_keys.clear();
        let mut pos = start;
        let mut result = Ok(());
        for (index, &mv) in moves.iter().enumerate() {
            match pos.play(mv) {
                Ok(next) => {
                    self.game_keys.push(pos.hash());
                    pos = next;
                }
                Err(_) => {
                    result = Err(IllegalGameMove {
                        index,
                        mv,
                        fen: pos.fen(),
                    });
                    break;
                }
            }
        }
        self.position = pos;
        result
    }

    /// Starts a search and returns at once; events arrive on the channel.
    pub fn go(&mut self, limits: SearchLimits) {
        let job = self.job(limits);
        let tt = Arc::clone(&self.tt);
        let threads = Arc::clone(&self.threads);
        let flags = Arc::clone(&self.flags);
        let events = self.events.clone();
        self.worker = Some(
            std::thread::Builder::new()
                .name("search".into())
                .spawn(move || {
                    let fallback = job.root.legal_moves().iter().next().copied();
                    let mut threads = threads.lock().unwrap_or_else(PoisonError::into_inner);
                    let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        thread::run(job, &mut threads, &tt, &flags, &events);
                    }));
                    if searched.is_err() {
                        // A bug must not leave the GUI waiting: answer with some legal move.
                        threads.iter_mut().for_each(ThreadData::clear);
                        let _ = events.send(SearchEvent::BestMove {
                            best: fallback,
                            ponder: None,
                        });
                    }
                })
                .expect("spawning the search thread"),
        );
    }

    /// Searches on the calling thread and returns once its `BestMove` is on the channel, so the
    /// limits must end the search by themselves (nodes, depth, time; not ponder or infinite).
    /// For self-play at a thousand nodes a move, where a search thread per move and the wake-ups
    /// for its events took 45% of the processor time.
    pub fn search_here(&mut self, limits: SearchLimits) {
        let job = self.job(limits);
        let mut threads = self.threads.lock().unwrap_or_else(PoisonError::into_inner);
        thread::run(job, &mut threads, &self.tt, &self.flags, &self.events);
    }

    /// A search of the current position, any running one stopped first.
    fn job(&mut self, limits: SearchLimits) -> Job {
        let start = Instant::now();
        self.stop();
        self.wait();
        self.flags.stop.store(false, Ordering::Relaxed);
        self.flags.pondering.store(limits.ponder, Ordering::Relaxed);
        Job {
            root: self.position.clone(),
            game_keys: self.game_keys.clone(),
            limits,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            strength: self.options.strength.map(Strength::new),
            evaluation: self.options.search_evaluation(),
            tablebases: self.tablebases.clone(),
            start,
        }
    }

    /// Asks the running search to finish now; its `BestMove` follows shortly.
    pub fn stop(&self) {
        self.flags.pondering.store(false, Ordering::Relaxed);
        self.flags.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the ponder search goes on under its limits.
    pub fn ponderhit(&self) {
        self.flags.pondering.store(false, Ordering::Relaxed);
    }

    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Blocks until the running search (if any) has sent its best move.
    pub fn wait(&mut self) {
        if let Some(worker) = self.worker.take() {
            // A panic in the search thread has already been reported by the panic hook.
            let _ = worker.join();
        }
    }

    fn with_threads(&mut self, f: impl FnOnce(&mut Vec<ThreadData>)) {
        self.wait();
        let mut threads = self.threads.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut threads);
    }

    /// Replaces the hash table with one of `mb` MiB; where the machine cannot hold that, keeps
    /// the table it has and says why.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashSizeError> {
        self.wait();
        let mb = mb.clamp(1, MAX_HASH_MB);
        self.tt = Arc::new(TranspositionTable::try_new(mb)?);
        self.options.hash_mb = mb;
        Ok(())
    }

    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.options.threads = n;
        self.with_threads(|threads| {
            threads.truncate(n);
            let have = threads.len();
            threads.extend((have..n).map(ThreadData::new));
        });
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.clamp(1, MAX_MULTIPV);
    }

    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.options.move_overhead = overhead;
    }

    /// `Some(elo)` to play like a person of about that rating, `None` for full strength.
    pub fn set_strength(&mut self, elo: Option<u32>) {
        self.options.strength = elo.map(|e| e.clamp(MIN_ELO, MAX_ELO));
    }

    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// A new game: clears the hash table and every thread's histories.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.with_threads(|threads| threads.iter_mut().for_each(ThreadData::clear));
    }

    /// Syzygy tables for the searches to come (`None`: none).
    pub fn set_tablebases(&mut self, tablebases: Option<TablebaseConfig>) {
        self.wait();
        self.tablebases = tablebases;
    }

    /// Switches the static evaluation (the embedded network by default).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.wait();
        self.options.evaluation = evaluation;
    }

    pub fn evaluation(&self) -> &Evaluation {
        &self.options.evaluation
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_uses_the_network_and_limited_strength_the_calibrated_evaluation() {
        let full = EngineOptions::default();
        assert!(matches!(full.search_evaluation(), Evaluation::Nnue { .. }));
        let limited = EngineOptions {
            strength: Some(1500),
            ..EngineOptions::default()
        };
        assert_eq!(limited.search_evaluation(), Evaluation::HandCrafted);
    }

    /// What a search reported, less its timings.
    fn summary(event: SearchEvent) -> String {
        match event {
            SearchEvent::Info(info) => format!("{} {} {:?}", info.depth, info.score, info.pv),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn a_search_on_the_callers_thread_is_the_search_go_runs() {
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").expect("legal");
        let (mut spawned, spawned_events) = Engine::new(EngineOptions::default());
        let (mut here, here_events) = Engine::new(EngineOptions::default());
        for engine in [&mut spawned, &mut here] {
            engine.set_position(start.clone(), &[e4]).expect("legal");
        }
        // Twice: the second search starts from what the first left in the hash and histories.
        for _ in 0..2 {
            spawned.go(SearchLimits::nodes(20_000));
            let mut from_go = Vec::new();
            for event in spawned_events.iter() {
                let done = matches!(event, SearchEvent::BestMove { .. });
                from_go.push(summary(event));
                if done {
                    break;
                }
            }
            here.search_here(SearchLimits::nodes(20_000));
            let from_here: Vec<String> = here_events.try_iter().map(summary).collect();
            assert!(from_here.last().is_some_and(|e| e.starts_with("BestMove")));
            assert_eq!(from_go, from_here);
        }
    }
}
