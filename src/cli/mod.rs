//! One module per headless subcommand: argument structs and their `run` functions.
pub mod annotate;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod docs;
pub mod perft;
pub mod pgn;
pub mod tb;
pub mod train;
pub mod tui;
pub mod tune;
pub mod uci;

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::Context;

use kibitzer::engine::Evaluation;
use kibitzer::engine::nnue::data::{Record, read_records};

/// `--eval`: `nnue` (the embedded network), `hce` (the hand-crafted evaluation) or a network file.
pub fn parse_evaluation(arg: &str) -> Result<Evaluation, String> {
    match arg {
        "nnue" => Ok(Evaluation::embedded()),
        "hce" => Ok(Evaluation::HandCrafted),
        path => Evaluation::from_file(Path::new(path)).map_err(|e| e.to_string()),
    }
}

/// Every record of `kibitzer datagen` files, in order; a bad file is an error naming it.
pub fn read_training_data(paths: &[PathBuf]) -> anyhow::Result<Vec<Record>> {
    let mut records = Vec::new();
    for path in paths {
        let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let len = file.metadata()?.len();
        let part = read_records(BufReader::new(file), len)
            .with_context(|| format!("{}", path.display()))?;
        eprintln!("{}: {} positions", path.display(), part.len());
        records.extend(part);
    }
    Ok(records)
}
