//! Every PGN file under ../shared/pgn: loads, reports its errors, and survives a round trip.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use kibitzer::game::{GameErrorKind, ParsedGame, PgnReader, check_game, parse_all, parse_game};

fn pgn_files() -> Vec<PathBuf> {
    let Some(dir) = common::shared_dir() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for sub in ["pgn/python-chess", "pgn/pgn-reader"] {
        for entry in fs::read_dir(dir.join(sub)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> Vec<ParsedGame> {
    PgnReader::open(path)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The errors real files contain, as (file, game, line): the same games python-chess rejects
/// (and the variants we do not play).
const KNOWN_ERRORS: &[(&str, u64, u64)] = &[
    ("illegal.pgn", 38, 833),
    ("rewrite-example.pgn", 4, 56),
    ("antichess-programfox.pgn", 1, 1),
    ("antichess-programfox.pgn", 2, 5),
    ("immortal-games.pgn", 1, 17),
    ("immortal-games.pgn", 17, 1139),
    ("immortal-games.pgn", 25, 1537),
    ("immortal-games.pgn", 34, 2185),
    ("knightvuillaume-jannlee-zh-lichess.pgn", 1, 1),
    ("saturs-jannlee-zh-lichess.pgn", 1, 1),
];

#[test]
fn every_shared_file_loads_with_its_known_errors() {
    let files = pgn_files();
    let mut found = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let games = read(path);
        assert!(!games.is_empty(), "{name}: no games");
        for g in &games {
            for e in &g.errors {
                if matches!(e.kind, GameErrorKind::UnsupportedVariant(_)) {
                    assert!(g.game.headers.get("Variant").is_some());
                }
                found.push((name.clone(), e.game, e.line));
            }
        }
    }
    if files.is_empty() {
        return;
    }
    let expected: Vec<(String, u64, u64)> = KNOWN_ERRORS
        .iter()
        .map(|&(f, g, l)| (f.to_owned(), g, l))
        .collect();
    found.sort();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    assert_eq!(found, expected_sorted);
}

/// illegal.pgn holds one illegal move (game 38, `2... b4` after 1. d4, on line 833); python-chess
/// and pgn-extract agree that the other 99 games are legal throughout.
#[test]
fn the_illegal_game_reports_its_error() {
    let Some(dir) = common::shared_dir() else {
        return;
    };
    let games = read(&dir.join("pgn/pgn-reader/illegal.pgn"));
    assert_eq!(games.len(), 100);
    for g in &games {
        if g.number != 38 {
            assert!(g.errors.is_empty(), "game {}: {:?}", g.number, g.errors);
            continue;
        }
        assert_eq!(g.errors.len(), 1, "{:?}", g.errors);
        let e = &g.errors[0];
        assert_eq!((e.game, e.line), (38, 833), "{e}");
        assert!(matches!(e.kind, GameErrorKind::Move { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "game 38, line 833: 1... b4 is not legal in this position"
        );
        // The move before the error is kept.
        assert_eq!(g.game.tree.mainline().count(), 1);
    }
}

/// Every way a game can be broken: reported with game number and line, the moves before the
/// error kept, and the next game read normally.
#[test]
fn broken_games_are_reported_and_skipped() {
    let text = "[Event \"1\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
[Event \"2\"]\n[White \"unclosed]\n\n1. d4 *\n\n\
[Event \"3\"]\n\n1. e4 (1. d4 d5 *\n\n\
[Event \"4\"]\n\n1. e4 e5 2. Nf3 { open\n\n\
[Event \"5\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 N@f6 *\n\n\
[Event \"6\"]\n[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
[Event \"7\"]\n\n1. e4 e5 ) 2. Nf3 *\n\n\
[Event \"8\"]\n\n1. Nf3 d5 2. Nc3 Nd7 3. Nb5 Nf6 4. Nbd4 Nd7 5. Nb5 Nb6 6. N5d4 Nd7 7. Nd4b5 *\n\n\
[Event \"9\"]\n\n1. e4 e5 *\n";
    let games = parse_all(text);
    assert_eq!(games.len(), 9);
    let messages: Vec<String> = games
        .iter()
        .map(|g| {
            g.errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .collect();
    assert_eq!(
        messages,
        [
            "game 1, line 3: 2. Ke3 is not legal in this position",
            "game 2, line 6: malformed tag: [White \"unclosed]",
            "game 3, line 12: variation not closed",
            "game 4, line 16: comment not closed: {open",
            "game 5, line 18: unsupported variant 'Crazyhouse'",
            "game 6, line 23: FEN tag '8/8/8/8 w - - 0 1': board field: expected 8 ranks separated by '/', found 4",
            "game 7, line 30: ')' without a matching '('",
            "game 8, line 34: 3... Nf6 is ambiguous in this position",
            "",
        ]
    );
    let kept: Vec<usize> = games
        .iter()
        .map(|g| g.game.tree.mainline().count())
        .collect();
    assert_eq!(kept, [2, 1, 1, 3, 0, 0, 2, 5, 2]);

    // An error inside a variation skips the rest of that variation only.
    let g = &parse_all("1. e4 (1. d4 Ke7 (1... d5) 2. c4) (1. c4) e5 2. Nf3 *")[0];
    assert_eq!(g.errors.len(), 1);
    assert_eq!(
        g.errors[0].to_string(),
        "game 1, line 1: 1... Ke7 is not legal in this position"
    );
    assert_eq!(g.game.tree.mainline().count(), 3);
    assert_eq!(g.game.tree.move_count(), 5);
}

#[test]
fn round_trip_keeps_every_tree() {
    for path in pgn_files() {
        for g in read(&path) {
            let text = g.game.to_pgn();
            let again = parse_all(&text);
            assert_eq!(
                again.len(),
                1,
                "{}: game {}\n{text}",
                path.display(),
                g.number
            );
            if g.errors.is_empty() {
                assert!(again[0].errors.is_empty(), "{:?}\n{text}", again[0].errors);
            }
            assert!(
                again[0].game == g.game,
                "{}: game {} differs after a round trip\n{text}",
                path.display(),
                g.number
            );
        }
    }
}

/// Mangled input never panics: bytes of real games flipped, cut and sprinkled with PGN syntax,
/// read, written and read again.
#[test]
fn mangled_games_never_panic() {
    let Some(text) = common::read_shared("pgn/python-chess/variations-nags-and-comments.pgn")
    else {
        return;
    };
    let base = format!(
        "{text}\n{}",
        common::read_shared("pgn/pgn-reader/fixture.pgn").unwrap_or_default()
    );
    let base = base.as_bytes();
    let specials = b"{}()[]\"\\%;$!?.-*01/=+#NZ\n\r \xff\xc3\xef";
    let mut rng = common::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |n: usize| rng.below(n);
    for _ in 0..400 {
        let mut bytes = base.to_vec();
        for _ in 0..1 + next(6) {
            let at = next(bytes.len());
            match next(4) {
                0 => bytes[at] = specials[next(specials.len())],
                1 => bytes.insert(at, specials[next(specials.len())]),
                2 => bytes.truncate(at.max(1)),
                _ => {
                    bytes.remove(at);
                }
            }
            if bytes.is_empty() {
                bytes.push(b'e');
            }
        }
        for g in PgnReader::new(&bytes[..]).flatten() {
            let again = parse_all(&g.game.to_pgn());
            assert_eq!(again.len(), 1);
            assert_eq!(again[0].game.headers, g.game.headers);
            assert_eq!(again[0].game.result, g.game.result);
            assert!(again[0].game == g.game, "{}", g.game.to_pgn());
        }
    }
}

/// `pgn check` reads games without keeping comments and NAGs: it must find exactly what the
/// full reader finds, on every shared file and on files written to provoke each report.
#[test]
fn checking_finds_what_reading_finds() {
    let mut texts: Vec<(String, Vec<u8>)> = pgn_files()
        .iter()
        .map(|p| (p.display().to_string(), fs::read(p).unwrap()))
        .collect();
    let odd = "[Event \"a\"]\n[White \"A\"]\n\n[Event \"b\"]\n[White \"B\"]\n[White \"C\"]\n\
               [Result \"1-0\"]\n\n1. e4 {x} e5 $1 0-1 {after} 2. Nf3 *\n\n1. d4 d5 (1... f5 {y}\n";
    texts.push(("odd".into(), odd.as_bytes().to_vec()));
    for (name, bytes) in texts {
        let mut full = Vec::new();
        PgnReader::new(&bytes[..])
            .for_each_raw(|raw| {
                let (a, b) = (parse_game(raw), check_game(raw));
                assert_eq!(a.errors, b.errors, "{name}");
                assert_eq!(a.warnings, b.warnings, "{name}");
                assert_eq!(a.game.tree.move_count(), b.game.tree.move_count(), "{name}");
                full.push(a);
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        assert!(!full.is_empty(), "{name}");
    }
}
