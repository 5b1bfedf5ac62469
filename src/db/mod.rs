//! The game database: games from PGN files in SQLite (`games`, `players`, `events`, `sources`,
//! queryable with `sqlite3`), moves in about a byte a ply, and a position index for the explorer.
//!
//! The index keys each position by its Polyglot key, the same key books use, and keeps for it
//! the games that reached it in their first [`INDEX_PLIES`] plies: one posting each with the
//! game's result, its players' mean rating and the move played next, delta-coded in one blob
//! per position (see [`codec`]). Aggregating at query time keeps every filter exact. A position
//! that a game reaches only later is found by replaying the games whose material and home pawns
//! at the last indexed ply still allow it, so every count covers every ply of every game.
//!
//! An import is one SQLite transaction: a kill leaves the database as it was.

pub mod codec;
pub mod explore;
pub mod import;
mod schema;
mod singles;
mod stored;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

pub use explore::{Explorer, Filters, GameHeader, MoveStats, Query, Report, Tally};
pub use import::{ImportEvent, ImportSummary, import};
pub use stored::StoredGame;

/// Plies of each game whose positions go into the index (positions after 0 to 40 plies).
pub const INDEX_PLIES: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}: not a kibitzer database")]
    NotADatabase(PathBuf),
    #[error(
        "{0}: a kibitzer database of format {1}; this kibitzer reads format 2 (import the games again into a new file)"
    )]
    OtherFormat(PathBuf, i64),
    #[error("{0}")]
    Query(String),
}

/// An open database.
pub struct Database {
    conn: Connection,
    path: PathBuf,
}

impl Database {
    /// Opens an existing database for reading.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        if !path.is_file() {
            return Err(DbError::Io {
                path: path.to_owned(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        // Opened for writing where it can be, so that an import killed midway is rolled back
        // (its hot journal undone) before anything is read; then kept from writing.
        let read_write = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let read_only = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, read_write)
            .or_else(|_| Connection::open_with_flags(path, read_only))
            .map_err(sqlite(path))?;
        // Reads straight from the page cache, without a copy into SQLite's own; while an
        // import commits, waits for it rather than failing.
        conn.execute_batch("PRAGMA query_only = 1; PRAGMA mmap_size = 4294967296")
            .and_then(|()| conn.busy_timeout(std::time::Duration::from_secs(10)))
            .map_err(sqlite(path))?;
        let db = Database {
            conn,
            path: path.to_owned(),
        };
        schema::check(&db.conn, path)?;
        Ok(db)
    }

    /// Opens a database to import into, making it when it does not exist yet. The empty
    /// database is committed on its own, so that a killed first import leaves one that opens.
    pub fn open_for_import(path: &Path) -> Result<Database, DbError> {
        let conn = Connection::open(path).map_err(sqlite(path))?;
        let db = Database {
            conn,
            path: path.to_owned(),
        };
        schema::create_or_check(&db.conn, path)?;
        Ok(db)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Games in the database.
    pub fn game_count(&self) -> Result<u64, DbError> {
        self.conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(sqlite(&self.path))
    }
}

/// A file imported into a database.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: String,
    pub size: u64,
    pub games: u64,
    pub bad: u64,
    pub imported: String,
}

impl Database {
    /// The files imported, in order.
    pub fn sources(&self) -> Result<Vec<Source>, DbError> {
        let mut stmt = self
            .conn
            .prepare("SELECT path, size, games, bad, imported FROM sources ORDER BY id")
            .map_err(sqlite(&self.path))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(Source {
                    path: r.get(0)?,
                    size: r.get::<_, i64>(1)? as u64,
                    games: r.get::<_, i64>(2)? as u64,
                    bad: r.get::<_, i64>(3)? as u64,
                    imported: r.get(4)?,
                })
            })
            .map_err(sqlite(&self.path))?;
        rows.collect::<Result<_, _>>().map_err(sqlite(&self.path))
    }
}

/// Wraps an SQLite error with the database's path.
fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |source| DbError::Sqlite {
        path: path.to_owned(),
        source,
    }
}
