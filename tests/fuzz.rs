//! Mutation fuzzing of the parsers that read what users and other programs give us: UCI command
//! lines, whole PGN files, Polyglot books, NNUE network files, training games files, config.toml
//! and EPD lines (FEN,
//! SAN and UCI moves are in parsers_never_panic.rs). Valid inputs are mutated by a seeded
//! generator, with random bytes one time in ten; no input may panic, and what is accepted must
//! be usable. The default run is short; `scripts/fuzz-long.sh` runs a million inputs each.

mod common;

use std::borrow::Cow;

use common::{Rng, fuzz_iterations, mutate, no_panic, random_bytes};
use kibitzer::book::Book;
use kibitzer::chess::{Position, epd};
use kibitzer::engine::nnue::Network;
use kibitzer::engine::nnue::data::WhiteResult;
use kibitzer::engine::nnue::games::{GameRecord, MAGIC, read_games};
use kibitzer::game::{PgnReader, parse_all};
use kibitzer::uci::UciCommand;

/// Feeds `check` mutations of `seeds` (and random bytes), failing on the first panic.
fn fuzz(name: &str, seed: u64, default: usize, seeds: &[Vec<u8>], check: impl Fn(&[u8])) {
    let mut rng = Rng::new(seed);
    for _ in 0..fuzz_iterations(default) {
        let input = if rng.below(10) == 0 {
            random_bytes(&mut rng)
        } else {
            let seed = rng.below(seeds.len());
            mutate(&mut rng, &seeds[seed])
        };
        no_panic(name, &String::from_utf8_lossy(&input), || check(&input));
    }
}

fn text_seeds(texts: &[&str]) -> Vec<Vec<u8>> {
    texts.iter().map(|t| t.as_bytes().to_vec()).collect()
}

#[test]
fn uci_command_lines() {
    let seeds = text_seeds(&[
        "uci",
        "position startpos moves e2e4 e7e5 g1f3",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2",
        "go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 30",
        "go depth 3000000000 nodes 99999999999999999999 movetime -5 searchmoves e2e4",
        "go infinite ponder mate 3",
        "setoption name Hash value 99999999",
        "setoption name MultiPV value 0",
        "setoption name SyzygyPath value /tmp/a b",
        "ponderhit",
        "bench 5",
    ]);
    fuzz("UCI command", 0x0c1, 20_000, &seeds, |bytes| {
        let line = String::from_utf8_lossy(bytes);
        if let Ok(command) = line.parse::<UciCommand>() {
            let _ = format!("{command:?}");
        }
    });
}

const PGN: &str = "[Event \"a\"]\n[White \"b\"]\n[Result \"1-0\"]\n\n\
    {start} 1. e4 e5 2. Nf3 (2. f4 exf4 {gambit} $1) 2... Nc6 3. Bb5 a6?! ; line comment\n\
    4. Ba4 Nf6 5. O-O $14 {[%eval 0.3] [%clk 0:01:00]} 1-0\n\n\
    [FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=Q+ Kd7 2. e2-e4 -- *\n";

#[test]
fn pgn_files() {
    let mut seeds = text_seeds(&[PGN]);
    if let Some(text) = common::read_shared("pgn/python-chess/variations-nags-and-comments.pgn") {
        seeds.push(text.into_bytes());
    }
    fuzz("PGN reader", 0x9a1, 3_000, &seeds, |bytes| {
        for game in PgnReader::new(bytes).flatten() {
            // What was read writes out and reads back the same.
            let pgn = game.game.to_pgn();
            let again = parse_all(&pgn);
            assert_eq!(again.len(), 1, "{pgn}");
            assert!(again[0].game == game.game, "{pgn}");
        }
    });
}

#[test]
fn polyglot_books() {
    let book = Book::embedded();
    let mut bytes = Vec::new();
    for i in 0..book.len().min(64) {
        bytes.extend_from_slice(&book.entry(i).to_bytes());
    }
    let positions = [
        Position::startpos(),
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap(),
    ];
    fuzz("Polyglot book", 0xb00, 5_000, &[bytes], |bytes| {
        if let Ok(book) = Book::from_bytes(Cow::Owned(bytes.to_vec()), "fuzz") {
            for pos in &positions {
                for m in book.probe(pos) {
                    assert!(pos.is_legal(m.mv), "the book offers an illegal move");
                }
            }
        }
    });
}

#[test]
fn training_games_files() {
    let mut pos = Position::startpos();
    let mut plies = Vec::new();
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"] {
        let mv = pos.parse_uci(uci).unwrap();
        pos.play_unchecked(mv);
        plies.push((mv, 17));
    }
    let game = GameRecord {
        start: Position::startpos(),
        result: WhiteResult::Draw,
        plies,
    };
    let mut bytes = MAGIC.to_vec();
    game.write_to(&mut bytes).unwrap();
    game.write_to(&mut bytes).unwrap();
    fuzz("training games file", 0x9a3, 500, &[bytes], |bytes| {
        if let Ok(games) = read_games(bytes) {
            for game in games {
                let _ = game.positions();
            }
        }
    });
}

#[test]
fn nnue_network_files() {
    // The smallest network the format allows keeps each input short.
    let hidden = 16;
    let inputs = 768;
    let weights = (0..inputs * hidden).map(|i| (i % 97) as i16 - 48).collect();
    let bias = vec![3; hidden];
    let output = (0..2 * hidden).map(|i| i as i16 - 16).collect();
    let network = Network::new(weights, bias, output, vec![7]).unwrap();
    let pos = Position::startpos();
    fuzz(
        "NNUE network file",
        0x22e,
        500,
        &[network.to_bytes()],
        |bytes| {
            if let Ok(net) = Network::from_bytes(bytes) {
                let _ = net.evaluate_from_scratch(&pos);
            }
        },
    );
}

#[test]
fn config_files() {
    let seeds = text_seeds(&[
        &kibitzer::tui::config::default_text(),
        "[play]\nlevel = 99999999999\ntime_control = \"-5+-3\"\n[engine]\nhash_mb = -1\n",
        "[keys]\nquit = \"ctrl-\"\n[[engines]]\nname = \"x\"\ncommand = \"\"\n",
    ]);
    fuzz("config.toml", 0xc0f, 5_000, &seeds, |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let (config, _errors) = kibitzer::tui::config::parse(&text, "fuzz");
        assert!((1..=20).contains(&config.level));
    });
}

#[test]
fn epd_lines() {
    let seeds = text_seeds(&[
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        "4k3/8/8/8/8/8/8/4K3 b - - hmvc 12; fmvn 40; c0 \"a; b\";",
        "rn1qkb1r/pp2pppp/2p2n2/3p1b2/3P4/4PN2/PPPN1PPP/R1BQKB1R w KQkq - c0 \"sf15.1 d14 -11\";",
    ]);
    fuzz("EPD", 0xe9d, 20_000, &seeds, |bytes| {
        let line = String::from_utf8_lossy(bytes);
        if let Ok(epd) = epd::parse(&line) {
            let fen = epd.position.fen();
            assert_eq!(
                Position::from_fen(&fen).as_ref(),
                Ok(&epd.position),
                "{fen}"
            );
        }
    });
}
