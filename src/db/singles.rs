//! Positions that one game reached. In a collection of varied games most positions of the
//! indexed plies are reached once: a row each in `positions` costs about 23 bytes, mostly
//! SQLite's row overhead and the 8-byte key. Here they lie in blobs of a few kilobytes sorted by
//! key (`singles`, each row keyed by its first key), about 13 bytes a position: the key as a
//! varint difference from the one before, then the game's posting. A position moves to
//! `positions` when a second game reaches it; a key is never in both tables.

use rusqlite::{OptionalExtension, Transaction, params};

use super::codec::{Posting, Run, get_posting, get_varint, put_posting, put_varint};

/// A blob holds at least this many bytes of entries (unless it is the only one), at most twice.
const BLOB_BYTES: usize = 256;

/// A key as SQLite's signed integers order it: the order of the unsigned keys.
fn sql_key(key: u64) -> i64 {
    (key ^ 1 << 63) as i64
}

fn from_sql(key: i64) -> u64 {
    key as u64 ^ 1 << 63
}

/// The entries of a blob whose first key is `first`; stops at a damaged byte.
fn decode(first: u64, data: &[u8]) -> Vec<(u64, Posting)> {
    let mut entries = Vec::with_capacity(data.len() / 12);
    let mut at = 0;
    let mut key = first;
    while at < data.len() {
        let Some(delta) = get_varint(data, &mut at) else {
            break;
        };
        let Some(p) = get_posting(data, &mut at, 0) else {
            break;
        };
        key = key.wrapping_add(delta);
        entries.push((key, p));
    }
    entries
}

/// One entry, its key relative to `previous`.
fn encode_entry(out: &mut Vec<u8>, previous: u64, key: u64, p: &Posting) {
    put_varint(out, key - previous);
    put_posting(out, p, 0);
}

/// The one game's posting at `key`, if one game only reached it.
pub fn find(conn: &rusqlite::Connection, key: u64) -> rusqlite::Result<Option<Posting>> {
    let mut stmt = conn.prepare_cached(
        "SELECT first, data FROM singles WHERE first <= ?1 ORDER BY first DESC LIMIT 1",
    )?;
    let blob: Option<(i64, Vec<u8>)> = stmt
        .query_row([sql_key(key)], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((first, data)) = blob else {
        return Ok(None);
    };
    let entries = decode(from_sql(first), &data);
    Ok(entries
        .binary_search_by_key(&key, |&(k, _)| k)
        .ok()
        .map(|i| entries[i].1))
}

/// Stores the runs of keys that have no row in `positions` (sorted by key, each run in game
/// order): a key reached by one game goes in with the singles. Returns what must go to
/// `positions`: runs of several games, and singles reached again (their posting first).
pub fn merge(tx: &Transaction<'_>, new: Vec<(u64, Run)>) -> rusqlite::Result<Vec<(u64, Vec<u8>)>> {
    let mut cover = tx.prepare_cached(
        "SELECT first, data FROM singles WHERE first <= ?1 ORDER BY first DESC LIMIT 1",
    )?;
    let mut lowest = tx.prepare_cached("SELECT first, data FROM singles ORDER BY first LIMIT 1")?;
    let mut following =
        tx.prepare_cached("SELECT first FROM singles WHERE first > ?1 ORDER BY first LIMIT 1")?;
    let mut delete = tx.prepare_cached("DELETE FROM singles WHERE first = ?1")?;
    let mut insert = tx.prepare_cached("INSERT INTO singles(first, data) VALUES (?1, ?2)")?;
    let row = |r: &rusqlite::Row<'_>| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?));

    let mut to_positions = Vec::new();
    let mut new = new.into_iter().peekable();
    while let Some(&(key, _)) = new.peek() {
        // The blob whose range holds `key` (the lowest one for a key below them all), and where
        // the next blob's range starts.
        let blob = match cover.query_row([sql_key(key)], row).optional()? {
            Some(b) => Some(b),
            None => lowest.query_row([], row).optional()?,
        };
        let (old, upper) = match &blob {
            Some((first, data)) => {
                delete.execute([first])?;
                let upper: Option<i64> = following.query_row([first], |r| r.get(0)).optional()?;
                (decode(from_sql(*first), data), upper.map(from_sql))
            }
            None => (Vec::new(), None),
        };
        let mut merged = Vec::with_capacity(old.len() + 16);
        let mut old = old.into_iter().peekable();
        while let Some((key, run)) = new.next_if(|&(k, _)| upper.is_none_or(|u| k < u)) {
            while let Some(entry) = old.next_if(|&(k, _)| k < key) {
                merged.push(entry);
            }
            let again = old.next_if(|&(k, _)| k == key);
            match (again, only_posting(&run)) {
                (Some((_, first)), _) => {
                    let mut bytes = Run::default();
                    bytes.push(first);
                    bytes.bytes.extend_from_slice(&run.bytes);
                    to_positions.push((key, bytes.bytes));
                }
                (None, Some(only)) => merged.push((key, only)),
                (None, None) => to_positions.push((key, run.bytes)),
            }
        }
        merged.extend(old);
        for (first, data) in blobs(&merged) {
            insert.execute(params![sql_key(first), data])?;
        }
    }
    Ok(to_positions)
}

/// The posting of a run of one game; `None` for several.
fn only_posting(run: &Run) -> Option<Posting> {
    // A run is a 0, then its postings, the first numbered from 0.
    let mut at = 1;
    let p = get_posting(&run.bytes, &mut at, 0)?;
    (at == run.bytes.len()).then_some(p)
}

/// Sorted entries cut into blobs of `BLOB_BYTES` to twice that, with their first keys.
fn blobs(entries: &[(u64, Posting)]) -> Vec<(u64, Vec<u8>)> {
    let mut sizes = Vec::with_capacity(entries.len());
    let mut scratch = Vec::with_capacity(32);
    let mut previous = entries.first().map_or(0, |e| e.0);
    for &(key, p) in entries {
        scratch.clear();
        encode_entry(&mut scratch, previous, key, &p);
        sizes.push(scratch.len());
        previous = key;
    }
    let total: usize = sizes.iter().sum();
    let count = (total / BLOB_BYTES).max(1);
    let target = total.div_ceil(count);
    let mut out = Vec::with_capacity(count);
    let mut start = 0;
    while start < entries.len() {
        let first = entries[start].0;
        let mut data = Vec::with_capacity(target + 32);
        let mut previous = first;
        let mut end = start;
        while end < entries.len() && (data.len() < target || end == start) {
            let (key, p) = entries[end];
            encode_entry(&mut data, previous, key, &p);
            previous = key;
            end += 1;
        }
        out.push((first, data));
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rng;
    use crate::db::codec::postings;
    use crate::game::GameResult;

    fn posting(game: u64) -> Posting {
        Posting {
            game,
            result: GameResult::Draw,
            next: game as u16 | 1,
            rating: (game % 3000) as u16,
        }
    }

    fn run(games: &[u64]) -> Run {
        let mut run = Run::default();
        for &g in games {
            run.push(posting(g));
        }
        run
    }

    #[test]
    fn keys_keep_their_unsigned_order_in_sqlite() {
        let keys = [0, 1, 1 << 63, u64::MAX - 1, u64::MAX];
        for w in keys.windows(2) {
            assert!(sql_key(w[0]) < sql_key(w[1]));
            assert_eq!(from_sql(sql_key(w[0])), w[0]);
        }
    }

    #[test]
    fn singles_are_found_split_into_blobs_and_promoted_when_reached_again() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE singles(first INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            .unwrap();
        let mut rng = Rng::new(7);
        let mut keys: Vec<u64> = (0..20_000).map(|_| rng.next_u64()).collect();
        keys.extend([1, u64::MAX]);
        keys.sort_unstable();
        keys.dedup();
        // The first import: every key by one game, and one key by two.
        let tx = conn.transaction().unwrap();
        let mut new: Vec<(u64, Run)> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, run(&[i as u64 + 1])))
            .collect();
        new[5].1 = run(&[6, 40_000]);
        let to_positions = merge(&tx, new).unwrap();
        assert_eq!(to_positions.len(), 1);
        assert_eq!(postings(&to_positions[0].1).count(), 2);
        tx.commit().unwrap();
        let blobs: i64 = conn
            .query_row("SELECT count(*) FROM singles", [], |r| r.get(0))
            .unwrap();
        assert!(blobs > 30, "split into blobs: {blobs}");
        for (i, &k) in keys.iter().enumerate() {
            let found = find(&conn, k).unwrap();
            if i == 5 {
                assert_eq!(found, None, "it went to positions");
            } else {
                assert_eq!(found, Some(posting(i as u64 + 1)), "key {i}");
            }
        }
        assert_eq!(find(&conn, keys[7] + 1).unwrap(), None);

        // A second import reaches three of them again and brings a new key below them all.
        let tx = conn.transaction().unwrap();
        let again = [keys[0], keys[9_000], *keys.last().unwrap()];
        let mut new: Vec<(u64, Run)> = again.iter().map(|&k| (k, run(&[50_000]))).collect();
        new.push((0, run(&[50_001])));
        new.sort_by_key(|&(k, _)| k);
        let mut to_positions = merge(&tx, new).unwrap();
        tx.commit().unwrap();
        to_positions.sort_by_key(|&(k, _)| k);
        assert_eq!(
            to_positions.iter().map(|&(k, _)| k).collect::<Vec<_>>(),
            again
        );
        let games: Vec<u64> = postings(&to_positions[1].1).map(|p| p.game).collect();
        assert_eq!(games, [9_001, 50_000], "the single's game first");
        for &k in &again {
            assert_eq!(find(&conn, k).unwrap(), None);
        }
        assert_eq!(find(&conn, keys[1]).unwrap(), Some(posting(2)));
        assert_eq!(find(&conn, 0).unwrap(), Some(posting(50_001)));
    }
}
