//! What the headless commands do with the files they are given: outputs that are not regular
//! files, the input as its own output, books that are not files, and signals during a write.

mod common;

use std::fs;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{kibitzer, stderr};

const GAME: &str = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n";

#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_or_the_input_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.pgn"), GAME).unwrap();
    let out = kibitzer(&["pgn", "convert", "in.pgn", "-o", "/dev/null"], dir.path());
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("character device"),
        "{}",
        stderr(&out)
    );
    assert!(fs::metadata("/dev/null").is_ok());

    let made = Command::new("mkfifo").arg(dir.path().join("fifo")).status();
    if made.is_ok_and(|s| s.success()) {
        for args in [
            &["pgn", "convert", "in.pgn", "-o", "fifo"][..],
            &["book", "build", "in.pgn", "-o", "fifo"],
        ] {
            let out = kibitzer(args, dir.path());
            assert!(!out.status.success(), "{args:?}");
            assert!(stderr(&out).contains("FIFO"), "{args:?}: {}", stderr(&out));
        }
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let out = kibitzer(&["book", "probe", "--book", "fifo", start], dir.path());
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
    }

    std::os::unix::fs::symlink("in.pgn", dir.path().join("link.pgn")).unwrap();
    for output in ["in.pgn", "link.pgn"] {
        let out = kibitzer(&["pgn", "convert", "in.pgn", "-o", output], dir.path());
        assert!(stderr(&out).contains("add --overwrite"), "{}", stderr(&out));
    }
    assert_eq!(fs::read_to_string(dir.path().join("in.pgn")).unwrap(), GAME);
    let out = kibitzer(
        &["pgn", "convert", "in.pgn", "-o", "link.pgn", "--overwrite"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        fs::symlink_metadata(dir.path().join("link.pgn"))
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn a_book_that_never_ends_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = kibitzer(&["book", "probe", "--book", "/dev/zero", start], dir.path());
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
}

/// A conversion stopped by SIGINT, SIGTERM or SIGHUP leaves no temporary file; one killed
/// outright leaves one, which the next save to the same file removes.
#[cfg(unix)]
#[test]
fn signals_during_a_conversion_leave_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.pgn");
    fs::write(&big, GAME.repeat(200_000)).unwrap();
    let temporaries = || -> Vec<String> {
        fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp-"))
            .collect()
    };
    for signal in ["INT", "TERM", "HUP", "KILL"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
            .args(["pgn", "convert", "big.pgn", "-o", "out.pgn"])
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while temporaries().is_empty() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        if signal == "KILL" {
            assert_eq!(temporaries().len(), 1, "SIGKILL cannot be caught");
        } else {
            assert_eq!(status.code(), Some(130), "{signal}");
            assert!(temporaries().is_empty(), "{signal}: {:?}", temporaries());
        }
    }
    fs::write(dir.path().join("small.pgn"), GAME).unwrap();
    let out = kibitzer(
        &["pgn", "convert", "small.pgn", "-o", "out.pgn"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(temporaries().is_empty(), "{:?}", temporaries());
}

/// `pgn check` counts each tag section as a game, the ones without movetext too (pairing
/// lists), and says which games they are; it reports in file order from every core.
#[test]
fn pgn_check_counts_every_tag_section() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for round in 1..=605 {
        text.push_str(&format!(
            "[Event \"x\"]\n[Round \"{round}\"]\n[White \"A{round}\"]\n\n"
        ));
    }
    text.push_str("[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
    fs::write(dir.path().join("pairings.pgn"), &text).unwrap();
    let out = kibitzer(&["pgn", "check", "pairings.pgn"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout.contains("606 games, 2 moves, 0 with errors, 605 warnings"),
        "{stdout}"
    );
    let lines: Vec<u64> = stdout
        .lines()
        .filter(|l| l.contains("no movetext"))
        .map(|l| {
            l.split("line ")
                .nth(1)
                .unwrap()
                .split(':')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(lines, (0..605).map(|i| 1 + 4 * i).collect::<Vec<u64>>());
}

/// Over several batches (a batch is 1 MiB), the errors still come in file order.
#[test]
fn pgn_check_reports_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for game in 1..=40_000 {
        let second = if game % 1000 == 0 { "Ke2" } else { "e5" };
        text.push_str(&format!(
            "[Round \"{game}\"]\n\n1. e4 {second} 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
        ));
    }
    fs::write(dir.path().join("many.pgn"), &text).unwrap();
    let out = kibitzer(&["pgn", "check", "many.pgn"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    let games: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.split("game ").nth(1)?.split(',').next()?.parse().ok())
        .collect();
    assert_eq!(
        games,
        (1..=40).map(|i| i * 1000).collect::<Vec<u64>>(),
        "{stdout}"
    );
    assert!(
        stdout.contains("40000 games, 239800 moves, 40 with errors"),
        "{stdout}"
    );
}

/// A hash table larger than the machine is refused up front, with the reason, not an abort.
#[test]
fn a_hash_larger_than_memory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.pgn"), GAME).unwrap();
    for args in [
        &["annotate", "in.pgn", "--hash", "65536", "-o", "out.pgn"][..],
        &["bench", "1", "--hash", "65536"],
    ] {
        let out = kibitzer(args, dir.path());
        let machine_holds_it = kibitzer::engine::physical_memory_mb().is_some_and(|m| m >= 65536);
        if machine_holds_it {
            return;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("more than this machine's"),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

/// `annotate --engine-path` analyses with an external UCI engine (Stockfish, when installed:
/// in Kasparov-Deep Blue 1997 game 6, at depth 16, it calls 7...h6 an inaccuracy); an engine
/// that dies is an error naming it, and an --out file is left alone when no game was finished.
#[cfg(unix)]
#[test]
fn annotate_uses_an_external_engine_and_reports_one_that_dies() {
    let dir = tempfile::tempdir().unwrap();
    let game = "[White \"Kasparov\"]\n[Black \"Deep Blue\"]\n\n1. e4 c6 2. d4 d5 3. Nc3 dxe4 \
                4. Nxe4 Nd7 5. Ng5 Ngf6 6. Bd3 e6 7. N1f3 h6 8. Nxe6 *\n";
    fs::write(dir.path().join("in.pgn"), game).unwrap();
    let stockfish = "/usr/games/stockfish";
    if std::path::Path::new(stockfish).exists() {
        // A fixed depth: at 100 ms a move, on a loaded machine, Stockfish saw too little to
        // mark it.
        let args = ["annotate", "in.pgn", "--no-book", "--depth", "16"];
        let out = kibitzer(
            &[&args[..], &["--engine-path", stockfish]].concat(),
            dir.path(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("7... h6 $6"), "{text}");
        assert!(text.contains("Inaccuracy."), "{text}");
    } else {
        eprintln!("skipping the Stockfish half: {stockfish} not installed");
    }

    let dies = dir.path().join("dies.sh");
    fs::write(
        &dies,
        "#!/bin/sh\nwhile read line; do case \"$line\" in uci) echo uciok;; \
         isready) echo readyok;; go*) exit 3;; esac; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&dies, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(dir.path().join("out.pgn"), "kept").unwrap();
    let dies = dies.to_string_lossy();
    let out = kibitzer(
        &[
            "annotate",
            "in.pgn",
            "--engine-path",
            &dies,
            "-o",
            "out.pgn",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("dies.sh: the engine stopped"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("out.pgn")).unwrap(),
        "kept"
    );
    // One that exits at once: an error, not a SIGPIPE ending kibitzer (exit status 141).
    let out = kibitzer(
        &["annotate", "in.pgn", "--engine-path", "/bin/false"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("false"), "{}", stderr(&out));
}
