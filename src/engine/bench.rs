//! `bench`: a fixed-depth search of fixed positions. The total node count is the search's
//! signature (deterministic with one thread); nodes per second measures speed.

use std::time::{Duration, Instant};

use crate::chess::Position;

use super::{Engine, EngineOptions, SearchEvent, SearchLimits};

pub const DEFAULT_DEPTH: u32 = 11;

/// Openings, middlegames with tactics, and endgames of several kinds.
pub const POSITIONS: [&str; 40] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 5",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 4 8",
    "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1PN1PN2/PB2BPPP/R2QK2R w KQ - 1 9",
    "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    "r1bqkb1r/5ppp/p1np1n2/1p2p1B1/4P3/N1N5/PPP2PPP/R2QKB1R w KQkq - 0 9",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 7 12",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPB2PP1/RNBQR1K1 w - - 1 13",
    "r2qr1k1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQB1PP/2KR3R w - - 5 12",
    "2r2rk1/1bqnbppp/pp1ppn2/8/2PNP3/2N1B1P1/PP2QPBP/2RR2K1 w - - 2 15",
    "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PPQ2PPP/R1B1KB1R w KQ - 0 7",
    "3r1rk1/p1q2ppp/1pn1pn2/2b5/2P5/P1N1PN2/1BQ2PPP/3R1RK1 w - - 3 17",
    "r4rk1/pp2ppbp/2n3p1/q1pP4/2P1P3/2N1B3/P2Q1PPP/R3KB1R w KQ - 1 13",
    "1r3rk1/5ppp/p1npb3/1p2p3/4P3/P1N1B3/1PP2PPP/3R1RK1 w - - 0 19",
    "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/8/3k4/8/8/3PK3/8 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "8/8/1p3k2/p1p5/P1P3K1/1P6/8/8 w - - 0 40",
    "6k1/6p1/8/8/8/8/6P1/R5K1 w - - 0 1",
    "3r2k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1",
    "8/8/3k4/8/2R5/8/3K4/4r3 w - - 0 1",
    "8/1k6/8/2r5/8/8/4KP2/5R2 w - - 0 50",
    "5k2/8/4KP2/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/3k4/8/2B5/4K1N1 w - - 0 1",
    "8/3q4/8/4k3/8/8/3QK3/8 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
    "2r3k1/pp3ppp/2n5/3p4/3P4/2P2N2/P4PPP/4R1K1 b - - 0 22",
    "r1bqr1k1/ppp2pbp/2np1np1/4p3/2P5/2NP1NP1/PP2PPBP/R1BQ1RK1 w - - 0 8",
    "2kr3r/pppq1ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPPBBPPP/R2QK2R w KQ - 6 8",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
];

pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
    pub positions: usize,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches every bench position to `depth` from a fresh table and histories, calling
/// `progress(index, fen, nodes)` after each.
pub fn run(
    depth: u32,
    options: EngineOptions,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let (mut engine, events) = Engine::new(options);
    let mut total = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are legal");
        engine.new_game();
        // No moves: set_position cannot fail.
        let _ = engine.set_position(pos, &[]);
        engine.go(SearchLimits::depth(depth));
        let mut nodes = 0;
        for event in events.iter() {
            match event {
                SearchEvent::Info(info) => nodes = info.nodes,
                SearchEvent::BestMove { .. } => break,
                SearchEvent::CurrMove { .. } => {}
            }
        }
        progress(i, fen, nodes);
        total += nodes;
    }
    BenchResult {
        nodes: total,
        elapsed: start.elapsed(),
        positions: POSITIONS.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_legal_and_bench_is_deterministic() {
        for fen in POSITIONS {
            Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
        let opts = || EngineOptions {
            hash_mb: 4,
            ..EngineOptions::default()
        };
        let a = run(4, opts(), |_, _, _| {});
        let b = run(4, opts(), |_, _, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }
}
