//! The engine service: one interface (position and go with a search id, stop, ponderhit,
//! options) over the built-in engine and external UCI engines, run on a worker thread. Search
//! events come back tagged with the id of the search that produced them, scores from White's
//! view, so a caller recognises and drops the events of a stopped or superseded search.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use crate::chess::{ByColor, Move, Position};
use crate::engine::{self, Clock, Limit, SearchLimits, TablebaseConfig};
use crate::engines::external::{ClientError, EngineSpec};
use crate::game::Score;

mod backends;

use backends::{Backend, BuiltIn, Deliver, External};

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
    /// A bound (the search failed high or low and goes on): its line may be cut short.
    pub partial: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineEvent {
    Info(PvInfo),
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
    /// The engine answering the search (its configured name, or `ENGINE_NAME`); its reports
    /// follow.
    Engine(String),
    /// Something to tell the user; the search goes on (on the built-in engine).
    Notice(String),
    /// The search ended without a move (its engine crashed); ask again.
    Lost(String),
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
        /// The most one move may take, whatever the clock allows (the interface's pace).
        max_move: Option<Duration>,
    },
}

/// Identifies one search so its events can be matched to the request.
pub type SearchId = u64;

/// Settings the engine is asked to honour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineSettings {
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
        /// The external engine to search with (`None`: the built-in one). One that failed this
        /// session is not tried again until `Retry`: the built-in engine answers instead.
        engine: Option<Box<EngineSpec>>,
        start: Box<Position>,
        moves: Vec<Move>,
        limits: GoLimits,
        /// Search on the opponent's time, until `PonderHit` or `Stop`.
        ponder: bool,
    },
    /// The opponent played the move the ponder search expected: it goes on as a normal search,
    /// its clock starting now.
    PonderHit,
    Stop,
    Options(EngineSettings),
    /// The tables as the search takes them (`engines::policy`).
    Tablebases(Option<TablebaseConfig>),
    /// The external engine of this name gets another chance after a failure.
    Retry(String),
}

/// The handle on the engine service: commands go to its worker thread.
pub struct EngineService {
    commands: Sender<EngineCommand>,
}

/// Name shown for the built-in engine.
pub const ENGINE_NAME: &str = "kibitzer engine";

impl EngineService {
    /// Starts the service on a worker thread; `deliver` receives every event with the id of its
    /// search.
    pub fn spawn(deliver: impl Fn(SearchId, EngineEvent) + Send + Sync + 'static) -> EngineService {
        let (tx, rx) = mpsc::channel();
        let deliver: Deliver = Arc::new(deliver);
        thread::Builder::new()
            .name("engine-service".into())
            .spawn(move || {
                yield_to_the_interface();
                Worker {
                    builtin: BuiltIn::start(Arc::clone(&deliver)),
                    external: None,
                    failed: Vec::new(),
                    multipv: 1,
                    deliver,
                }
                .serve(rx);
            })
            .expect("spawning a thread");
        EngineService { commands: tx }
    }

    pub fn send(&self, command: EngineCommand) {
        // The worker lives as long as its caller; a send can only fail during shutdown.
        let _ = self.commands.send(command);
    }
}

/// The service's worker: our engine, and the external one chosen, started on first use.
struct Worker {
    builtin: BuiltIn,
    external: Option<External>,
    /// External engines that failed to start or crashed this session: ours stands in.
    failed: Vec<String>,
    multipv: u32,
    deliver: Deliver,
}

impl Worker {
    fn serve(mut self, rx: Receiver<EngineCommand>) {
        for command in rx {
            match command {
                EngineCommand::Go {
                    id,
                    engine,
                    start,
                    moves,
                    limits,
                    ponder,
                } => self.go(id, engine.map(|e| *e), *start, moves, limits, ponder),
                EngineCommand::PonderHit => self.each(|b| b.ponderhit()),
                EngineCommand::Stop => self.each(|b| b.stop()),
                EngineCommand::Tablebases(tables) => {
                    self.builtin.engine.stop();
                    self.builtin.engine.set_tablebases(tables);
                }
                EngineCommand::Retry(name) => {
                    self.failed.retain(|n| *n != name);
                    if self
                        .external
                        .as_ref()
                        .is_some_and(|x| x.dead.load(Ordering::Acquire))
                    {
                        self.external = None;
                    }
                }
                EngineCommand::Options(o) => {
                    self.builtin.configure(o);
                    self.multipv = o.multipv;
                    self.each(|b| b.set_multipv(o.multipv));
                }
            }
        }
    }

    /// Both engines (the external one if running).
    fn each(&mut self, mut f: impl FnMut(&mut dyn Backend)) {
        f(&mut self.builtin);
        if let Some(x) = &mut self.external {
            f(x);
        }
    }

    fn go(
        &mut self,
        id: SearchId,
        engine: Option<EngineSpec>,
        start: Position,
        moves: Vec<Move>,
        limits: GoLimits,
        ponder: bool,
    ) {
        self.each(|b| b.stop());
        let limits = SearchLimits {
            ponder,
            ..search_limits(limits)
        };
        if let Some(spec) = engine.filter(|s| !self.failed.contains(&s.name)) {
            (self.deliver)(id, EngineEvent::Engine(spec.name.clone()));
            let started = self.external(&spec);
            match started.and_then(|x| x.go(id, &start, &moves, &limits)) {
                Ok(()) => return,
                Err(e) => {
                    self.failed.push(spec.name.clone());
                    self.external = None;
                    (self.deliver)(
                        id,
                        EngineEvent::Notice(format!("{e}; the built-in engine takes over")),
                    );
                }
            }
        }
        (self.deliver)(id, EngineEvent::Engine(ENGINE_NAME.to_owned()));
        // The interface only sends legal games; nothing to search otherwise.
        let _ = self.builtin.go(id, &start, &moves, &limits);
    }

    /// The external engine `spec`, started if it is not running.
    fn external(&mut self, spec: &EngineSpec) -> Result<&mut External, ClientError> {
        let same = self.external.as_ref().filter(|x| x.client.spec() == spec);
        if same.is_some_and(|x| x.dead.load(Ordering::Acquire)) {
            // It crashed during an earlier search: not started again this session.
            return Err(ClientError::Exited {
                name: spec.name.clone(),
            });
        }
        if same.is_none() {
            self.external = None;
            let mut x = External::start(spec, Arc::clone(&self.deliver))?;
            x.set_multipv(self.multipv);
            self.external = Some(x);
        }
        Ok(self.external.as_mut().expect("started above"))
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
            max_move,
        } => {
            let mut limits = SearchLimits::with(Limit::Clock(Clock {
                time: ByColor { white, black },
                inc: ByColor {
                    white: white_inc,
                    black: black_inc,
                },
                moves_to_go: None,
            }));
            // The search stops at the first limit met: the clock's budget or this.
            limits.limits.extend(max_move.map(Limit::MoveTime));
            limits
        }
    }
}

/// Interface levels 1..=20 spread over the engine's Elo range; 20 is full strength.
pub fn level_elo(level: u8) -> Option<u32> {
    (level < MAX_LEVEL).then(|| {
        let step = (engine::MAX_ELO - engine::MIN_ELO) / u32::from(MAX_LEVEL - 1);
        engine::MIN_ELO + step * u32::from(level.max(1) - 1)
    })
}

/// The strongest level (full strength); levels run from 1.
pub const MAX_LEVEL: u8 = 20;

/// Nice value of this worker thread, and so of the search threads and external engines it starts
/// (Linux threads inherit it): a key press wakes the interface thread ahead of them.
#[cfg(target_os = "linux")]
const SEARCH_NICE: libc::c_int = 5;

fn yield_to_the_interface() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions; setpriority with our own thread id changes only this
    // thread's nice value, and a failure (returned, not signalled) just leaves it as it was.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, SEARCH_NICE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::external::Protocol;

    #[test]
    fn levels_map_onto_the_elo_range() {
        assert_eq!(level_elo(1), Some(engine::MIN_ELO));
        assert_eq!(level_elo(20), None);
        assert!(level_elo(19).unwrap() < engine::MAX_ELO);
        assert!(level_elo(10) < level_elo(11));
    }

    #[test]
    fn a_move_cap_joins_the_clock_and_the_first_limit_met_stops() {
        let clock = |max_move| GoLimits::Clock {
            white: Duration::from_secs(300),
            black: Duration::from_secs(300),
            white_inc: Duration::from_secs(3),
            black_inc: Duration::from_secs(3),
            max_move,
        };
        assert_eq!(search_limits(clock(None)).limits.len(), 1);
        let capped = search_limits(clock(Some(Duration::from_millis(10_500))));
        assert!(matches!(capped.limits[0], Limit::Clock(_)));
        assert_eq!(
            capped.limits[1],
            Limit::MoveTime(Duration::from_millis(10_500))
        );
        let go = crate::engines::external::go_command(&Position::startpos(), &capped);
        assert!(go.ends_with("winc 3000 binc 3000 movetime 10500"), "{go}");
    }

    #[test]
    fn real_engine_answers_through_the_link() {
        let (link, rx) = service();
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        link.send(EngineCommand::Go {
            id: 1,
            engine: None,
            start: Box::new(start.clone()),
            moves: vec![e4],
            limits: GoLimits::Infinite,
            ponder: false,
        });
        link.send(EngineCommand::Go {
            id: 2,
            engine: None,
            start: Box::new(start),
            moves: vec![e4],
            limits: GoLimits::MoveTime(Duration::from_millis(100)),
            ponder: false,
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

    #[test]
    fn a_ponder_search_answers_only_after_ponderhit() {
        let stockfish = std::path::Path::new("/usr/games/stockfish");
        let mut engines = vec![None];
        if stockfish.exists() {
            engines.push(Some(spec("stockfish", stockfish)));
        }
        for engine in engines {
            let (link, rx) = service();
            let start = Position::startpos();
            let e4 = start.parse_uci("e2e4").unwrap();
            link.send(EngineCommand::Go {
                id: 1,
                engine: engine.map(Box::new),
                start: Box::new(start),
                moves: vec![e4],
                limits: GoLimits::MoveTime(Duration::from_millis(100)),
                ponder: true,
            });
            // Far past its 100 ms: still pondering, so no move yet.
            let until = std::time::Instant::now() + Duration::from_millis(600);
            while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
                if let Ok((_, ev)) = rx.recv_timeout(left) {
                    assert!(!matches!(ev, EngineEvent::BestMove { .. }));
                }
            }
            link.send(EngineCommand::PonderHit);
            assert!(matches!(
                until_best(&rx, 1).last(),
                Some(EngineEvent::BestMove { best: Some(_), .. })
            ));
        }
    }

    fn spec(name: &str, path: &std::path::Path) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            path: path.to_owned(),
            args: Vec::new(),
            options: Vec::new(),
            protocol: Default::default(),
        }
    }

    /// A service whose events come back on the receiver.
    fn service() -> (EngineService, Receiver<(SearchId, EngineEvent)>) {
        let (tx, rx) = mpsc::channel();
        let service = EngineService::spawn(move |id, ev| {
            let _ = tx.send((id, ev));
        });
        (service, rx)
    }

    /// The position after 1. e4, where the tests' searches are.
    fn after_e4() -> Position {
        let start = Position::startpos();
        start.play(start.parse_uci("e2e4").unwrap()).unwrap()
    }

    /// Events until the best move of search `id`.
    fn until_best(rx: &Receiver<(SearchId, EngineEvent)>, id: SearchId) -> Vec<EngineEvent> {
        let mut seen = Vec::new();
        loop {
            let (got, ev) = rx
                .recv_timeout(Duration::from_secs(20))
                .expect("engine answers");
            let done =
                got == id && matches!(ev, EngineEvent::BestMove { .. } | EngineEvent::Lost(_));
            if got == id {
                seen.push(ev);
            }
            if done {
                return seen;
            }
        }
    }

    /// A short search after 1. e4 on `engine`.
    fn go_on(id: SearchId, engine: Option<EngineSpec>) -> EngineCommand {
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        EngineCommand::Go {
            id,
            engine: engine.map(Box::new),
            start: Box::new(start),
            moves: vec![e4],
            limits: GoLimits::MoveTime(Duration::from_millis(100)),
            ponder: false,
        }
    }

    #[test]
    fn external_engines_crash_or_missing_fall_back_to_ours() {
        let (link, rx) = service();
        // A missing program: a notice, and our engine answers the same search.
        link.send(go_on(
            1,
            Some(spec("ghost", "/nonexistent/engine".as_ref())),
        ));
        let events = until_best(&rx, 1);
        assert_eq!(events[0], EngineEvent::Engine("ghost".into()));
        assert!(matches!(&events[1], EngineEvent::Notice(m) if m.contains("/nonexistent/engine")));
        assert_eq!(
            events[2],
            EngineEvent::Engine(ENGINE_NAME.into()),
            "ours answers"
        );
        assert!(matches!(
            events.last(),
            Some(EngineEvent::BestMove { best: Some(_), .. })
        ));
        // An engine that dies on `go`: the search is lost, the next one runs on ours.
        let crash = crate::engines::external::tests::fake_engine("link-crash", "exit 3");
        let crash = spec("crash", &crash);
        link.send(go_on(2, Some(crash.clone())));
        let events = until_best(&rx, 2);
        assert!(matches!(events.last(), Some(EngineEvent::Lost(m)) if m.contains("crash")));
        link.send(go_on(3, Some(crash)));
        let events = until_best(&rx, 3);
        assert!(matches!(
            events.last(),
            Some(EngineEvent::BestMove { best: Some(_), .. })
        ));
    }

    #[test]
    fn stockfish_through_the_link() {
        let path = std::path::Path::new("/usr/games/stockfish");
        if !path.exists() {
            eprintln!("skipping: no stockfish");
            return;
        }
        let (link, rx) = service();
        link.send(go_on(7, Some(spec("stockfish", path))));
        let events = until_best(&rx, 7);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, EngineEvent::Info(i) if !i.pv.is_empty()))
        );
        let after_e4 = after_e4();
        assert!(
            matches!(events.last(), Some(EngineEvent::BestMove { best: Some(m), .. }) if after_e4.is_legal(*m))
        );
    }

    #[test]
    fn fairymax_through_the_service_over_the_xboard_protocol() {
        let path = std::path::Path::new("/usr/games/fairymax");
        if !path.exists() {
            eprintln!("skipping: no fairymax");
            return;
        }
        let (service, rx) = service();
        let fairymax = EngineSpec {
            protocol: Protocol::Xboard,
            ..spec("fairymax", path)
        };
        // A move in the time given, legal after 1. e4.
        service.send(go_on(1, Some(fairymax.clone())));
        let after_e4 = after_e4();
        let events = until_best(&rx, 1);
        assert!(
            matches!(events.last(), Some(EngineEvent::BestMove { best: Some(m), .. }) if after_e4.is_legal(*m)),
            "{events:?}"
        );
        // The game goes on: only the reply is sent, and a ponder search answers after the hit.
        let Some(EngineEvent::BestMove {
            best: Some(reply), ..
        }) = events.last().cloned()
        else {
            unreachable!("checked above");
        };
        let after_reply = after_e4.play(reply).unwrap();
        let ours = after_reply.legal_moves().iter().copied().next().unwrap();
        let moves = vec![Position::startpos().parse_uci("e2e4").unwrap(), reply, ours];
        service.send(EngineCommand::Go {
            id: 3,
            engine: Some(Box::new(fairymax.clone())),
            start: Box::new(Position::startpos()),
            moves: moves.clone(),
            limits: GoLimits::MoveTime(Duration::from_millis(100)),
            ponder: true,
        });
        service.send(EngineCommand::PonderHit);
        let events = until_best(&rx, 3);
        let after_ours = after_reply.play(ours).unwrap();
        assert!(
            matches!(events.last(), Some(EngineEvent::BestMove { best: Some(m), .. }) if after_ours.is_legal(*m)),
            "{events:?}"
        );
        // Endless analysis: lines until it is stopped, then the move its line began with.
        let start = Position::startpos();
        service.send(EngineCommand::Go {
            id: 2,
            engine: Some(Box::new(fairymax)),
            start: Box::new(start.clone()),
            moves: Vec::new(),
            limits: GoLimits::Infinite,
            ponder: false,
        });
        loop {
            let (id, ev) = rx.recv_timeout(Duration::from_secs(20)).expect("a line");
            if id == 2 && matches!(&ev, EngineEvent::Info(i) if !i.pv.is_empty()) {
                break;
            }
        }
        service.send(EngineCommand::Stop);
        let events = until_best(&rx, 2);
        assert!(
            matches!(events.last(), Some(EngineEvent::BestMove { best: Some(m), .. }) if start.is_legal(*m)),
            "{events:?}"
        );
    }
}
