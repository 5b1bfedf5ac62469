//! Training data end to end: `datagen` writes compact games and resumes a torn file, `data
//! stats` counts them, `data convert` turns them into deduplicated records, `data relabel`
//! scores them by a teacher, and `train` reads both formats.

mod common;

use std::path::Path;
use std::process::Output;

use common::kibitzer as run;
use kibitzer::engine::Evaluation;
use kibitzer::engine::nnue::data::read_records;

/// [`run`], which must succeed.
fn kibitzer(args: &[&str], dir: &Path) -> Output {
    let out = run(args, dir);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// [`run`], which must fail; returns what it said on stderr.
fn kibitzer_fails(args: &[&str], dir: &Path) -> String {
    let out = run(args, dir);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The first number after `what` in `text`.
fn number_after(text: &str, what: &str) -> u64 {
    let rest = &text[text
        .find(what)
        .unwrap_or_else(|| panic!("{what} in {text}"))
        + what.len()..];
    rest.trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number after {what} in {text}"))
}

/// `datagen` into games.kbg at 300 nodes a move on one thread (unless `more` says otherwise)
/// until it holds `positions`.
fn datagen_args<'a>(positions: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "datagen",
        "--out",
        "games.kbg",
        "--nodes",
        "300",
        "--positions",
        positions,
    ];
    if !more.contains(&"--threads") {
        args.extend(["--threads", "1"]);
    }
    args.extend_from_slice(more);
    args
}

#[test]
fn games_are_written_resumed_counted_converted_and_trained_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    datagen_resumes_a_torn_file(dir);
    let unique = converted_once_each(dir);
    relabelled_by_a_teacher(dir, unique);
    trained_from_scratch_warm_and_in_the_mix(dir);
}

/// games.kbg written, counted, torn by a kill mid-write and resumed.
fn datagen_resumes_a_torn_file(dir: &Path) {
    let datagen = |positions: &str| kibitzer(&datagen_args(positions, &["--seed", "7"]), dir);
    datagen("150");
    let stats = text(&kibitzer(&["data", "stats", "games.kbg"], dir));
    let positions = number_after(&stats, "games.kbg:");
    let bytes = std::fs::metadata(dir.join("games.kbg")).unwrap().len();
    assert!(positions >= 150, "{stats}");
    assert!(
        stats.contains("from") && stats.contains("results"),
        "{stats}"
    );
    // Compact: well under 32 bytes a position.
    assert!(
        bytes < 10 * positions,
        "{bytes} bytes for {positions} positions"
    );

    // A run killed mid-write: the torn game is cut and the run goes on.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("games.kbg"))
        .unwrap();
    file.set_len(bytes - 5).unwrap();
    let resumed = text(&datagen(&(positions + 100).to_string()));
    assert!(resumed.contains("dropping a torn game"), "{resumed}");
    let stats = text(&kibitzer(&["data", "stats", "games.kbg"], dir));
    assert!(
        number_after(&stats, "games.kbg:") >= positions + 100,
        "{stats}"
    );
}

/// The same file twice, as records without repeats, holds each position once: positions.bin,
/// with this many.
fn converted_once_each(dir: &Path) -> u64 {
    let converted = text(&kibitzer(
        &[
            "data",
            "convert",
            "games.kbg",
            "games.kbg",
            "--out",
            "positions.bin",
            "--records",
            "--dedup",
        ],
        dir,
    ));
    let unique = number_after(&converted, "positions.bin:");
    assert!(
        unique > 0 && converted.contains("repeats dropped"),
        "{converted}"
    );
    let stats = text(&kibitzer(&["data", "stats", "positions.bin"], dir));
    assert_eq!(number_after(&stats, "positions.bin:"), unique, "{stats}");
    unique
}

/// Scored by a teacher: wholly (its evaluation from White's view), or not at all (the search's
/// scores as they were); a missing input writes nothing.
fn relabelled_by_a_teacher(dir: &Path, unique: u64) {
    let relabel = |share: &str, out: &str| {
        let args = [
            "data",
            "relabel",
            "positions.bin",
            "--teacher",
            "hce",
            "--share",
            share,
            "--out",
            out,
        ];
        text(&kibitzer(&args, dir))
    };
    let said = relabel("100", "taught.bin");
    assert_eq!(number_after(&said, "taught.bin:"), unique, "{said}");
    let bytes = std::fs::read(dir.join("taught.bin")).unwrap();
    let taught = read_records(bytes.as_slice(), bytes.len() as u64).unwrap();
    for r in &taught {
        let pos = r.to_position().unwrap();
        let hce = Evaluation::HandCrafted.evaluate(&pos);
        assert_eq!(i32::from(r.white_score), pos.turn().fold(hce, -hce));
    }
    relabel("0", "same.bin");
    assert_eq!(
        std::fs::read(dir.join("same.bin")).unwrap(),
        std::fs::read(dir.join("positions.bin")).unwrap()
    );
    let err = kibitzer_fails(&["data", "relabel", "missing.kbg", "-o", "x.bin"], dir);
    assert!(err.contains("missing.kbg"), "{err}");
    assert!(!dir.join("x.bin").exists());
}

/// `train` on both formats; warm-started from a network file, alone or in the engine's mix.
fn trained_from_scratch_warm_and_in_the_mix(dir: &Path) {
    // One small epoch into `out`, with `extra` arguments.
    let train = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "games.kbg",
            "--out",
            out,
            "--epochs",
            "1",
            "--hidden",
            "16",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        text(&kibitzer(&args, dir))
    };
    let trained = train("net", &["positions.bin"]);
    assert!(dir.join("net/epoch-1.nnue").exists(), "{trained}");
    // A network file warm-starts a run as a checkpoint does (checkpoints do not outlive machines).
    let warm = train("net2", &["--resume", "net/epoch-1.nnue"]);
    assert!(dir.join("net2/epoch-1.nnue").exists(), "{warm}");
    // It reports the resumed network's own held-out loss first, the yardstick for the epochs.
    let start_loss = warm
        .split("start      validation loss")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next()?.parse::<f64>().ok());
    assert!(start_loss.is_some_and(|l| l > 0.0 && l < 1.0), "{warm}");

    // Trained in the engine's mix, a network keeps the output scale of the file it started from.
    let scale = |path: &str| {
        let bytes = std::fs::read(dir.join(path)).unwrap();
        i32::from_le_bytes(bytes[32..36].try_into().unwrap())
    };
    let in_mix = |out: &str, share: &str| {
        let args = ["--resume", "net/epoch-1.nnue", "--hce-share", share];
        train(out, &[&args[..], &["--score-scale", "150"]].concat())
    };
    let mixed = in_mix("net3", "50");
    assert!(mixed.contains("in the mix: 50% hand-crafted"), "{mixed}");
    assert_eq!(
        scale("net3/epoch-1.nnue"),
        scale("net/epoch-1.nnue"),
        "{mixed}"
    );
    // At a share of 0 it trains alone, still at its file's scale whatever the score scale.
    let alone = in_mix("net5", "0");
    assert!(
        alone.contains("alone, at the network's output scale"),
        "{alone}"
    );
    assert_eq!(
        scale("net5/epoch-1.nnue"),
        scale("net/epoch-1.nnue"),
        "{alone}"
    );
    // A checkpoint does not say at which scale its mix was trained.
    let err = kibitzer_fails(
        &[
            "train",
            "games.kbg",
            "-o",
            "net4",
            "--hidden",
            "16",
            "--resume",
            "net/epoch-1.ckpt",
            "--hce-share",
            "50",
        ],
        dir,
    );
    assert!(
        err.contains("epoch-1.ckpt") && err.contains("network file"),
        "{err}"
    );
}

#[test]
fn a_damaged_games_file_is_an_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut bytes = b"KBGAMES1".to_vec();
    let fen = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    bytes.push(fen.len() as u8);
    bytes.extend_from_slice(fen);
    bytes.extend_from_slice(&[1, 1, 0, 0xff, 0xff, 0, 0]);
    std::fs::write(dir.join("bad.kbg"), &bytes).unwrap();
    let err = kibitzer_fails(&["data", "stats", "bad.kbg"], dir);
    assert!(
        err.contains("bad.kbg") && err.contains("game 0") && err.contains("ply 1"),
        "{err}"
    );
}

/// `datagen --out` naming a file of something else (here a PGN) is refused, the file untouched;
/// reading it as training data is refused the same way.
#[test]
fn datagen_leaves_a_file_not_its_own_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let pgn = "[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n";
    for (name, contents) in [("games.pgn", pgn), ("short.kbg", "garbage")] {
        std::fs::write(dir.join(name), contents).unwrap();
        let err = kibitzer_fails(&["datagen", "--out", name, "--positions", "10"], dir);
        assert!(
            err.contains(name) && err.contains("neither a games file nor"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), contents);
        let err = kibitzer_fails(&["data", "stats", name], dir);
        assert!(
            err.contains(name) && err.contains("neither a games file nor"),
            "{err}"
        );
    }
}

/// A signal stops `datagen` after the games in flight are written: the file reads whole and
/// the next run appends to it without dropping anything.
#[cfg(unix)]
#[test]
fn datagen_stopped_by_a_signal_leaves_whole_games() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.kbg");
    let child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(datagen_args(
            "100000000",
            &["--threads", "2", "--seed", "11"],
        ))
        .current_dir(dir.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&file).map_or(0, |m| m.len()) < 200
        && start.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("stopped by a signal"), "{said}");

    let stats = text(&kibitzer(&["data", "stats", "games.kbg"], dir.path()));
    let positions = number_after(&stats, "games.kbg:");
    assert!(positions > 0, "{stats}");
    let more = (positions + 1).to_string();
    let resumed = text(&kibitzer(&datagen_args(&more, &[]), dir.path()));
    assert!(!resumed.contains("torn"), "{resumed}");
}
