//! The client against the real Stockfish (skipped where it is not installed) and against fake
//! engines that misbehave: silent, crashing, talking nonsense.

use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;

use super::*;

const STOCKFISH: &str = "/usr/games/stockfish";

/// Writes an executable shell script that plays an engine; `on_go` runs on each `go`.
pub fn fake_engine(name: &str, on_go: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitzer-fake-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name Fake {name}'; echo 'option name Hash type spin default 1 min 1 max 64'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).unwrap();
    path
}

fn spec(path: &Path) -> EngineSpec {
    EngineSpec {
        name: "test".into(),
        path: path.to_owned(),
        args: Vec::new(),
        options: vec![("Hash".into(), "16".into())],
        protocol: Default::default(),
    }
}

fn best_move(events: &Receiver<SearchEvent>) -> (Vec<SearchInfo>, Option<Move>, Option<Move>) {
    let mut infos = Vec::new();
    loop {
        match events
            .recv_timeout(Duration::from_secs(30))
            .expect("engine answers")
        {
            SearchEvent::Info(i) => infos.push(i),
            SearchEvent::BestMove { best, ponder } => return (infos, best, ponder),
            SearchEvent::CurrMove { .. } => {}
        }
    }
}

#[test]
fn stockfish_keeps_one_process_and_follows_the_game() {
    if !Path::new(STOCKFISH).exists() {
        eprintln!("skipping: {STOCKFISH} not installed");
        return;
    }
    let (mut client, events) =
        UciClient::start(&spec(Path::new(STOCKFISH)), HANDSHAKE_TIMEOUT).expect("stockfish starts");
    assert!(
        client.id_name().contains("Stockfish"),
        "{}",
        client.id_name()
    );
    assert!(client.has_option("hash") && client.has_option("MultiPV"));
    let pid = client.pid();
    let start = Position::startpos();
    let mut moves = Vec::new();
    let mut pos = start.clone();
    for _ in 0..4 {
        client.go(&start, &moves, &SearchLimits::depth(8)).unwrap();
        let (infos, best, _) = best_move(&events);
        let last = infos.last().expect("infos before the best move");
        assert_eq!(last.depth, 8);
        assert_eq!(
            last.pv.first().copied(),
            best,
            "pv starts with the best move"
        );
        let best = best.expect("a legal best move");
        assert!(pos.is_legal(best));
        pos.play_unchecked(best);
        moves.push(best);
    }
    assert_eq!(client.pid(), pid, "one process for the session");
    // Infinite search, then stop: one best move comes back.
    client
        .go(&start, &moves, &SearchLimits::infinite())
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    client.stop().unwrap();
    let (_, best, _) = best_move(&events);
    assert!(best.is_some_and(|m| pos.is_legal(m)));
}

#[test]
fn go_lines_carry_every_limit() {
    let pos = Position::startpos();
    let e4 = pos.parse_uci("e2e4").unwrap();
    let limits = SearchLimits {
        limits: vec![
            Limit::Depth(7),
            Limit::Clock(crate::engine::Clock {
                time: crate::chess::ByColor {
                    white: Duration::from_secs(60),
                    black: Duration::from_millis(59_500),
                },
                inc: crate::chess::ByColor {
                    white: Duration::from_secs(1),
                    black: Duration::from_secs(1),
                },
                moves_to_go: Some(10),
            }),
        ],
        ponder: true,
        search_moves: vec![e4],
    };
    assert_eq!(
        go_command(&pos, &limits),
        "go ponder depth 7 wtime 60000 btime 59500 winc 1000 binc 1000 movestogo 10 searchmoves e2e4"
    );
    assert_eq!(go_command(&pos, &SearchLimits::infinite()), "go infinite");
}

#[test]
fn missing_binary_is_a_clear_error() {
    let err = UciClient::start(&spec(Path::new("/nonexistent/engine")), HANDSHAKE_TIMEOUT)
        .err()
        .expect("no such program");
    assert!(matches!(err, ClientError::Spawn { .. }));
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

#[test]
fn silent_engine_times_out() {
    let path = fake_engine("silent", "");
    std::fs::write(&path, "#!/bin/sh\nwhile read line; do :; done\n").unwrap();
    let err = UciClient::start(&spec(&path), Duration::from_millis(300))
        .err()
        .expect("no uciok");
    assert!(
        matches!(err, ClientError::NoAnswer { command: "uci", .. }),
        "{err}"
    );
}

#[test]
fn crash_closes_the_event_channel() {
    let path = fake_engine("crash", "exit 3");
    let (mut client, events) = UciClient::start(&spec(&path), HANDSHAKE_TIMEOUT).unwrap();
    assert_eq!(client.id_name(), "Fake crash");
    client
        .go(&Position::startpos(), &[], &SearchLimits::depth(5))
        .unwrap();
    assert_eq!(
        events.recv_timeout(Duration::from_secs(10)),
        Err(RecvTimeoutError::Disconnected)
    );
    // Its output closes a moment before the process is reaped.
    let deadline = Instant::now() + Duration::from_secs(5);
    while client.is_alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!client.is_alive());
    let mut failed = false;
    // The pipe may take a write to notice the reader is gone.
    for _ in 0..3 {
        failed |= client
            .go(&Position::startpos(), &[], &SearchLimits::depth(5))
            .is_err();
    }
    assert!(failed, "writing to a dead engine fails");
}

#[test]
fn nonsense_output_is_skipped() {
    let path = fake_engine(
        "nonsense",
        "echo 'info string hello'; echo 'info depth 3 score cp abc pv e7e5'; \
         echo 'info depth x'; echo 'info depth 4 seldepth 6 score cp 40 upperbound nodes 99 pv e7e5 zzzz g1f3'; \
         echo 'info depth 5 score mate -3 pv e7e5'; echo 'bogus line'; echo 'bestmove e7e5 ponder g1f3'",
    );
    let (mut client, events) = UciClient::start(&spec(&path), HANDSHAKE_TIMEOUT).unwrap();
    let start = Position::startpos();
    let e4 = start.parse_uci("e2e4").unwrap();
    client.go(&start, &[e4], &SearchLimits::depth(5)).unwrap();
    let (infos, best, ponder) = best_move(&events);
    assert_eq!(infos.len(), 2, "{infos:?}");
    assert_eq!(infos[0].depth, 4);
    assert_eq!(infos[0].bound, Bound::Upper);
    assert_eq!(infos[0].nodes, 99);
    assert_eq!(infos[0].pv.len(), 1, "pv cut at the bad move");
    assert_eq!(infos[1].score, Score::Mate(-3));
    let after = start.play(e4).unwrap();
    assert_eq!(best, after.parse_uci("e7e5").ok());
    assert!(ponder.is_some());
    // A best move that is illegal in the position becomes None, not a panic.
    let (b, p) = parse_bestmove("bestmove e2e5", &after);
    assert_eq!((b, p), (None, None));
    let (b, _) = parse_bestmove("bestmove (none)", &after);
    assert_eq!(b, None);
}
