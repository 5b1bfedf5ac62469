//! Errors of reading and building books.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum BookError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
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
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}
