//! Errors of reading and building books.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum BookError {
    #[error("cannot read {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path} is not a regular file")]
    NotAFile { path: PathBuf },
    #[error("{path}: {len} bytes is more than a book can be (at most 2 GiB)")]
    TooLarge { path: PathBuf, len: u64 },
    #[error("{name}: {len} bytes is not a whole number of 16-byte Polyglot entries (truncated?)")]
    Truncated { name: String, len: usize },
    #[error(
        "{name}: entries are not sorted by key (entry {index} at byte {}: key {key:016x} after {previous:016x})",
        index * 16
    )]
    Unsorted {
        name: String,
        index: usize,
        key: u64,
        previous: u64,
    },
    #[error("cannot write {path}")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}
