//! PGN files into the database, on every core: workers read the games and turn each into a row
//! (tags, moves, the positions to index), and the calling thread writes the rows in file order
//! in one transaction, gathering the postings in memory and adding them to the index whenever
//! they grow large and at the end.

use std::collections::HashMap;
use std::fs::File;
use std::hash::BuildHasherDefault;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, Transaction, params};

use super::codec::{GAME_ENDS, NULL_NEXT, Posting, Run, Signature, encode_move, mean_rating};
use super::schema::INDEXES;
use super::stored::{SIGNATURE_BYTES, SIGNATURES_PER_BLOCK};
use super::{Database, DbError, INDEX_PLIES, sqlite};
use crate::chess::Position;
use crate::game::batches::{BatchError, read_in_batches};
use crate::game::headers::escape_value;
use crate::game::{GameMove, GameResult, ParsedGame, PgnReader, check_game};

/// Postings gathered in memory before they go into the index.
const POSTINGS_BUDGET: usize = 256 << 20;

/// What an import tells its caller as it goes.
pub enum ImportEvent<'a> {
    /// A file is being read.
    File { path: &'a Path, size: u64 },
    /// Bytes of the current file read so far.
    Read(u64),
    /// A game not imported, and why ("game N, line L: ...").
    Bad { path: &'a Path, message: String },
    /// A file whose games are in the database already.
    Recognised { path: &'a Path, games: u64 },
}

#[derive(Default, Debug, PartialEq, Eq)]
pub struct ImportSummary {
    pub games: u64,
    pub bad: u64,
    pub plies: u64,
    pub recognised: usize,
}

/// Imports `paths` in one transaction: on any error, or a kill, the database stays as it was.
pub fn import(
    db: &mut Database,
    paths: &[PathBuf],
    events: &mut dyn FnMut(ImportEvent<'_>),
) -> Result<ImportSummary, DbError> {
    let db_path = db.path.clone();
    let err = sqlite(&db_path);
    db.conn
        .execute_batch("PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY;")
        .map_err(&err)?;
    let tx = db
        .conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(&err)?;
    let mut writer = Writer::new(&tx).map_err(&err)?;
    let mut summary = ImportSummary::default();
    for path in paths {
        let (size, hash) = fingerprint(path).map_err(|source| DbError::Io {
            path: path.clone(),
            source,
        })?;
        let known: Option<u64> = tx
            .query_row(
                "SELECT games FROM sources WHERE size = ?1 AND hash = ?2",
                params![size as i64, hash as i64],
                |r| Ok(r.get::<_, i64>(0)? as u64),
            )
            .optional()
            .map_err(&err)?;
        if let Some(games) = known {
            summary.recognised += 1;
            events(ImportEvent::Recognised { path, games });
            continue;
        }
        events(ImportEvent::File { path, size });
        tx.execute(
            "INSERT INTO sources(path, size, hash, games, bad, imported)
             VALUES (?1, ?2, ?3, 0, 0, datetime('now'))",
            params![path.display().to_string(), size as i64, hash as i64],
        )
        .map_err(&err)?;
        let source = tx.last_insert_rowid();
        let before = (summary.games, summary.bad);
        let mut reader = PgnReader::open(path).map_err(|source| DbError::Io {
            path: path.clone(),
            source,
        })?;
        let read = read_in_batches(
            &mut reader,
            |raw| convert(check_game(raw)),
            &mut |end, rows| {
                for row in rows {
                    match row {
                        Converted::Game(row) => {
                            summary.games += 1;
                            summary.plies += u64::from(row.plies);
                            writer.add(&tx, source, &row)?;
                        }
                        Converted::Bad(message) => {
                            summary.bad += 1;
                            events(ImportEvent::Bad { path, message });
                        }
                    }
                }
                events(ImportEvent::Read(end));
                Ok(())
            },
        );
        read.map_err(|e| match e {
            BatchError::Read(source) => DbError::Io {
                path: path.clone(),
                source,
            },
            BatchError::Consume(source) => err(source),
        })?;
        tx.execute(
            "UPDATE sources SET games = ?1, bad = ?2 WHERE id = ?3",
            params![
                (summary.games - before.0) as i64,
                (summary.bad - before.1) as i64,
                source
            ],
        )
        .map_err(&err)?;
    }
    writer.finish(&tx).map_err(&err)?;
    tx.execute_batch(INDEXES).map_err(&err)?;
    tx.commit().map_err(&err)?;
    Ok(summary)
}

/// A file's size and a hash of its bytes, by which a second import of it is recognised.
fn fingerprint(path: &Path) -> io::Result<(u64, u64)> {
    let mut file = File::open(path)?;
    let mut buf = vec![0u8; 1 << 20];
    let (mut size, mut hash) = (0u64, 0x243F_6A88_85A3_08D3u64);
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok((size, hash));
        }
        size += n as u64;
        for chunk in buf[..n].chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            hash = (hash.rotate_left(23) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// One game as the workers hand it to the writer.
struct Row {
    number: u64,
    tags: Tags,
    result: GameResult,
    rating: u16,
    moves: Vec<u8>,
    plies: u32,
    /// Each position of the first plies, once, with the move played from it the first time.
    visits: Vec<(u64, u16)>,
    /// At the last indexed ply (none for a game that ends before it) and at the end.
    later: Option<Signature>,
    end: Signature,
}

#[derive(Default)]
struct Tags {
    event: Option<String>,
    site: Option<String>,
    date: Option<String>,
    round: Option<String>,
    white: Option<String>,
    black: Option<String>,
    white_elo: Option<u16>,
    black_elo: Option<u16>,
    eco: Option<String>,
    time_control: Option<String>,
    fen: Option<String>,
    /// Every other tag, as PGN tag lines.
    other: String,
}

enum Converted {
    Game(Box<Row>),
    Bad(String),
}

fn convert(parsed: ParsedGame) -> Converted {
    if let Some(error) = parsed.errors.first() {
        return Converted::Bad(format!("{error} (game not imported)"));
    }
    let game = parsed.game;
    let tree = &game.tree;
    let mut pos: &Position = tree.start();
    let mut moves = Vec::with_capacity(tree.move_count() + 8);
    let mut visits: Vec<(u64, u16)> = Vec::with_capacity(INDEX_PLIES + 1);
    let mut later = None;
    let visit = |visits: &mut Vec<(u64, u16)>, key: u64, next: u16| {
        if !visits.iter().any(|&(k, _)| k == key) {
            visits.push((key, next));
        }
    };
    let mut plies = 0;
    for id in tree.mainline() {
        let mv = tree.node(id).game_move().unwrap_or(GameMove::Null);
        if plies <= INDEX_PLIES {
            let next = match mv {
                GameMove::Move(m) => m.to_u16(),
                GameMove::Null => NULL_NEXT,
            };
            visit(&mut visits, pos.hash(), next);
        }
        if plies == INDEX_PLIES {
            later = Some(Signature::of(pos));
        }
        encode_move(pos, mv, &mut moves);
        plies += 1;
        pos = tree.position(id);
    }
    if plies <= INDEX_PLIES {
        visit(&mut visits, pos.hash(), GAME_ENDS);
    }
    let (tags, rating) = tags_of(&game.headers);
    Converted::Game(Box::new(Row {
        number: parsed.number,
        tags,
        result: game.result,
        rating,
        moves,
        plies: plies as u32,
        visits,
        later,
        end: Signature::of(pos),
    }))
}

/// The tags with columns of their own, the rest as text, and the mean rating (0 unless both
/// players have one).
fn tags_of(headers: &crate::game::Headers) -> (Tags, u16) {
    let mut tags = Tags::default();
    for (name, value) in headers.iter() {
        let text = || Some(value.to_owned());
        let elo = || value.trim().parse::<u16>().ok().filter(|&e| e > 0);
        match name {
            "Event" => tags.event = text(),
            "Site" => tags.site = text(),
            "Date" => tags.date = text(),
            "Round" => tags.round = text(),
            "White" => tags.white = text(),
            "Black" => tags.black = text(),
            "Result" | "SetUp" => {}
            "WhiteElo" if elo().is_some() => tags.white_elo = elo(),
            "BlackElo" if elo().is_some() => tags.black_elo = elo(),
            "ECO" => tags.eco = text(),
            "TimeControl" => tags.time_control = text(),
            "FEN" => tags.fen = text(),
            _ => {
                tags.other.push('[');
                tags.other.push_str(name);
                tags.other.push_str(" \"");
                escape_value(value, &mut tags.other);
                tags.other.push_str("\"]\n");
            }
        }
    }
    let rating = mean_rating(tags.white_elo, tags.black_elo);
    (tags, rating)
}

/// Lichess's speed classes, from the estimated duration base + 40 x increment.
pub fn speed(time_control: &str) -> Option<&'static str> {
    let tc = time_control.trim();
    if tc == "-" {
        return Some("correspondence");
    }
    let first = tc.split(':').next()?;
    let period = first.rsplit('/').next()?;
    let (base, inc) = period.split_once('+').unwrap_or((period, "0"));
    let secs = base.parse::<f64>().ok()? + 40.0 * inc.parse::<f64>().ok()?;
    Some(match secs {
        s if s < 30.0 => "ultrabullet",
        s if s < 180.0 => "bullet",
        s if s < 480.0 => "blitz",
        s if s < 1500.0 => "rapid",
        _ => "classical",
    })
}

/// The writing side: game rows, names, postings gathered for the index, signatures.
struct Writer {
    next_id: u64,
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
    postings: HashMap<u64, Run, BuildHasherDefault<KeyHasher>>,
    postings_bytes: usize,
    /// Signatures of the games from the first one of the last, partial block on.
    signatures: Vec<u8>,
    first_block: u64,
}

impl Writer {
    fn new(tx: &Transaction<'_>) -> rusqlite::Result<Writer> {
        let last: i64 = tx.query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))?;
        let names = |table: &str| -> rusqlite::Result<HashMap<String, i64>> {
            let mut stmt = tx.prepare(&format!("SELECT name, id FROM {table}"))?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        };
        let first_block = last as u64 / SIGNATURES_PER_BLOCK;
        let signatures: Vec<u8> = tx
            .query_row(
                "SELECT data FROM signatures WHERE block = ?1",
                [first_block as i64],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or_default();
        Ok(Writer {
            next_id: last as u64 + 1,
            players: names("players")?,
            events: names("events")?,
            postings: HashMap::default(),
            postings_bytes: 0,
            signatures,
            first_block,
        })
    }

    fn add(&mut self, tx: &Transaction<'_>, source: i64, row: &Row) -> rusqlite::Result<()> {
        let id = self.next_id;
        self.next_id += 1;
        let tags = &row.tags;
        let white = name_id(tx, &mut self.players, "players", tags.white.as_deref())?;
        let black = name_id(tx, &mut self.players, "players", tags.black.as_deref())?;
        let event = name_id(tx, &mut self.events, "events", tags.event.as_deref())?;
        let mut insert = tx.prepare_cached(
            "INSERT INTO games(id, source, number, event, site, date, round, white, black,
                 result, white_elo, black_elo, eco, time_control, speed, fen, plies, moves, tags)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                 ?17, ?18, ?19)",
        )?;
        insert.execute(params![
            id as i64,
            source,
            row.number as i64,
            event,
            tags.site,
            tags.date,
            tags.round,
            white,
            black,
            row.result.as_str(),
            tags.white_elo,
            tags.black_elo,
            tags.eco,
            tags.time_control,
            tags.time_control.as_deref().and_then(speed),
            tags.fen,
            i64::from(row.plies),
            row.moves,
            (!tags.other.is_empty()).then_some(&tags.other),
        ])?;
        for &(key, next) in &row.visits {
            let run = self.postings.entry(key).or_insert_with(|| {
                self.postings_bytes += 64;
                Run::default()
            });
            let before = run.bytes.capacity();
            run.push(Posting {
                game: id,
                result: row.result,
                next,
                rating: row.rating,
            });
            self.postings_bytes += run.bytes.capacity() - before;
        }
        let later = row.later.unwrap_or_default();
        self.signatures.extend_from_slice(&later.0.to_le_bytes());
        self.signatures.extend_from_slice(&row.end.0.to_le_bytes());
        if self.postings_bytes > POSTINGS_BUDGET {
            self.flush_postings(tx)?;
        }
        if self.signatures.len() >= (SIGNATURES_PER_BLOCK * SIGNATURE_BYTES) as usize {
            self.flush_signatures(tx, false)?;
        }
        Ok(())
    }

    /// Appends the gathered runs to the index, in key order.
    fn flush_postings(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        let mut runs: Vec<(u64, Run)> = self.postings.drain().collect();
        runs.sort_unstable_by_key(|&(key, _)| key);
        // Read, joined and written back here: SQLite's || would make text of the blobs.
        let mut read = tx.prepare_cached("SELECT postings FROM positions WHERE key = ?1")?;
        let mut write =
            tx.prepare_cached("INSERT OR REPLACE INTO positions(key, postings) VALUES (?1, ?2)")?;
        let mut absent = Vec::new();
        for (key, run) in runs {
            let old: Option<Vec<u8>> = read.query_row([key as i64], |r| r.get(0)).optional()?;
            match old {
                Some(mut old) => {
                    old.extend_from_slice(&run.bytes);
                    write.execute(params![key as i64, old])?;
                }
                None => absent.push((key, run)),
            }
        }
        // Positions no game reached before: one game's go with the singles.
        for (key, bytes) in super::singles::merge(tx, absent)? {
            write.execute(params![key as i64, bytes])?;
        }
        self.postings_bytes = 0;
        Ok(())
    }

    /// Writes the whole blocks of signatures gathered, and with `partial` the last one too
    /// (it is written again, whole, when it fills).
    fn flush_signatures(&mut self, tx: &Transaction<'_>, partial: bool) -> rusqlite::Result<()> {
        let block_bytes = (SIGNATURES_PER_BLOCK * SIGNATURE_BYTES) as usize;
        let mut done = 0;
        while self.signatures.len() - done >= block_bytes {
            write_block(
                tx,
                self.first_block,
                &self.signatures[done..done + block_bytes],
            )?;
            self.first_block += 1;
            done += block_bytes;
        }
        self.signatures.drain(..done);
        if partial && !self.signatures.is_empty() {
            write_block(tx, self.first_block, &self.signatures)?;
        }
        Ok(())
    }

    fn finish(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        self.flush_postings(tx)?;
        self.flush_signatures(tx, true)
    }
}

/// A block of signatures with its summary: the widest of the signatures at the last indexed ply
/// and the narrowest of those at the end.
fn write_block(tx: &Transaction<'_>, block: u64, data: &[u8]) -> rusqlite::Result<()> {
    let words: Vec<Signature> = data
        .chunks_exact(8)
        .map(|w| Signature(u64::from_le_bytes(w.try_into().unwrap_or_default())))
        .collect();
    let later = words
        .iter()
        .step_by(2)
        .fold(Signature(0), |a, &b| a.widest(b));
    let end = words
        .iter()
        .skip(1)
        .step_by(2)
        .fold(Signature(u64::MAX), |a, &b| a.narrowest(b));
    tx.prepare_cached(
        "INSERT OR REPLACE INTO signatures(block, later_max, end_min, data) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![block as i64, later.0 as i64, end.0 as i64, data])?;
    Ok(())
}

/// The id of a player or event name, added to its table when new.
fn name_id(
    tx: &Transaction<'_>,
    ids: &mut HashMap<String, i64>,
    table: &str,
    name: Option<&str>,
) -> rusqlite::Result<Option<i64>> {
    let Some(name) = name else { return Ok(None) };
    if let Some(&id) = ids.get(name) {
        return Ok(Some(id));
    }
    tx.prepare_cached(&format!("INSERT INTO {table}(name) VALUES (?1)"))?
        .execute([name])?;
    let id = tx.last_insert_rowid();
    ids.insert(name.to_owned(), id);
    Ok(Some(id))
}

/// Position keys are Zobrist keys, already uniformly spread: hashing them again is wasted work.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Only `u64` keys are hashed; anything else is folded in plainly.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).rotate_left(5);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
