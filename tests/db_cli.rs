//! `kibitzer db` from the outside: a kill during an import, the JSON of the explorer, games
//! written as PGN, and the files it refuses to touch.

mod common;

use common::{kibitzer, stderr, stdout};

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn explore_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = kibitzer(
        &[&["db", "explore", "games.kdb", "--json"], args].concat(),
        dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

const GAMES: &str = "[Event \"A\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                     1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
                     [Event \"B\"]\n[White \"Bob\"]\n[Black \"Ann\"]\n[Result \"1/2-1/2\"]\n\n\
                     1. Nf3 Nc6 2. e4 e5 3. Bc4 1/2-1/2\n\n";

#[test]
fn explore_prints_the_moves_as_json_and_games_writes_them_as_pgn() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.pgn"), GAMES).unwrap();
    let out = kibitzer(&["db", "import", "a.pgn", "-o", "games.kdb"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("2 games imported"),
        "{}",
        stdout(&out)
    );

    let json = explore_json(dir.path(), &["--moves", "1. e4 e5 2. Nf3 Nc6"]);
    assert_eq!(json["games"], 2);
    assert_eq!(
        (json["white"].clone(), json["draws"].clone()),
        (1.into(), 1.into())
    );
    let moves: Vec<(String, String, u64)> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let text = |k: &str| m[k].as_str().unwrap().to_owned();
            (text("uci"), text("san"), m["games"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("f1b5".into(), "Bb5".into(), 1),
            ("f1c4".into(), "Bc4".into(), 1)
        ]
    );
    let as_black = explore_json(dir.path(), &["--player", "ann", "--color", "black"]);
    assert_eq!(as_black["games"], 1);

    let out = kibitzer(
        &[
            "db",
            "games",
            "games.kdb",
            "--moves",
            "e4 e5 Nf3 Nc6 Bb5",
            "-o",
            "out.pgn",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pgn = fs::read_to_string(dir.path().join("out.pgn")).unwrap();
    assert!(
        pgn.contains("[White \"Ann\"]") && pgn.contains("3. Bb5 a6 1-0"),
        "{pgn}"
    );
    assert!(!pgn.contains("Bc4"));

    let bad = kibitzer(
        &["db", "explore", "games.kdb", "--moves", "e4 e4"],
        dir.path(),
    );
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("move 'e4'"), "{}", stderr(&bad));
}

#[test]
fn a_database_is_only_added_to_when_asked_and_other_files_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.pgn"), GAMES).unwrap();
    fs::write(dir.path().join("notes.txt"), "my notes").unwrap();
    let out = kibitzer(&["db", "import", "a.pgn", "-o", "notes.txt"], dir.path());
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a kibitzer database"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "my notes"
    );

    assert!(
        kibitzer(&["db", "import", "a.pgn", "-o", "games.kdb"], dir.path())
            .status
            .success()
    );
    let again = kibitzer(&["db", "import", "a.pgn", "-o", "games.kdb"], dir.path());
    assert!(!again.status.success());
    assert!(stderr(&again).contains("--append"), "{}", stderr(&again));
    let append = kibitzer(
        &["db", "import", "a.pgn", "-o", "games.kdb", "--append"],
        dir.path(),
    );
    assert!(append.status.success());
    assert!(
        stderr(&append).contains("imported before"),
        "{}",
        stderr(&append)
    );
    assert_eq!(explore_json(dir.path(), &[])["games"], 2);
}

/// A kill in the middle of an import leaves the database as the earlier import made it.
#[cfg(unix)]
#[test]
fn a_killed_import_leaves_the_earlier_games() {
    let Some(legal) = common::read_shared("pgn/pgn-reader/legal.pgn") else {
        eprintln!("skipped: no ../shared");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("first.pgn"), &legal).unwrap();
    let big = format!("{legal}\n\n").repeat(600);
    fs::write(dir.path().join("big.pgn"), big).unwrap();
    let first = kibitzer(
        &["db", "import", "first.pgn", "-o", "games.kdb"],
        dir.path(),
    );
    assert!(first.status.success(), "{}", stderr(&first));
    let before = explore_json(dir.path(), &[]);
    let at_start = before["games"].as_u64().unwrap();
    assert!(at_start > 50);

    let mut killed = 0;
    for delay in [300, 150, 600] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
            .args(["db", "import", "big.pgn", "-o", "games.kdb", "--append"])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(delay) {
            std::thread::sleep(Duration::from_millis(10));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            killed += 1;
        }
        child.wait().unwrap();
        let after = explore_json(dir.path(), &[]);
        if after["games"] != before["games"] {
            // The import finished before the kill: it holds all the games, whole.
            assert_eq!(after["games"], 601 * at_start);
            return;
        }
        assert_eq!(after, before);
    }
    assert!(killed > 0);
    let info = kibitzer(&["db", "info", "games.kdb"], dir.path());
    assert!(stdout(&info).contains("100 games"), "{}", stdout(&info));
}
