//! The explorer: for a position, the games that reached it (by any move order), the moves they
//! played next with their results and ratings, and the best-rated and latest of them; and the
//! games themselves. Filters on names, dates and events pick games in SQL; filters on result
//! and rating apply to each posting.

use std::fmt;

use rusqlite::params_from_iter;
use serde::Serialize;

use super::codec::{GAME_ENDS, NULL_NEXT, Posting, Signature, mean_rating, postings};
use super::stored::{SIGNATURES_PER_BLOCK, StoredGame};
use super::{Database, DbError, INDEX_PLIES, sqlite};
use crate::chess::{Color, Move, Position};
use crate::game::GameMove;
use crate::game::GameResult;

/// Which position to explore.
#[derive(Clone, Debug)]
pub enum Query {
    Fen(String),
    /// SAN moves from the start, move numbers allowed: `1. e4 c5 2. Nf3`.
    Moves(String),
}

impl Query {
    pub fn position(&self) -> Result<Position, DbError> {
        match self {
            Query::Fen(fen) => {
                Position::from_fen(fen).map_err(|e| DbError::Query(format!("FEN '{fen}': {e}")))
            }
            Query::Moves(moves) => Position::startpos()
                .play_sans(moves)
                .map_err(|e| DbError::Query(e.to_string())),
        }
    }
}

/// Which games count. Every field left empty lets all through.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// A player's name: an exact match ignoring case, else every name containing it.
    pub player: Option<String>,
    /// With `player`: only the games where they had this colour.
    pub color: Option<Color>,
    /// Bounds on the players' mean rating; games without both ratings are left out.
    pub min_rating: Option<u16>,
    pub max_rating: Option<u16>,
    /// Dates as in PGN, `2020`, `2020.06` or `2020.06.15`, both ends included.
    pub since: Option<String>,
    pub until: Option<String>,
    /// Events whose name contains this.
    pub event: Option<String>,
    /// `bullet`, `blitz`, `rapid`, `classical`, `correspondence` or `ultrabullet`.
    pub speed: Option<String>,
    /// The `TimeControl` tag exactly, like `180+2`.
    pub time_control: Option<String>,
    pub result: Option<GameResult>,
}

impl Filters {
    fn needs_sql(&self) -> bool {
        self.player.is_some()
            || self.since.is_some()
            || self.until.is_some()
            || self.event.is_some()
            || self.speed.is_some()
            || self.time_control.is_some()
    }

    fn keeps(&self, result: GameResult, rating: u16) -> bool {
        let rated = rating > 0;
        self.result.is_none_or(|r| r == result)
            && self.min_rating.is_none_or(|min| rated && rating >= min)
            && self.max_rating.is_none_or(|max| rated && rating <= max)
    }
}

/// Games and their results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub games: u64,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    /// The mean of the players' mean ratings, over the games where both are known.
    pub average_rating: Option<u32>,
    #[serde(skip)]
    rating_sum: u64,
    #[serde(skip)]
    rated: u64,
}

impl Tally {
    fn add(&mut self, result: GameResult, rating: u16) {
        self.games += 1;
        match result {
            GameResult::WhiteWins => self.white += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black += 1,
            GameResult::Unknown => {}
        }
        if rating > 0 {
            self.rating_sum += u64::from(rating);
            self.rated += 1;
        }
    }

    /// Sets the average rating once all games are in (a division per game would be slow).
    fn finish(mut self) -> Tally {
        self.average_rating = (self.rated > 0).then(|| (self.rating_sum / self.rated) as u32);
        self
    }

    /// White's score in percent over the decided and drawn games.
    pub fn white_percent(&self) -> Option<f64> {
        let decided = self.white + self.draws + self.black;
        (decided > 0)
            .then(|| 100.0 * (self.white as f64 + self.draws as f64 / 2.0) / decided as f64)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveStats {
    pub uci: String,
    pub san: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// A game in a list: enough to choose it.
#[derive(Clone, Debug, Serialize)]
pub struct GameHeader {
    pub id: u64,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    pub result: String,
    pub date: String,
    pub event: String,
}

impl fmt::Display for GameHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elo = |e: Option<u16>| e.map(|e| format!(" ({e})")).unwrap_or_default();
        write!(
            f,
            "#{} {}{} - {}{} {} {} {}",
            self.id,
            self.white,
            elo(self.white_elo),
            self.black,
            elo(self.black_elo),
            self.result,
            self.date,
            self.event
        )
    }
}

/// What the explorer shows for one position.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub fen: String,
    /// Every game that reached the position.
    #[serde(flatten)]
    pub total: Tally,
    /// The moves played next, most played first.
    pub moves: Vec<MoveStats>,
    /// The games that ended in the position.
    pub ended: Tally,
    /// The best-rated games (by the players' mean rating), best first.
    pub top_games: Vec<GameHeader>,
    /// The games imported last, last first.
    pub latest_games: Vec<GameHeader>,
    /// The player names the `player` filter matched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
}

/// Games listed in a report's top and latest lists.
const LISTED_GAMES: usize = 8;

/// What a report sums up from the postings, one at a time.
#[derive(Default)]
struct Summary {
    total: Tally,
    ended: Tally,
    by_move: Vec<(u16, Tally)>,
    /// The best-rated games as (rating, game), best first.
    top: Vec<(u16, u64)>,
    /// The last games seen while they come in increasing order (those of the index), in a
    /// ring, and the ones that came out of order (found past the index).
    recent: [u64; LISTED_GAMES],
    seen: usize,
    out_of_order: Vec<u64>,
}

impl Summary {
    fn add(&mut self, p: &Posting) {
        self.total.add(p.result, p.rating);
        let tally = if p.next == GAME_ENDS {
            &mut self.ended
        } else {
            match self.by_move.iter().position(|&(code, _)| code == p.next) {
                Some(i) => &mut self.by_move[i].1,
                None => {
                    self.by_move.push((p.next, Tally::default()));
                    &mut self.by_move.last_mut().expect("just pushed").1
                }
            }
        };
        tally.add(p.result, p.rating);
        if p.rating > 0 {
            keep_best(&mut self.top, (p.rating, p.game));
        }
        let last = self.recent[(self.seen + LISTED_GAMES - 1) % LISTED_GAMES];
        if self.seen == 0 || p.game > last {
            self.recent[self.seen % LISTED_GAMES] = p.game;
            self.seen += 1;
        } else {
            self.out_of_order.push(p.game);
        }
    }

    /// The highest game numbers, highest first.
    fn latest(&self) -> Vec<u64> {
        let mut latest = self.out_of_order.clone();
        latest.extend_from_slice(&self.recent[..self.seen.min(LISTED_GAMES)]);
        latest.sort_unstable_by(|a, b| b.cmp(a));
        latest.truncate(LISTED_GAMES);
        latest
    }
}

/// Puts `item` in `list` (sorted, greatest first) if it is among the greatest [`LISTED_GAMES`].
fn keep_best<T: Ord + Copy>(list: &mut Vec<T>, item: T) {
    if list.len() == LISTED_GAMES && list.last().is_some_and(|&last| item <= last) {
        return;
    }
    let at = list.partition_point(|&x| x > item);
    list.insert(at, item);
    list.truncate(LISTED_GAMES);
}

/// A block of signatures: its summary, and its games' signatures once a query needed them.
struct SignatureBlock {
    block: u64,
    /// The widest of the signatures at the last indexed ply.
    later_max: u64,
    /// The narrowest of the signatures at the end.
    end_min: u64,
    words: Option<Vec<u64>>,
}

/// Queries one database; keeps what every query reads (the signatures) after the first.
pub struct Explorer<'a> {
    db: &'a Database,
    blocks: Option<Vec<SignatureBlock>>,
}

impl<'a> Explorer<'a> {
    pub fn new(db: &'a Database) -> Explorer<'a> {
        Explorer { db, blocks: None }
    }

    pub fn explore(&mut self, pos: &Position, filters: &Filters) -> Result<Report, DbError> {
        let mut sum = Summary::default();
        let players = self.for_each_match(pos, filters, &mut |p| sum.add(p))?;
        let latest = sum.latest();
        let mut moves: Vec<MoveStats> = sum
            .by_move
            .into_iter()
            .filter_map(|(code, tally)| {
                let tally = tally.finish();
                if code == NULL_NEXT {
                    let (uci, san) = ("0000".to_owned(), "--".to_owned());
                    return Some(MoveStats { uci, san, tally });
                }
                // A move that is not legal here came with a key that collided: left out.
                let m = Move::from_u16(code).filter(|&m| pos.is_legal(m))?;
                Some(MoveStats {
                    uci: pos.uci(m),
                    san: pos.san(m),
                    tally,
                })
            })
            .collect();
        moves.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.san.cmp(&b.san)));
        let top: Vec<u64> = sum.top.iter().map(|&(_, game)| game).collect();
        Ok(Report {
            fen: pos.fen(),
            total: sum.total.finish(),
            moves,
            ended: sum.ended.finish(),
            top_games: self.headers(&top)?,
            latest_games: self.headers(&latest)?,
            players,
        })
    }

    /// The ids of the games that reached the position, in import order.
    pub fn game_ids(&mut self, pos: &Position, filters: &Filters) -> Result<Vec<u64>, DbError> {
        let mut ids = Vec::new();
        self.for_each_match(pos, filters, &mut |p| ids.push(p.game))?;
        ids.sort_unstable();
        Ok(ids)
    }

    /// The ids of the latest `n` games (the highest ids) that reached the position, latest
    /// first: a bounded heap, so a position of a million games does not collect them all.
    pub fn latest_game_ids(
        &mut self,
        pos: &Position,
        filters: &Filters,
        n: usize,
    ) -> Result<Vec<u64>, DbError> {
        let mut heap = std::collections::BinaryHeap::with_capacity(n + 1);
        self.for_each_match(pos, filters, &mut |p| {
            heap.push(std::cmp::Reverse(p.game));
            if heap.len() > n {
                heap.pop();
            }
        })?;
        // Ascending order of Reverse is descending order of ids.
        Ok(heap.into_sorted_vec().into_iter().map(|r| r.0).collect())
    }

    /// Loads games by id.
    pub fn load(&self, ids: &[u64]) -> Result<Vec<StoredGame>, DbError> {
        StoredGame::load(&self.db.conn, ids).map_err(sqlite(&self.db.path))
    }

    /// Calls `f` with each game that reached the position and passes the filters: those of the
    /// index in import order, then those found past it. Returns the player names matched.
    fn for_each_match(
        &mut self,
        pos: &Position,
        filters: &Filters,
        f: &mut dyn FnMut(&Posting),
    ) -> Result<Vec<String>, DbError> {
        let err = sqlite(&self.db.path);
        let (allowed, players) = if filters.needs_sql() {
            let (set, players) = self.allowed_games(filters)?;
            (Some(set), players)
        } else {
            (None, Vec::new())
        };
        let passes = |game: u64| allowed.as_ref().is_none_or(|set| set.contains(game));
        let key = pos.hash();
        let mut stmt = self
            .db
            .conn
            .prepare_cached("SELECT postings FROM positions WHERE key = ?1")
            .map_err(&err)?;
        let mut rows = stmt.query([key as i64]).map_err(&err)?;
        if let Some(row) = rows.next().map_err(&err)? {
            let blob = row
                .get_ref(0)
                .map_err(&err)?
                .as_blob()
                .map_err(|e| err(e.into()))?;
            for p in postings(blob) {
                if passes(p.game) && filters.keeps(p.result, p.rating) {
                    f(&p);
                }
            }
        } else if let Some(p) = super::singles::find(&self.db.conn, key).map_err(&err)?
            && passes(p.game)
            && filters.keeps(p.result, p.rating)
        {
            f(&p);
        }
        drop(rows);
        drop(stmt);
        for p in self.later_occurrences(pos, &passes)? {
            if filters.keeps(p.result, p.rating) {
                f(&p);
            }
        }
        Ok(players)
    }

    /// Games that reach the position only after the indexed plies: those whose signatures
    /// allow it are replayed.
    fn later_occurrences(
        &mut self,
        pos: &Position,
        passes: &dyn Fn(u64) -> bool,
    ) -> Result<Vec<Posting>, DbError> {
        let target = Signature::of(pos);
        let candidates = self.candidates(target, passes)?;
        let key = pos.hash();
        let mut found = Vec::new();
        for game in self.load(&candidates)? {
            let mut first = None;
            let mut ply = 0;
            game.replay(|p, next| {
                if p.hash() == key {
                    first = Some((ply, next));
                    return false;
                }
                ply += 1;
                true
            });
            if let Some((_, next)) = first.filter(|&(ply, _)| ply > INDEX_PLIES) {
                let rating = mean_rating(game.white_elo, game.black_elo);
                found.push(Posting {
                    game: game.id,
                    result: game.result,
                    next: match next {
                        None => GAME_ENDS,
                        Some(GameMove::Move(m)) => m.to_u16(),
                        Some(GameMove::Null) => NULL_NEXT,
                    },
                    rating,
                });
            }
        }
        Ok(found)
    }

    /// The games passing `passes` that may reach a position of signature `target` after the
    /// indexed plies. The blocks' summaries are read once, a block only when it may hold such
    /// a game, and then kept.
    fn candidates(
        &mut self,
        target: Signature,
        passes: &dyn Fn(u64) -> bool,
    ) -> Result<Vec<u64>, DbError> {
        let err = sqlite(&self.db.path);
        if self.blocks.is_none() {
            let mut stmt = self
                .db
                .conn
                .prepare("SELECT block, later_max, end_min FROM signatures ORDER BY block")
                .map_err(&err)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(SignatureBlock {
                        block: r.get::<_, i64>(0)? as u64,
                        later_max: r.get::<_, i64>(1)? as u64,
                        end_min: r.get::<_, i64>(2)? as u64,
                        words: None,
                    })
                })
                .map_err(&err)?;
            self.blocks = Some(rows.collect::<Result<_, _>>().map_err(&err)?);
        }
        let mut stmt = self
            .db
            .conn
            .prepare_cached("SELECT data FROM signatures WHERE block = ?1")
            .map_err(&err)?;
        let blocks = self.blocks.as_mut().expect("read above");
        let mut out = Vec::new();
        for block in blocks.iter_mut() {
            if !(Signature(block.later_max).covers(target)
                && target.covers(Signature(block.end_min)))
            {
                continue;
            }
            if block.words.is_none() {
                let data: Vec<u8> = stmt
                    .query_row([block.block as i64], |r| r.get(0))
                    .map_err(&err)?;
                let words = data
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
                    .collect();
                block.words = Some(words);
            }
            let first = block.block * SIGNATURES_PER_BLOCK + 1;
            let words = block.words.as_deref().unwrap_or_default();
            out.extend(
                words
                    .chunks_exact(2)
                    .enumerate()
                    .filter(|&(_, pair)| {
                        Signature(pair[0]).covers(target) && target.covers(Signature(pair[1]))
                    })
                    .map(|(i, _)| first + i as u64)
                    .filter(|&game| passes(game)),
            );
        }
        Ok(out)
    }

    /// The games passing the filters that SQL answers, and the player names matched.
    fn allowed_games(&self, filters: &Filters) -> Result<(GameSet, Vec<String>), DbError> {
        let err = sqlite(&self.db.path);
        let conn = &self.db.conn;
        let mut clauses: Vec<String> = Vec::new();
        let mut values: Vec<rusqlite::types::Value> = Vec::new();
        let mut players = Vec::new();
        if let Some(name) = &filters.player {
            let mut ids = Vec::new();
            for sql in [
                "SELECT id, name FROM players WHERE name = ?1 COLLATE NOCASE",
                "SELECT id, name FROM players WHERE instr(lower(name), lower(?1)) > 0",
            ] {
                let mut stmt = conn.prepare(sql).map_err(&err)?;
                let rows = stmt
                    .query_map([name], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                    })
                    .map_err(&err)?;
                for row in rows {
                    let (id, found) = row.map_err(&err)?;
                    ids.push(id.to_string());
                    players.push(found);
                }
                if !ids.is_empty() {
                    break;
                }
            }
            if ids.is_empty() {
                return Err(DbError::Query(format!(
                    "no player's name contains '{name}'"
                )));
            }
            let list = ids.join(",");
            clauses.push(match filters.color {
                Some(Color::White) => format!("white IN ({list})"),
                Some(Color::Black) => format!("black IN ({list})"),
                None => format!("(white IN ({list}) OR black IN ({list}))"),
            });
        }
        if let Some(since) = &filters.since {
            clauses.push("date >= ?".into());
            values.push(since.clone().into());
        }
        if let Some(until) = &filters.until {
            // "2020" takes in all of 2020: pad to the end of the period.
            let padded = match until.matches('.').count() {
                0 => format!("{until}.99.99"),
                1 => format!("{until}.99"),
                _ => until.clone(),
            };
            clauses.push("date <= ?".into());
            values.push(padded.into());
        }
        if let Some(event) = &filters.event {
            clauses.push(
                "event IN (SELECT id FROM events WHERE instr(lower(name), lower(?)) > 0)".into(),
            );
            values.push(event.clone().into());
        }
        if let Some(speed) = &filters.speed {
            clauses.push("speed = ?".into());
            values.push(speed.to_ascii_lowercase().into());
        }
        if let Some(tc) = &filters.time_control {
            clauses.push("time_control = ?".into());
            values.push(tc.clone().into());
        }
        let sql = format!("SELECT id FROM games WHERE {}", clauses.join(" AND "));
        let mut stmt = conn.prepare(&sql).map_err(&err)?;
        let mut set = GameSet::default();
        let ids = stmt
            .query_map(params_from_iter(values), |r| r.get::<_, i64>(0))
            .map_err(&err)?;
        for id in ids {
            set.insert(id.map_err(&err)? as u64);
        }
        Ok((set, players))
    }

    /// The list headers of games by id, in the order given.
    pub fn headers(&self, ids: &[u64]) -> Result<Vec<GameHeader>, DbError> {
        let err = sqlite(&self.db.path);
        let mut stmt = self
            .db
            .conn
            .prepare_cached(
                "SELECT event, date, white, black, result, white_elo, black_elo
                 FROM game_list WHERE id = ?1",
            )
            .map_err(&err)?;
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            let header = stmt
                .query_row([id as i64], |r| {
                    let text = |i: usize| -> rusqlite::Result<String> {
                        Ok(r.get::<_, Option<String>>(i)?.unwrap_or_else(|| "?".into()))
                    };
                    Ok(GameHeader {
                        id,
                        event: text(0)?,
                        date: text(1)?,
                        white: text(2)?,
                        black: text(3)?,
                        result: text(4)?,
                        white_elo: r.get(5)?,
                        black_elo: r.get(6)?,
                    })
                })
                .map_err(&err)?;
            out.push(header);
        }
        Ok(out)
    }
}

/// A set of game ids, one bit each.
#[derive(Default)]
struct GameSet {
    words: Vec<u64>,
}

impl GameSet {
    fn insert(&mut self, id: u64) {
        let word = (id / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (id % 64);
    }

    fn contains(&self, id: u64) -> bool {
        self.words
            .get((id / 64) as usize)
            .is_some_and(|w| w & 1 << (id % 64) != 0)
    }
}
