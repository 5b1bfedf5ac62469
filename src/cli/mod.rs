//! One module per headless subcommand: argument structs and their `run` functions.
pub mod annotate;
pub mod bench;
pub mod book;
pub mod data;
pub mod datafile;
pub mod datagen;
pub mod docs;
pub mod perft;
pub mod pgn;
pub mod tb;
pub mod train;
pub mod tui;
pub mod tune;
pub mod uci;

use std::path::Path;

use kibitzer::engine::Evaluation;

/// `--eval`: `nnue` (the embedded network), `hce` (the hand-crafted evaluation) or a network file.
pub fn parse_evaluation(arg: &str) -> Result<Evaluation, String> {
    match arg {
        "nnue" => Ok(Evaluation::embedded()),
        "hce" => Ok(Evaluation::HandCrafted),
        path => Evaluation::from_file(Path::new(path)).map_err(|e| e.to_string()),
    }
}

pub use datafile::read_training_data;
