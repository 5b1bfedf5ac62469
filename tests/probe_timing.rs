//! Timing bars of issue 5, run on demand (they measure, so CI skips them):
//! `cargo test --release --test probe_timing -- --ignored --nocapture`.

mod common;

use std::time::{Duration, Instant};

use kibitzer::book::Book;
use kibitzer::chess::Position;
use kibitzer::tablebase::Tablebases;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[test]
#[ignore]
fn root_dtz_ranking_of_krpvkr_under_5_ms() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let (tables, _) = Tablebases::open(shared.join("syzygy").as_os_str()).unwrap();
    let fens = [
        "8/8/8/4k3/8/3K4/3P4/5R1r w - - 0 1",
        "8/1k6/8/3P4/8/2K5/6r1/4R3 b - - 0 1",
        "2k5/8/8/8/1P6/8/r7/4K2R w - - 0 1",
        "8/8/4k3/8/2P5/8/1r6/3RK3 w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        // Each position on a fresh set of tables: the first call includes opening the files.
        let (fresh, _) = Tablebases::open(shared.join("syzygy").as_os_str()).unwrap();
        let start = Instant::now();
        fresh.rank_root(&pos, true).unwrap();
        let cold = start.elapsed();
        let samples: Vec<Duration> = (0..101)
            .map(|_| {
                let start = Instant::now();
                tables.rank_root(&pos, true).unwrap();
                start.elapsed()
            })
            .collect();
        let med = median(samples);
        println!(
            "rank_root {fen}: {} moves, median {:?} (cold {:?})",
            pos.legal_moves().len(),
            med,
            cold
        );
        assert!(med < Duration::from_millis(5), "{fen}: {med:?}");
    }
}

#[test]
#[ignore]
fn book_probe_under_50_microseconds() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let book = Book::open(&shared.join("books/performance.bin")).unwrap();
    let mut positions = vec![Position::startpos()];
    for uci in [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6",
    ] {
        let last = positions.last().unwrap();
        let next = last.play(last.parse_uci(uci).unwrap()).unwrap();
        positions.push(next);
    }
    let samples: Vec<Duration> = (0..1001)
        .map(|i| {
            let pos = &positions[i % positions.len()];
            let start = Instant::now();
            let moves = book.probe(pos);
            let elapsed = start.elapsed();
            std::hint::black_box(moves);
            elapsed
        })
        .collect();
    let mut sorted = samples.clone();
    sorted.sort();
    let p99 = sorted[sorted.len() * 99 / 100];
    let med = median(samples);
    println!("book probe (performance.bin, 92,954 entries): median {med:?}, p99 {p99:?}");
    assert!(med < Duration::from_micros(50));
}
