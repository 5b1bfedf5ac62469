//! Tablebase errors, carrying the directory, file or table concerned.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum TbError {
    #[error("{path}: {source}")]
    Directory {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}: not a usable table file: {reason}")]
    BadFile { path: PathBuf, reason: String },
    #[error("no tablebase path given")]
    NoPath,
    #[error("tables have no positions with castling rights")]
    Castling,
    #[error("{pieces} pieces: more than the largest table ({max})")]
    TooManyPieces { pieces: u32, max: u32 },
    #[error("table {file} not found in the tablebase path")]
    MissingTable { file: String },
    #[error("table {file} is corrupted or unreadable: {reason}")]
    Corrupted { file: String, reason: String },
    #[error("position cannot be probed: {0}")]
    Position(String),
}
