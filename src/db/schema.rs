//! The tables. Games, players, events and sources are plain SQLite tables (the `game_list` view
//! joins the names back in); `positions` is the index, one row per position that several games
//! reached, and `singles` holds the positions one game reached, many to a row; `signatures`
//! holds, 16 bytes a game in blocks with a summary each, what the scan for later occurrences
//! needs.

use std::path::Path;

use rusqlite::Connection;

use super::{DbError, sqlite};

/// "KBZD" in `PRAGMA application_id`: tells our files from other SQLite databases.
const APPLICATION_ID: i64 = 0x4B42_5A44;
/// 2: positions reached by one game moved to `singles`.
const FORMAT: i64 = 2;

const TABLES: &str = "
CREATE TABLE sources(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    games INTEGER NOT NULL,
    bad INTEGER NOT NULL,
    imported TEXT NOT NULL
);
CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE games(
    id INTEGER PRIMARY KEY,
    source INTEGER NOT NULL REFERENCES sources(id),
    number INTEGER NOT NULL,
    event INTEGER REFERENCES events(id),
    site TEXT,
    date TEXT,
    round TEXT,
    white INTEGER REFERENCES players(id),
    black INTEGER REFERENCES players(id),
    result TEXT NOT NULL,
    white_elo INTEGER,
    black_elo INTEGER,
    eco TEXT,
    time_control TEXT,
    speed TEXT,
    fen TEXT,
    plies INTEGER NOT NULL,
    moves BLOB NOT NULL,
    tags TEXT
);
CREATE TABLE positions(key INTEGER PRIMARY KEY, postings BLOB NOT NULL);
CREATE TABLE singles(first INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE signatures(
    block INTEGER PRIMARY KEY,
    later_max INTEGER NOT NULL,
    end_min INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE VIEW game_list AS
    SELECT g.id, e.name AS event, g.site, g.date, g.round, w.name AS white, b.name AS black,
           g.result, g.white_elo, g.black_elo, g.eco, g.time_control, g.speed, g.plies
    FROM games g
    LEFT JOIN players w ON w.id = g.white
    LEFT JOIN players b ON b.id = g.black
    LEFT JOIN events e ON e.id = g.event;
";

/// Made after the bulk of a first import, as loading is faster without them.
pub const INDEXES: &str = "
CREATE INDEX IF NOT EXISTS games_white ON games(white);
CREATE INDEX IF NOT EXISTS games_black ON games(black);
CREATE INDEX IF NOT EXISTS games_date ON games(date);
CREATE INDEX IF NOT EXISTS games_event ON games(event);
";

pub fn create_or_check(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(not_ours(path))?;
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))
        .map_err(not_ours(path))?;
    if id == 0 && tables == 0 {
        // 8 KB pages, measured: 16 KB ones make the bench file's database 8% smaller but cost
        // every table and index a 16 KB page (a 255-game database 1.28x its PGN); 4 KB ones
        // leave more of each long postings blob's last page empty. Query times do not differ.
        let sql = format!(
            "PRAGMA page_size = 8192; BEGIN; PRAGMA application_id = {APPLICATION_ID};
             PRAGMA user_version = {FORMAT}; {TABLES} COMMIT;"
        );
        return conn.execute_batch(&sql).map_err(sqlite(path));
    }
    check(conn, path)
}

pub fn check(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(not_ours(path))?;
    if id != APPLICATION_ID {
        return Err(DbError::NotADatabase(path.to_owned()));
    }
    let format: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sqlite(path))?;
    if format != FORMAT {
        return Err(DbError::OtherFormat(path.to_owned(), format));
    }
    Ok(())
}

/// A file SQLite cannot read at all is not one of ours either.
fn not_ours(path: &Path) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
            DbError::NotADatabase(path.to_owned())
        }
        e => sqlite(path)(e),
    }
}
