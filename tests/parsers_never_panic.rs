//! Property tests for the parsers at the edges: any text given to the FEN, SAN and UCI parsers
//! gives `Ok` or a clear `Err`, never a panic. Inputs are valid strings mutated by a seeded
//! generator, plus random bytes; the malformed EPD lines in ../shared/epd/malformed are read as
//! they are.

mod common;

use common::{Rng, fuzz_iterations, mutate, no_panic, random_bytes};
use kibitzer::chess::{CastlingMode, Move, Position, San, UciMove, fen};

const FEN_SEEDS: &[&str] = &[
    fen::STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
];

const SAN_SEEDS: &[&str] = &[
    "e4", "Nf3", "exd5", "O-O", "O-O-O+", "0-0", "e8=Q#", "b8Q", "Raxd1", "Qh4xe1+", "R1a3",
    "Nbd7", "exd6", "b8(N)", "Pe2e4", "--", "Z0", "Kxf7!?", "bxc8=R+",
];

const UCI_SEEDS: &[&str] = &["e2e4", "e7e8q", "e1g1", "e1h1", "0000", "b7b8n", "a1a8"];

/// Every FEN entry point; an accepted FEN must print and read back as the same position.
fn check_fen(text: &str) {
    no_panic("FEN parser", text, || {
        let _ = fen::parse_setup(text);
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            let _ = Position::from_fen_with_mode(text, mode);
        }
        if let Ok(pos) = Position::from_fen(text) {
            let mode = pos.castling_mode();
            for printed in [pos.fen(), pos.shredder_fen()] {
                assert_eq!(
                    Position::from_fen_with_mode(&printed, mode).as_ref(),
                    Ok(&pos),
                    "{printed}"
                );
            }
            let _ = pos.legal_moves();
        }
    });
}

fn check_san(positions: &[Position], text: &str) {
    no_panic("SAN parser", text, || {
        if let Ok(san) = text.parse::<San>() {
            let _ = san.to_string();
        }
        for pos in positions {
            if let Ok(m) = pos.parse_san(text) {
                assert!(pos.is_legal(m), "{text} gave an illegal move");
            }
        }
    });
}

fn check_uci(positions: &[Position], text: &str) {
    no_panic("UCI parser", text, || {
        if let Ok(uci) = text.parse::<UciMove>() {
            assert!(uci.to_string().len() >= 4);
        }
        for pos in positions {
            if let Ok(m) = pos.parse_uci(text) {
                assert!(pos.is_legal(m), "{text} gave an illegal move");
            }
        }
    });
}

fn positions() -> Vec<Position> {
    FEN_SEEDS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

#[test]
fn fen_parser_never_panics() {
    let mut rng = Rng::new(0xfe4);
    for _ in 0..fuzz_iterations(20_000) {
        let seed = FEN_SEEDS[rng.below(FEN_SEEDS.len())].as_bytes();
        let input = if rng.below(10) == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, seed)
        };
        check_fen(&String::from_utf8_lossy(&input));
    }
}

#[test]
fn san_and_uci_parsers_never_panic() {
    let positions = positions();
    let mut rng = Rng::new(0x5a4);
    for _ in 0..fuzz_iterations(10_000) {
        let seeds = if rng.below(2) == 0 {
            SAN_SEEDS
        } else {
            UCI_SEEDS
        };
        let seed = seeds[rng.below(seeds.len())].as_bytes();
        let input = if rng.below(10) == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, seed)
        };
        let text = String::from_utf8_lossy(&input);
        check_san(&positions, &text);
        check_uci(&positions, &text);
    }
}

#[test]
fn arbitrary_move_codes_are_refused_unless_legal() {
    let positions = positions();
    let mut rng = Rng::new(0x30e);
    for _ in 0..20_000 {
        let Some(m) = Move::from_u16(rng.next_u64() as u16) else {
            continue;
        };
        for pos in &positions {
            no_panic("play", &format!("{m:?} in {}", pos.fen()), || {
                assert_eq!(pos.play(m).is_ok(), pos.legal_moves().contains(m));
            });
        }
    }
}

/// Lines of deliberately broken EPD (Chess-EPDs' destruction test, and Bratko-Kopec with NUL
/// bytes): no panic, and every line the file marks for culling is refused.
#[test]
fn malformed_epd_lines_give_errors() {
    let Some(dir) = common::shared_dir() else {
        return;
    };
    let mut refused = 0;
    for file in ["destruction-test.epd", "bratko-kopec-nul-bytes.epd"] {
        let text = common::read_shared(&format!("epd/malformed/{file}")).unwrap();
        for (i, line) in text.lines().enumerate() {
            let (position, note) = line.split_once(';').unwrap_or((line, ""));
            // An EPD line starts with the first four FEN fields.
            let epd: Vec<&str> = position.split_ascii_whitespace().take(4).collect();
            let epd = epd.join(" ");
            check_fen(line);
            check_fen(position);
            check_fen(&epd);
            let culled =
                note.contains("cull") || note.contains("garbage") || note.contains("bad EPD");
            if culled && !note.contains("override") && !note.contains("if engine") {
                assert!(
                    Position::from_fen(position).is_err() && Position::from_fen(&epd).is_err(),
                    "{}/epd/malformed/{file}:{}: accepted {position:?}",
                    dir.display(),
                    i + 1
                );
                refused += 1;
            }
        }
    }
    assert!(refused > 50, "{refused} lines refused");
}
