//! Perft against every suite in ../shared/epd/perft. The default run checks every listed depth up
//! to a node budget per entry, the Chess960 suite (frcperftsuite.epd) to depth 4, and each of the
//! few positions whose every listed count is over the budget against shakmaty at shallow depths,
//! so every position is covered. The ignored test raises the budget (`KIBITZER_PERFT_CAP`,
//! default 10 million nodes) for the deep run in CI.

mod common;

use std::collections::HashSet;

use kibitzer::chess::perft::perft;
use kibitzer::chess::{CastlingMode, Position};
use shakmaty as sm;

/// Node budget per entry in the default run.
const DEFAULT_CAP: u64 = 100_000;
/// Node budget per entry in the deep run, unless `KIBITZER_PERFT_CAP` says otherwise.
const DEEP_CAP: u64 = 10_000_000;

struct Case {
    /// `file:line` of the position.
    position: String,
    /// `file:line` of the count.
    source: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

/// `FEN ;D1 20 ;D2 400` lines (EPD style; the FEN may lack move counters).
fn parse_semicolon_suite(name: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_owned();
        for part in parts {
            let mut words = part.split_whitespace();
            let (Some(d), Some(n)) = (words.next(), words.next()) else {
                continue;
            };
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let nodes: u64 = n.parse().unwrap();
            cases.push(Case {
                position: format!("{name}:{}", i + 1),
                source: format!("{name}:{}", i + 1),
                fen: fen.clone(),
                depth,
                nodes,
            });
        }
    }
    cases
}

/// `id` / `epd FEN` / `perft D N` blocks.
fn parse_block_suite(name: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut fen = String::new();
    let mut position = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("epd ") {
            fen = rest.to_owned();
            position = format!("{name}:{}", i + 1);
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut words = rest.split_whitespace();
            let depth = words.next().unwrap().parse().unwrap();
            let nodes = words.next().unwrap().parse().unwrap();
            cases.push(Case {
                position: position.clone(),
                source: format!("{name}:{}", i + 1),
                fen: fen.clone(),
                depth,
                nodes,
            });
        }
    }
    cases
}

fn all_cases() -> Option<Vec<Case>> {
    let mut cases = Vec::new();
    for file in [
        "perftsuite-sunfish.epd",
        "perftsuite-viridithas.epd",
        "perft-chess-epds.epd",
        "perft-ferdy-double-checks.epd",
        "perft-marcel.epd",
        "frcperftsuite.epd",
    ] {
        let text = common::read_shared(&format!("epd/perft/{file}"))?;
        cases.extend(parse_semicolon_suite(file, &text));
    }
    for file in ["random.perft", "tricky.perft", "chess960.perft"] {
        let text = common::read_shared(&format!("epd/perft/{file}"))?;
        cases.extend(parse_block_suite(file, &text));
    }
    Some(cases)
}

fn position(case: &Case) -> Position {
    Position::from_fen(&case.fen)
        .or_else(|_| Position::from_fen_with_mode(&case.fen, CastlingMode::Chess960))
        .unwrap_or_else(|e| panic!("{}: {e}", case.source))
}

/// Our count against shakmaty's at every depth whose count stays within `cap`.
fn check_against_shakmaty(case: &Case, cap: u64) -> Result<(), String> {
    let ours = position(case);
    let mode = match ours.castling_mode() {
        CastlingMode::Standard => sm::CastlingMode::Standard,
        CastlingMode::Chess960 => sm::CastlingMode::Chess960,
    };
    let theirs: sm::Chess = case
        .fen
        .parse::<sm::fen::Fen>()
        .map_err(|e| format!("{}: {e}", case.position))?
        .into_position(mode)
        .map_err(|e| format!("{}: {e}", case.position))?;
    for depth in 1.. {
        let expected = sm::perft(&theirs, depth);
        let got = perft(&ours, depth, true);
        if got != expected {
            return Err(format!(
                "{} {} depth {depth}: shakmaty {expected}, ours {got}",
                case.position, case.fen
            ));
        }
        if expected * 30 > cap {
            return Ok(());
        }
    }
    Ok(())
}

/// Runs every case whose node count is within `cap` (the Chess960 suite always to depth 4), and
/// checks the positions left without a case against shakmaty, spread over the available cores.
/// Returns how many cases and positions ran.
fn run(cap: u64) -> (usize, usize) {
    let Some(cases) = all_cases() else {
        return (0, 0);
    };
    let selected: Vec<&Case> = cases
        .iter()
        .filter(|c| c.nodes <= cap || (c.source.starts_with("frc") && c.depth <= 4))
        .collect();
    let covered: HashSet<&str> = selected.iter().map(|c| c.position.as_str()).collect();
    let mut uncovered: Vec<&Case> = cases
        .iter()
        .filter(|c| !covered.contains(c.position.as_str()))
        .collect();
    uncovered.dedup_by(|a, b| a.position == b.position);
    let positions: HashSet<&str> = cases.iter().map(|c| c.position.as_str()).collect();

    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (selected, uncovered) = (&selected, &uncovered);
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for case in selected.iter().skip(t).step_by(threads) {
                        let got = perft(&position(case), case.depth, true);
                        if got != case.nodes {
                            failures.push(format!(
                                "{} {} depth {}: expected {}, got {got}",
                                case.source, case.fen, case.depth, case.nodes
                            ));
                        }
                    }
                    for case in uncovered.iter().skip(t).step_by(threads) {
                        failures.extend(check_against_shakmaty(case, cap).err());
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "{} perft counts checked (cap {cap} nodes), {} positions checked against shakmaty, \
         {} positions in all",
        selected.len(),
        uncovered.len(),
        positions.len()
    );
    (selected.len(), positions.len())
}

#[test]
fn perft_suites_to_a_budget() {
    let (ran, positions) = run(DEFAULT_CAP);
    assert!(ran == 0 || positions > 16_000);
}

#[test]
#[ignore = "deep perft; run with --include-ignored"]
fn perft_suites_deep() {
    let cap = std::env::var("KIBITZER_PERFT_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEEP_CAP);
    run(cap);
}
