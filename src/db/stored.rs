//! A game as the database keeps it, read back: its tags, its start, its moves replayed, and
//! the game record for PGN.

use rusqlite::{Connection, Row};

use super::codec::decode_move;
use crate::chess::Position;
use crate::game::record::start_position;
use crate::game::tags::{Encoding, scan_tags};
use crate::game::{Game, GameMove, GameResult, Headers, NodeId, Variant};

/// Signatures are stored in blocks of this many games, 16 bytes each.
pub const SIGNATURES_PER_BLOCK: u64 = 4096;
pub const SIGNATURE_BYTES: u64 = 16;

/// The columns [`StoredGame::from_row`] reads, from `games` joined with the names.
pub const GAME_COLUMNS: &str = "g.id, e.name, g.site, g.date, g.round, w.name, b.name, g.result,
    g.white_elo, g.black_elo, g.eco, g.time_control, g.fen, g.moves, g.tags
    FROM games g
    LEFT JOIN players w ON w.id = g.white
    LEFT JOIN players b ON b.id = g.black
    LEFT JOIN events e ON e.id = g.event";

#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: u64,
    pub headers: Headers,
    pub result: GameResult,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    pub moves: Vec<u8>,
}

impl StoredGame {
    pub fn from_row(row: &Row<'_>) -> rusqlite::Result<StoredGame> {
        let text = |i: usize| row.get::<_, Option<String>>(i);
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut put = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                tags.push((name.to_owned(), value));
            }
        };
        for (i, name) in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
            .into_iter()
            .enumerate()
        {
            put(name, text(i + 1)?);
        }
        let (white_elo, black_elo): (Option<u16>, Option<u16>) = (row.get(8)?, row.get(9)?);
        put("WhiteElo", white_elo.map(|e| e.to_string()));
        put("BlackElo", black_elo.map(|e| e.to_string()));
        put("ECO", text(10)?);
        put("TimeControl", text(11)?);
        let fen = text(12)?;
        if fen.is_some() {
            put("SetUp", Some("1".to_owned()));
        }
        put("FEN", fen);
        let other = text(14)?.unwrap_or_default();
        scan_tags(other.as_bytes(), 1, Encoding::Utf8, |name, value, _| {
            let (name, value) = (Encoding::Utf8.decode(name), Encoding::Utf8.decode(&value));
            put(&name, Some(value.into_owned()));
        });
        let (headers, _) = Headers::from_tags(tags);
        let result = headers
            .get("Result")
            .and_then(|r| r.parse().ok())
            .unwrap_or_default();
        Ok(StoredGame {
            id: row.get::<_, i64>(0)? as u64,
            headers,
            result,
            white_elo,
            black_elo,
            moves: row.get(13)?,
        })
    }

    /// Loads games by id, in the order given; ids not found are left out.
    pub fn load(conn: &Connection, ids: &[u64]) -> rusqlite::Result<Vec<StoredGame>> {
        let mut stmt = conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} WHERE g.id = ?1"))?;
        let mut games = Vec::with_capacity(ids.len());
        for &id in ids {
            let mut rows = stmt.query([id as i64])?;
            if let Some(row) = rows.next()? {
                games.push(StoredGame::from_row(row)?);
            }
        }
        Ok(games)
    }

    pub fn start(&self) -> Option<Position> {
        let variant = Variant::from_tag(self.headers.get("Variant")).ok()?;
        start_position(self.headers.get("FEN"), variant).ok()
    }

    /// Calls `visit` with each position and the move played from it (`None` at the end)
    /// until it returns false. Returns false on a damaged record.
    pub fn replay(&self, mut visit: impl FnMut(&Position, Option<GameMove>) -> bool) -> bool {
        let Some(mut pos) = self.start() else {
            return false;
        };
        let mut at = 0;
        while at < self.moves.len() {
            let Some(mv) = decode_move(&pos, &self.moves, &mut at) else {
                return false;
            };
            if !visit(&pos, Some(mv)) {
                return true;
            }
            if !play(&mut pos, mv) {
                return false;
            }
        }
        visit(&pos, None);
        true
    }

    /// The game as a record, for PGN.
    pub fn to_game(&self) -> Option<Game> {
        let start = self.start()?;
        let mut game = Game::new(start.clone());
        game.headers = self.headers.clone();
        game.result = self.result;
        let mut pos = start;
        let mut node = NodeId::ROOT;
        let mut at = 0;
        while at < self.moves.len() {
            let mv = decode_move(&pos, &self.moves, &mut at)?;
            node = game.tree.add_move(node, mv).ok()?;
            pos = game.tree.position(node).clone();
        }
        Some(game)
    }
}

/// Plays a stored move, as [`decode_move`] checked it; false for a null move in check (a
/// damaged record).
fn play(pos: &mut Position, mv: GameMove) -> bool {
    match mv {
        GameMove::Null if pos.in_check() => false,
        GameMove::Null => {
            pos.play_null();
            true
        }
        GameMove::Move(m) => {
            pos.play_unchecked(m);
            true
        }
    }
}
