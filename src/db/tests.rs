//! The database end to end: PGN text imported, then explored and read back.

use std::path::{Path, PathBuf};

use super::*;
use crate::chess::{Color, Position};
use crate::game::{GameResult, parse_all, write_game};

struct Fixture {
    dir: tempfile::TempDir,
    db: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.kdb");
        Fixture { dir, db }
    }

    fn file(&self, name: &str, pgn: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, pgn).unwrap();
        path
    }

    /// Imports the files; returns the summary and the messages about bad games.
    fn import(&self, files: &[PathBuf]) -> (ImportSummary, Vec<String>) {
        let mut db = Database::open_for_import(&self.db).unwrap();
        let mut messages = Vec::new();
        let summary = import(&mut db, files, &mut |e| {
            if let ImportEvent::Bad { message, .. } = e {
                messages.push(message);
            }
        })
        .unwrap();
        (summary, messages)
    }

    fn explore(&self, moves: &str, filters: &Filters) -> Report {
        let db = Database::open(&self.db).unwrap();
        let pos = Query::Moves(moves.into()).position().unwrap();
        Explorer::new(&db).explore(&pos, filters).unwrap()
    }
}

fn game(
    white: &str,
    black: &str,
    elos: (u16, u16),
    date: &str,
    result: &str,
    moves: &str,
) -> String {
    format!(
        "[Event \"Test\"]\n[Date \"{date}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
         [Result \"{result}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n\n{moves} {result}\n\n",
        elos.0, elos.1
    )
}

fn counts(report: &Report) -> Vec<(String, u64, u64, u64, u64)> {
    report
        .moves
        .iter()
        .map(|m| {
            (
                m.san.clone(),
                m.tally.games,
                m.tally.white,
                m.tally.draws,
                m.tally.black,
            )
        })
        .collect()
}

/// Forty plies of knights going out and back, which end where they began.
const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 \
                       Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";

#[test]
fn transpositions_meet_and_each_game_counts_once() {
    let f = Fixture::new();
    let pgn = [
        game(
            "Ann",
            "Bob",
            (2100, 2200),
            "2020.01.01",
            "1-0",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5",
        ),
        game(
            "Bob",
            "Ann",
            (2200, 2000),
            "2021.06.01",
            "0-1",
            "1. Nf3 Nc6 2. e4 e5 3. Bc4",
        ),
        game(
            "Cid",
            "Ann",
            (1800, 1900),
            "2022.03.01",
            "1/2-1/2",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5",
        ),
        // Reaches the start again after 40 plies: counted once, with its first move.
        game(
            "Dan",
            "Eve",
            (0, 0),
            "2023.01.01",
            "1-0",
            &format!("{SHUFFLE} e4 e5 Nf3 Nc6 Bc4"),
        ),
    ]
    .concat();
    let (summary, bad) = f.import(&[f.file("a.pgn", &pgn)]);
    assert_eq!((summary.games, summary.bad), (4, 0), "{bad:?}");

    let start = f.explore("", &Filters::default());
    assert_eq!(
        (
            start.total.games,
            start.total.white,
            start.total.draws,
            start.total.black
        ),
        (4, 2, 1, 1)
    );
    assert_eq!(
        counts(&start),
        [("Nf3".into(), 2, 1, 0, 1), ("e4".into(), 2, 1, 1, 0)]
    );
    assert_eq!(
        start.total.average_rating,
        Some(2033),
        "unrated games are left out"
    );

    // After 1. e4 e5 2. Nf3 Nc6 (or 1. Nf3 Nc6 2. e4 e5, or after the shuffle): all four.
    let italian = f.explore("e4 e5 Nf3 Nc6", &Filters::default());
    assert_eq!(
        counts(&italian),
        [("Bb5".into(), 2, 1, 1, 0), ("Bc4".into(), 2, 1, 0, 1)]
    );
    assert_eq!(italian.latest_games.first().map(|g| g.id), Some(4));
    assert_eq!(
        italian.top_games.first().map(|g| g.white.as_str()),
        Some("Ann")
    );

    // The games themselves, by id, in import order.
    let db = Database::open(&f.db).unwrap();
    let mut explorer = Explorer::new(&db);
    let pos = Query::Moves("e4 e5 Nf3 Nc6 Bc4".into()).position().unwrap();
    assert_eq!(
        explorer.game_ids(&pos, &Filters::default()).unwrap(),
        [2, 4]
    );
    // The latest of them, latest first, as many as asked.
    let mut latest = |n| {
        explorer
            .latest_game_ids(&pos, &Filters::default(), n)
            .unwrap()
    };
    assert_eq!(
        (latest(1), latest(2), latest(5)),
        (vec![4], vec![4, 2], vec![4, 2])
    );
    let start = crate::chess::Position::startpos();
    let all = explorer.game_ids(&start, &Filters::default()).unwrap();
    let newest: Vec<u64> = all.iter().rev().take(3).copied().collect();
    assert_eq!(
        explorer
            .latest_game_ids(&start, &Filters::default(), 3)
            .unwrap(),
        newest
    );
}

#[test]
fn filters_pick_players_colours_results_ratings_and_dates() {
    let f = Fixture::new();
    let pgn = [
        game("Ann", "Bob", (2000, 2200), "2020.01.01", "1-0", "1. e4 e5"),
        game("Bob", "Ann", (2200, 2000), "2021.06.01", "0-1", "1. d4 d5"),
        game(
            "Cid",
            "Annabel",
            (1800, 1900),
            "2022.03.01",
            "1/2-1/2",
            "1. c4 e5",
        ),
    ]
    .concat();
    f.import(&[f.file("a.pgn", &pgn)]);
    let games = |filters: Filters| f.explore("", &filters).total.games;
    let player = |name: &str, color| Filters {
        player: Some(name.into()),
        color,
        ..Filters::default()
    };
    assert_eq!(
        games(player("ann", None)),
        2,
        "an exact name, ignoring case"
    );
    assert_eq!(games(player("ann", Some(Color::White))), 1);
    assert_eq!(
        games(player("nnab", None)),
        1,
        "else any name containing it"
    );
    let report = f.explore("", &player("ann", Some(Color::Black)));
    assert_eq!(report.players, ["Ann"]);
    assert_eq!(counts(&report), [("d4".into(), 1, 0, 0, 1)]);
    assert_eq!(
        games(Filters {
            result: Some(GameResult::Draw),
            ..Filters::default()
        }),
        1
    );
    assert_eq!(
        games(Filters {
            min_rating: Some(2050),
            ..Filters::default()
        }),
        2
    );
    assert_eq!(
        games(Filters {
            max_rating: Some(2000),
            ..Filters::default()
        }),
        1
    );
    assert_eq!(
        games(Filters {
            since: Some("2021".into()),
            ..Filters::default()
        }),
        2
    );
    assert_eq!(
        games(Filters {
            until: Some("2021".into()),
            ..Filters::default()
        }),
        2
    );
    assert_eq!(
        games(Filters {
            until: Some("2021.05".into()),
            ..Filters::default()
        }),
        1
    );
    let db = Database::open(&f.db).unwrap();
    let nobody = Explorer::new(&db).explore(&Position::startpos(), &player("zed", None));
    assert!(matches!(nobody, Err(DbError::Query(_))));
}

#[test]
fn bad_games_are_reported_and_the_rest_imported_once() {
    let f = Fixture::new();
    let pgn = [
        game("A", "B", (0, 0), "2020.01.01", "1-0", "1. e4 e5"),
        "[Event \"Broken\"]\n\n1. e4 e4 1-0\n\n".to_owned(),
        game("C", "D", (0, 0), "2020.01.01", "0-1", "1. d4 Nf6"),
    ]
    .concat();
    let file = f.file("a.pgn", &pgn);
    let (summary, bad) = f.import(std::slice::from_ref(&file));
    assert_eq!((summary.games, summary.bad), (2, 1));
    assert_eq!(bad.len(), 1);
    assert!(bad[0].starts_with("game 2, line 13:"), "{}", bad[0]);
    // The same file again adds nothing; a new one adds its games.
    let (again, _) = f.import(std::slice::from_ref(&file));
    assert_eq!((again.games, again.recognised), (0, 1));
    let more = f.file(
        "b.pgn",
        &game("E", "F", (0, 0), "2020.01.01", "1-0", "1. e4 c5"),
    );
    f.import(&[more]);
    let e4 = f.explore("e4", &Filters::default());
    assert_eq!(
        counts(&e4),
        [("c5".into(), 1, 1, 0, 0), ("e5".into(), 1, 1, 0, 0)]
    );
    assert_eq!(Database::open(&f.db).unwrap().game_count().unwrap(), 3);
}

#[test]
fn games_read_back_as_they_were_imported() {
    let Some(dir) = crate::test_data::shared_path("pgn/pgn-reader") else {
        eprintln!("skipped: no ../shared");
        return;
    };
    let f = Fixture::new();
    let path = dir.join("legal.pgn");
    f.import(std::slice::from_ref(&path));
    let original = parse_all(&std::fs::read_to_string(&path).unwrap());
    let db = Database::open(&f.db).unwrap();
    let explorer = Explorer::new(&db);
    let ids: Vec<u64> = (1..=original.len() as u64).collect();
    let stored = explorer.load(&ids).unwrap();
    assert_eq!(stored.len(), original.len());
    for (parsed, stored) in original.iter().zip(&stored) {
        let game = stored.to_game().unwrap();
        let moves = |g: &crate::game::Game| -> Vec<String> {
            g.tree
                .mainline()
                .map(|id| g.tree.san(id).unwrap_or_default())
                .collect()
        };
        assert_eq!(moves(&game), moves(&parsed.game), "game {}", stored.id);
        for (name, value) in parsed.game.headers.iter() {
            assert_eq!(
                game.headers.get(name),
                Some(value),
                "game {} tag {name}",
                stored.id
            );
        }
        assert_eq!(game.result, parsed.game.result);
        let mut text = String::new();
        write_game(&game, &mut text);
        assert!(text.contains(parsed.game.result.as_str()));
    }
}

/// Every position of every game of the shared corpora: the explorer's counts equal a count
/// made by replaying each game, for positions in and beyond the indexed plies.
#[test]
fn the_explorer_agrees_with_replaying_every_game() {
    let Some(dir) = crate::test_data::shared_path("pgn") else {
        eprintln!("skipped: no ../shared");
        return;
    };
    let f = Fixture::new();
    let mut files: Vec<PathBuf> = Vec::new();
    for sub in ["pgn-reader", "python-chess"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    files.sort();
    f.import(&files);
    let db = Database::open(&f.db).unwrap();
    let mut explorer = Explorer::new(&db);
    let count: i64 = db
        .conn
        .query_row("SELECT max(id) FROM games", [], |r| r.get(0))
        .unwrap();
    let games = explorer
        .load(&(1..=count as u64).collect::<Vec<_>>())
        .unwrap();
    // Brute force: per position key, per game, the move after its first visit.
    let mut seen: std::collections::HashMap<u64, Vec<(u64, Option<String>, GameResult)>> =
        std::collections::HashMap::new();
    let mut samples: Vec<Position> = Vec::new();
    for game in &games {
        let mut ply = 0;
        game.replay(|pos, next| {
            let visits = seen.entry(pos.hash()).or_default();
            if visits.last().is_none_or(|v| v.0 != game.id) {
                let san = match next {
                    Some(crate::game::GameMove::Move(m)) => Some(pos.san(m)),
                    Some(crate::game::GameMove::Null) => Some("--".into()),
                    None => None,
                };
                visits.push((game.id, san, game.result));
                if game.id % 7 == 0 && (ply % 9 == 0 || ply > INDEX_PLIES) && samples.len() < 400 {
                    samples.push(pos.clone());
                }
            }
            ply += 1;
            true
        });
    }
    assert!(samples.len() > 100);
    for pos in samples {
        let report = explorer.explore(&pos, &Filters::default()).unwrap();
        let visits = &seen[&pos.hash()];
        assert_eq!(report.total.games, visits.len() as u64, "{}", pos.fen());
        let mut expected: std::collections::BTreeMap<String, (u64, u64, u64, u64)> =
            Default::default();
        for (_, san, result) in visits {
            let Some(san) = san else { continue };
            let e = expected.entry(san.clone()).or_default();
            e.0 += 1;
            e.1 += u64::from(*result == GameResult::WhiteWins);
            e.2 += u64::from(*result == GameResult::Draw);
            e.3 += u64::from(*result == GameResult::BlackWins);
        }
        let got: std::collections::BTreeMap<String, (u64, u64, u64, u64)> = report
            .moves
            .iter()
            .map(|m| {
                (
                    m.san.clone(),
                    (m.tally.games, m.tally.white, m.tally.draws, m.tally.black),
                )
            })
            .collect();
        assert_eq!(got, expected, "{}", pos.fen());
    }
}

#[test]
fn a_file_that_is_not_a_database_is_left_alone() {
    let f = Fixture::new();
    let text = f.file("notes.kdb", "not a database at all, but someone's notes");
    assert!(matches!(
        Database::open_for_import(&text),
        Err(DbError::NotADatabase(_))
    ));
    assert!(matches!(
        Database::open(&text),
        Err(DbError::NotADatabase(_))
    ));
    assert_eq!(
        std::fs::read_to_string(&text).unwrap(),
        "not a database at all, but someone's notes"
    );
    assert!(Database::open(Path::new("/no/such/file.kdb")).is_err());
}

#[test]
fn tags_without_a_column_and_odd_values_read_back_whole() {
    let f = Fixture::new();
    let pgn = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
               [WhiteElo \"-\"]\n[BlackElo \"2100\"]\n[Annotator \"say \\\"hi\\\" \\\\ bye\"]\n\
               [Opening \"Ruy López\"]\n\n1. e4 e5 1-0\n\n";
    f.import(&[f.file("a.pgn", pgn)]);
    let db = Database::open(&f.db).unwrap();
    let game = Explorer::new(&db).load(&[1]).unwrap().remove(0);
    let tag = |name| game.headers.get(name);
    assert_eq!(tag("Annotator"), Some("say \"hi\" \\ bye"));
    assert_eq!(tag("Opening"), Some("Ruy López"));
    assert_eq!(
        (tag("WhiteElo"), tag("BlackElo")),
        (Some("-"), Some("2100"))
    );
    assert_eq!((game.white_elo, game.black_elo), (None, Some(2100)));
}
