//! The skip report: which data-driven tests this run cannot run, and why, printed where a
//! passing run shows it (a test binary without libtest's harness, whose output cargo does not
//! capture). Every test that depends on something outside the repository names it here.
//! Under CI (`CI` set) a missing requirement fails the run, so CI always runs every test.

mod common;

use std::path::Path;
use std::process::{Command, ExitCode};

fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn main() -> ExitCode {
    let requirements = [
        (
            "../shared (or $KIBITZER_SHARED)",
            common::shared_dir().is_some(),
            "perft suites, PGN files, Polyglot books, Syzygy tables, EPD suites, the malformed \
             inputs (perft_suites, pgn_files, book_*, tablebase_syzygy, tb_conversion, \
             polyglot_keys, differential_shakmaty, engine_search, probe_timing, parts of \
             parsers_never_panic and fuzz, and the library's tablebase and annotate tests)",
        ),
        (
            "tmux",
            on_path("tmux"),
            "the end-to-end tests of the terminal interface (tui_tmux, tui_tmux_files)",
        ),
        (
            "/usr/games/stockfish",
            Path::new("/usr/games/stockfish").exists(),
            "the UCI client and engine-link tests against Stockfish, annotate --engine-path",
        ),
        (
            "/usr/games/fairymax",
            Path::new("/usr/games/fairymax").exists(),
            "the xboard client tests against Fairy-Max (engine service, tui_tmux)",
        ),
    ];
    let missing: Vec<_> = requirements.iter().filter(|(_, found, _)| !found).collect();
    if missing.is_empty() {
        println!(
            "skip report: ../shared, tmux, Stockfish and Fairy-Max are here: no data-driven test \
             was skipped"
        );
        return ExitCode::SUCCESS;
    }
    for (what, _, tests) in &missing {
        println!("SKIPPED (no {what}): {tests}");
    }
    if std::env::var_os("CI").is_some() {
        println!("CI must run every test: install what is missing (see .ci/run)");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
