//! The engine through its public API: finds mates, and always returns a legal move quickly,
//! whatever the limits.

mod common;

use std::sync::mpsc::Receiver;
use std::time::Duration;

use kibitzer::chess::{ByColor, Position};
use kibitzer::engine::{
    Clock, Engine, EngineOptions, Limit, Score, SearchEvent, SearchInfo, SearchLimits,
};

fn small_engine() -> (Engine, Receiver<SearchEvent>) {
    Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    })
}

/// Runs one search; returns the last info and the best move event.
fn search(
    engine: &mut Engine,
    events: &Receiver<SearchEvent>,
    pos: &Position,
    limits: SearchLimits,
) -> (Option<SearchInfo>, Option<kibitzer::chess::Move>) {
    engine.set_position(pos.clone(), &[]).unwrap();
    engine.go(limits);
    let mut last = None;
    loop {
        match events
            .recv_timeout(Duration::from_secs(60))
            .expect("search answers")
        {
            SearchEvent::Info(info) => last = Some(info),
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, ponder } => {
                if let (Some(b), Some(p)) = (best, ponder) {
                    let next = pos.play(b).expect("best move is legal");
                    assert!(next.legal_moves().contains(p), "ponder move is legal");
                }
                return (last, best);
            }
        }
    }
}

fn mate_cases() -> Vec<(String, u32)> {
    let mut cases = vec![
        // Rook ladder: Ra7 then Rb8#.
        ("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1".to_owned(), 2),
        // Back-rank mate.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".to_owned(), 1),
        // Scholar's mate.
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4".to_owned(),
            1,
        ),
    ];
    if let Some(text) = common::read_shared("epd/endgame/endgame-dm-4.epd") {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((fen, dm)) = line.split_once(" dm ") else {
                continue;
            };
            let dm: i32 = dm.trim_end_matches(';').trim().parse().unwrap();
            if (1..=4).contains(&dm) {
                cases.push((format!("{fen} 0 1"), dm as u32));
            }
        }
    }
    cases
}

#[test]
fn finds_short_mates_at_their_exact_distance() {
    let (mut engine, events) = small_engine();
    let cases = mate_cases();
    assert!(cases.len() >= 3);
    for (fen, moves) in cases {
        let pos = Position::from_fen(&fen).unwrap();
        engine.new_game();
        let mut limits = SearchLimits::with(Limit::Mate(moves));
        limits.limits.push(Limit::Depth(30));
        let (info, best) = search(&mut engine, &events, &pos, limits);
        let info = info.expect("an info line");
        assert_eq!(info.score, Score::Mate(moves as i32), "{fen}");
        assert!(best.is_some());
    }
}

#[test]
fn mated_and_stalemated_sides_get_no_move() {
    let (mut engine, events) = small_engine();
    let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let (info, best) = search(&mut engine, &events, &mated, SearchLimits::depth(5));
    assert_eq!((info.unwrap().score, best), (Score::Mate(0), None));
    let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let (info, best) = search(&mut engine, &events, &stalemate, SearchLimits::depth(5));
    assert_eq!((info.unwrap().score, best), (Score::Cp(0), None));
}

#[test]
fn legal_best_move_under_tiny_limits_from_many_positions() {
    let mut fens: Vec<String> = vec![kibitzer::chess::STARTPOS.to_owned()];
    if let Some(text) = common::read_shared("epd/perft/perftsuite-viridithas.epd") {
        fens.extend(
            text.lines()
                .filter_map(|l| l.split(';').next())
                .map(|f| f.trim().to_owned())
                .filter(|f| !f.is_empty()),
        );
    }
    let ms = Duration::from_millis;
    let tiny_clock = SearchLimits::clock(Clock {
        time: ByColor {
            white: ms(3),
            black: ms(3),
        },
        inc: ByColor::default(),
        moves_to_go: None,
    });
    let limit_sets = [
        SearchLimits::depth(1),
        SearchLimits::nodes(1),
        SearchLimits::nodes(50),
        SearchLimits::move_time(ms(1)),
        tiny_clock,
    ];
    let (mut engine, events) = small_engine();
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let has_moves = !pos.legal_moves().is_empty();
        for limits in &limit_sets {
            let (_, best) = search(&mut engine, &events, &pos, limits.clone());
            assert_eq!(best.is_some(), has_moves, "{fen} {limits:?}");
            if let Some(m) = best {
                assert!(pos.legal_moves().contains(m), "{fen}: illegal {m:?}");
            }
        }
    }
}

#[test]
fn stop_ends_infinite_analysis_with_multipv_and_threads() {
    let (mut engine, events) = Engine::new(EngineOptions {
        hash_mb: 8,
        threads: 2,
        multipv: 3,
        ..EngineOptions::default()
    });
    engine.set_position(Position::startpos(), &[]).unwrap();
    engine.go(SearchLimits::infinite());
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.is_searching(), "infinite search waits for stop");
    engine.stop();
    let mut lines = std::collections::BTreeSet::new();
    loop {
        match events
            .recv_timeout(Duration::from_secs(5))
            .expect("answers after stop")
        {
            SearchEvent::Info(info) => {
                lines.insert(info.multipv);
            }
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, .. } => {
                assert!(best.is_some());
                break;
            }
        }
    }
    assert_eq!(lines.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
}
