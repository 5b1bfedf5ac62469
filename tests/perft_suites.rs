//! Perft against every suite in ../shared/epd/perft. The default run checks each listed depth up
//! to a node budget per entry; the ignored test raises the budget (`KIBITZER_PERFT_CAP`, default
//! 20 million nodes) for the deep run.

mod common;

use kibitzer::chess::perft::perft;
use kibitzer::chess::{CastlingMode, Position};

struct Case {
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
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("epd ") {
            fen = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut words = rest.split_whitespace();
            let depth = words.next().unwrap().parse().unwrap();
            let nodes = words.next().unwrap().parse().unwrap();
            cases.push(Case {
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

/// Runs every case whose node count is within `cap` (Chess960 suites always to depth 4),
/// spread over the available cores. Returns how many ran.
fn run(cap: u64) -> usize {
    let Some(cases) = all_cases() else {
        return 0;
    };
    let selected: Vec<&Case> = cases
        .iter()
        .filter(|c| c.nodes <= cap || (c.source.contains("frc") && c.depth <= 4))
        .collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let selected = &selected;
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for case in selected.iter().skip(t).step_by(threads) {
                        let pos = match Position::from_fen(&case.fen) {
                            Ok(p) => p,
                            Err(_) => {
                                Position::from_fen_with_mode(&case.fen, CastlingMode::Chess960)
                                    .unwrap_or_else(|e| panic!("{}: {e}", case.source))
                            }
                        };
                        let got = perft(&pos, case.depth, true);
                        if got != case.nodes {
                            failures.push(format!(
                                "{} {} depth {}: expected {}, got {got}",
                                case.source, case.fen, case.depth, case.nodes
                            ));
                        }
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
    selected.len()
}

#[test]
fn perft_suites_to_a_budget() {
    let ran = run(1_000_000);
    eprintln!("{ran} perft cases checked");
}

#[test]
#[ignore = "deep perft; run with --include-ignored"]
fn perft_suites_deep() {
    let cap = std::env::var("KIBITZER_PERFT_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000_000);
    let ran = run(cap);
    eprintln!("{ran} perft cases checked (cap {cap} nodes)");
}
