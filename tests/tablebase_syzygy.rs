//! Syzygy probing on the shared tables: the 200 reference positions, root ranking, and broken
//! table directories.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use kibitzer::chess::TbWdl;
use kibitzer::chess::{Move, Position};
use kibitzer::engine::{
    Engine, EngineOptions, Score, SearchEvent, SearchInfo, SearchLimits, TablebaseConfig,
};
use kibitzer::tablebase::{Tablebases, TbError};

fn shared_tables() -> Option<Tablebases> {
    let dir = common::shared_dir()?.join("syzygy");
    let (tables, warnings) = Tablebases::open(dir.as_os_str()).expect("shared tables open");
    assert!(warnings.is_empty(), "{warnings:?}");
    Some(tables)
}

/// `field` out of an EPD line such as `... wdl_table 0; wdl 2; dtz 1;`.
fn field(line: &str, name: &str) -> i32 {
    line.split(';')
        .find_map(|op| {
            let mut words = op.split_whitespace();
            let value = words.next_back()?;
            (words.next_back() == Some(name)).then(|| value.parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no {name} in {line}"))
}

#[test]
fn reference_positions_give_expected_wdl_and_dtz() {
    let (Some(tables), Some(epd)) = (
        shared_tables(),
        common::read_shared("epd/endgame/syzygy-reference.epd"),
    ) else {
        return;
    };
    let mut count = 0;
    for line in epd.lines().filter(|l| !l.trim().is_empty()) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let pos = Position::from_fen(&format!("{} 0 1", fen.join(" "))).unwrap();
        let wdl = tables
            .probe_wdl(&pos)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let dtz = tables
            .probe_dtz(&pos)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(wdl.value(), field(line, "wdl"), "wdl of {line}");
        assert_eq!(dtz.plies, field(line, "dtz"), "dtz of {line}");
        count += 1;
    }
    assert_eq!(count, 200);
}

/// Every legal move of the 200 reference positions: the DTZ after it is python-chess's
/// (tests/fixtures/syzygy_moves.txt, from scripts/gen_tb_fixture.py), the column shows it, and
/// the best move of a win is consistent with the root: one ply less, or a zeroing move.
#[test]
fn the_dtz_after_every_move_is_python_chess_s() {
    let Some(tables) = shared_tables() else {
        return;
    };
    let fixture = include_str!("fixtures/syzygy_moves.txt");
    let mut moves = 0;
    for line in fixture.lines() {
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap();
        let root: i32 = fields.next().unwrap().parse().unwrap();
        let pos = Position::from_fen(fen).unwrap();
        let ranking = tables.view(&pos).unwrap().ranking;
        let expected: Vec<(&str, &str)> = fields
            .next()
            .unwrap()
            .split(' ')
            .filter(|m| !m.is_empty())
            .map(|m| m.split_once(':').unwrap())
            .collect();
        assert_eq!(ranking.moves.len(), expected.len(), "{fen}");
        for (uci, dtz) in expected {
            let m = ranking
                .moves
                .iter()
                .find(|r| pos.uci(r.mv) == uci)
                .unwrap_or_else(|| panic!("{fen}: {uci} not ranked"));
            if dtz == "mate" {
                assert!(m.checkmate && m.detail() == "checkmate", "{fen} {uci}");
                continue;
            }
            let dtz: i32 = dtz.parse().unwrap();
            assert_eq!(m.after.map(|d| d.plies), Some(dtz), "{fen} {uci}");
            let shown = m.detail();
            if dtz != 0 && !m.stalemate {
                let number = shown.trim_start_matches('~').split(',').next().unwrap();
                assert_eq!(number, dtz.abs().to_string(), "{fen} {uci}: {shown}");
            }
            moves += 1;
        }
        let best = ranking.moves[0];
        if root > 0 && !best.checkmate && !best.zeroing {
            let after = best.after.unwrap();
            assert!(
                after.plies < 0,
                "{fen}: the best move of a win leaves a loss"
            );
            if !after.rounded && !tables.probe_dtz(&pos).unwrap().rounded {
                assert_eq!(
                    -after.plies,
                    root - 1,
                    "{fen}: best move {}",
                    pos.uci(best.mv)
                );
            }
        }
    }
    assert!(moves > 2000, "{moves}");
}

#[test]
fn root_ranking_puts_the_fastest_win_first() {
    let Some(tables) = shared_tables() else {
        return;
    };
    // KRPvKR: White wins; 1. Rf2+? and king moves must not outrank the winning plan.
    let pos = Position::from_fen("8/8/8/8/4k3/8/3PK1r1/5R2 w - - 0 1").unwrap();
    let root = tables.rank_root(&pos, true).unwrap();
    assert_eq!(root.moves.len(), pos.legal_moves().len());
    let wdl = tables.probe_wdl(&pos).unwrap();
    let best = root.moves[0];
    assert_eq!(best.wdl, wdl);
    let dtz = tables.probe_dtz(&pos).unwrap().plies;
    assert_eq!(best.dtz, dtz, "best move keeps the position's DTZ");
    for pair in root.moves.windows(2) {
        assert!(pair[0].wdl >= pair[1].wdl);
    }
    assert!(root.best_group().iter().all(|m| m.wdl == best.wdl));
}

#[test]
fn mate_in_one_and_losses_holding_out_longest() {
    let Some(tables) = shared_tables() else {
        return;
    };
    let mating = Position::from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
    let root = tables.rank_root(&mating, true).unwrap();
    assert!(root.moves[0].checkmate);
    assert_eq!(mating.san(root.moves[0].mv), "Ra8#");
    // Black to move, lost: the first move is the one that loses slowest.
    let losing = Position::from_fen("8/8/8/4k3/8/8/8/3QK3 b - - 0 1").unwrap();
    let root = tables.rank_root(&losing, true).unwrap();
    assert!(root.moves.iter().all(|m| m.wdl == TbWdl::Loss));
    let longest = root.moves.iter().map(|m| m.dtz).min().unwrap();
    assert_eq!(root.moves[0].dtz, longest);
    assert_eq!(
        root.best_group().len(),
        root.moves.iter().filter(|m| m.dtz == longest).count()
    );
}

#[test]
fn cursed_win_under_the_fifty_move_rule() {
    let Some(tables) = shared_tables() else {
        return;
    };
    // KBNvK needs up to 33 moves to mate; with 90 halfmoves gone the mate is out of reach.
    let fresh = Position::from_fen("8/8/8/8/8/2k5/8/KBN5 w - - 0 1").unwrap();
    let late = Position::from_fen("8/8/8/8/8/2k5/8/KBN5 w - - 90 80").unwrap();
    let dtz = tables.probe_dtz(&fresh).unwrap().plies;
    assert!(dtz > 10, "dtz {dtz}");
    assert_eq!(
        tables.rank_root(&fresh, true).unwrap().moves[0].wdl,
        TbWdl::Win
    );
    let root = tables.rank_root(&late, true).unwrap();
    assert_eq!(root.moves[0].wdl, TbWdl::CursedWin);
    let ignoring_rule = tables.rank_root(&late, false).unwrap();
    assert!(
        ignoring_rule
            .best_group()
            .iter()
            .all(|m| m.wdl == TbWdl::CursedWin)
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitzer-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_table(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

const KRVK: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";

#[test]
fn missing_directory_is_an_error() {
    let err = Tablebases::open(OsStr::new("/nonexistent/kibitzer-syzygy")).unwrap_err();
    assert!(matches!(err, TbError::Directory { .. }));
    assert!(
        err.to_string().contains("/nonexistent/kibitzer-syzygy"),
        "{err}"
    );
    assert!(matches!(
        Tablebases::open(OsStr::new("")),
        Err(TbError::NoPath)
    ));
}

#[test]
fn missing_table_is_named() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let dir = temp_dir("missing");
    copy_table(&shared.join("syzygy"), &dir, "KQvK.rtbw");
    let (tables, warnings) = Tablebases::open(dir.as_os_str()).unwrap();
    assert!(warnings.is_empty());
    let err = tables
        .probe_wdl(&Position::from_fen(KRVK).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("KRvK.rtbw"), "{err}");
    let kqvk = Position::from_fen("8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&kqvk).unwrap(), TbWdl::Win);
    let err = tables.probe_dtz(&kqvk).unwrap_err();
    assert!(err.to_string().contains("KQvK.rtbz"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn empty_table_file_is_skipped_with_a_warning() {
    let dir = temp_dir("empty");
    std::fs::write(dir.join("KRvK.rtbw"), b"").unwrap();
    let (tables, warnings) = Tablebases::open(dir.as_os_str()).unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].to_string().contains("KRvK.rtbw"),
        "{}",
        warnings[0]
    );
    let err = tables
        .probe_wdl(&Position::from_fen(KRVK).unwrap())
        .unwrap_err();
    assert!(
        matches!(
            err,
            TbError::TooManyPieces { .. } | TbError::MissingTable { .. }
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn corrupted_table_file_is_an_error_not_a_panic() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let dir = temp_dir("corrupt");
    let good = std::fs::read(shared.join("syzygy/KRvK.rtbw")).unwrap();
    // Same size, scrambled content after a valid magic; then a bad magic.
    let mut scrambled = good.clone();
    let mut rng = common::Rng::new(0x1234_5678);
    for b in scrambled.iter_mut().skip(4) {
        *b = rng.next_u64() as u8;
    }
    let mut bad_magic = good.clone();
    bad_magic[0] ^= 0xff;
    let pos = Position::from_fen(KRVK).unwrap();
    for (bytes, must_fail) in [(bad_magic, true), (scrambled, false)] {
        std::fs::write(dir.join("KRvK.rtbw"), &bytes).unwrap();
        let (tables, _) = Tablebases::open(dir.as_os_str()).unwrap();
        match tables.probe_wdl(&pos) {
            Err(err) => assert!(
                matches!(err, TbError::Corrupted { .. }) && err.to_string().contains("KRvK.rtbw"),
                "{err}"
            ),
            // Scrambled data may still decode to some value; what matters is no panic.
            Ok(_) => assert!(!must_fail),
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs one search with the tables and returns its last info and best move.
fn search_with_tables(tables: &Tablebases, fen: &str, depth: u32) -> (SearchInfo, Move) {
    let (mut engine, events) = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    engine.set_tablebases(Some(TablebaseConfig {
        tables: std::sync::Arc::new(tables.clone()),
        probe_depth: 1,
        rule50: true,
    }));
    engine
        .set_position(Position::from_fen(fen).unwrap(), &[])
        .unwrap();
    engine.go(SearchLimits::depth(depth));
    let mut last = None;
    for event in events.iter() {
        match event {
            SearchEvent::Info(info) => last = Some(info),
            SearchEvent::BestMove { best, .. } => return (last.unwrap(), best.unwrap()),
            SearchEvent::CurrMove { .. } => {}
        }
    }
    unreachable!("every search ends with a best move")
}

#[test]
fn the_engine_scores_tablebase_wins_below_mate_and_counts_hits() {
    let Some(tables) = shared_tables() else {
        return;
    };
    // KRvK: the root keeps only winning moves and the score says so.
    let fen = "8/8/8/4k3/8/8/2R5/K7 w - - 0 1";
    let (info, best) = search_with_tables(&tables, fen, 8);
    let pos = Position::from_fen(fen).unwrap();
    let after = pos.play(best).unwrap();
    assert_eq!(
        tables.probe_wdl(&after).unwrap(),
        TbWdl::Loss,
        "{best:?} keeps the win"
    );
    let Score::Cp(cp) = info.score else {
        panic!("a tablebase win, not a mate: {:?}", info.score)
    };
    assert!(
        cp > 20_000,
        "tablebase wins score far above any evaluation: {cp}"
    );
    assert!(info.tbhits > 0);

    // Six pieces, not in the tables at the root: the probes come from inside the search, after
    // captures that reach five pieces (Rxh2 gives KRRvKR).
    let (info, _) = search_with_tables(&tables, "4k3/8/8/8/8/8/r6p/R3K2R w - - 0 1", 6);
    assert!(info.tbhits > 0, "{info:?}");
}
