//! Building a Polyglot book from games: count every (position, move) of the first plies of each
//! mainline, then write the entries sorted by key and merged, with weights from results or counts.

use std::collections::{HashMap, HashSet};
use std::io::{self, Read};
use std::path::Path;

use super::entry::{Entry, encode_move};
use super::error::BookError;
use crate::chess::Color;
use crate::game::{Game, GameError, GameMove, GameResult, PgnReader};

/// Whose moves go into the book.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorFilter {
    White,
    Black,
    Both,
}

/// How an entry's weight is computed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WeightScheme {
    /// Two points per win and one per draw for the side that played the move (as Polyglot's
    /// make-book does); games without a result count as draws.
    Results,
    /// One point per game that played the move.
    Count,
}

#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Plies of each game that are read.
    pub max_ply: usize,
    /// A move needs this many games to be stored.
    pub min_games: u32,
    pub color: ColorFilter,
    pub weights: WeightScheme,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 20,
            min_games: 1,
            color: ColorFilter::Both,
            weights: WeightScheme::Results,
        }
    }
}

#[derive(Clone, Copy, Default, Debug)]
struct MoveStats {
    games: u32,
    score: u32,
}

/// Counts from the games read so far.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct BuildStats {
    pub games: usize,
    pub skipped: usize,
    pub entries: usize,
}

pub struct Builder {
    options: BuildOptions,
    moves: HashMap<(u64, u16), MoveStats>,
    stats: BuildStats,
}

impl Builder {
    pub fn new(options: BuildOptions) -> Builder {
        Builder {
            options,
            moves: HashMap::new(),
            stats: BuildStats::default(),
        }
    }

    pub fn stats(&self) -> BuildStats {
        BuildStats {
            entries: self.moves.len(),
            ..self.stats
        }
    }

    /// Counts the first `max_ply` moves of the game's mainline (up to a null move, if any).
    pub fn add_game(&mut self, game: &Game) {
        self.stats.games += 1;
        let tree = &game.tree;
        let mut before = tree.start();
        // A position reached twice in one game counts once.
        let mut seen = HashSet::new();
        for id in tree.mainline().take(self.options.max_ply) {
            let Some(GameMove::Move(m)) = tree.node(id).game_move() else {
                break;
            };
            let mover = before.turn();
            let wanted = match self.options.color {
                ColorFilter::Both => true,
                ColorFilter::White => mover == Color::White,
                ColorFilter::Black => mover == Color::Black,
            };
            let key = (before.hash(), encode_move(m));
            if wanted && seen.insert(key) {
                let stats = self.moves.entry(key).or_default();
                stats.games += 1;
                stats.score += score(game.result, mover);
            }
            before = tree.position(id);
        }
    }

    /// Reads all games of one PGN stream; a game with an error (illegal move, bad FEN, another
    /// variant) is skipped and its first error goes to `warn`.
    pub fn add_pgn(
        &mut self,
        input: impl Read,
        mut warn: impl FnMut(&GameError),
    ) -> io::Result<()> {
        for parsed in PgnReader::new(input) {
            let parsed = parsed?;
            match parsed.errors.first() {
                None => self.add_game(&parsed.game),
                Some(error) => {
                    self.stats.skipped += 1;
                    warn(error);
                }
            }
        }
        Ok(())
    }

    /// The book: entries sorted by key, then by weight (highest first), then by move.
    pub fn entries(&self) -> Vec<Entry> {
        let mut by_key: HashMap<u64, Vec<(u16, u32)>> = HashMap::new();
        for (&(key, raw_move), stats) in &self.moves {
            if stats.games < self.options.min_games {
                continue;
            }
            let weight = match self.options.weights {
                WeightScheme::Results => stats.score,
                WeightScheme::Count => stats.games,
            };
            if weight > 0 {
                by_key.entry(key).or_default().push((raw_move, weight));
            }
        }
        let mut entries = Vec::new();
        for (key, moves) in by_key {
            let max = moves.iter().map(|&(_, w)| w).max().unwrap_or(0);
            for (raw_move, weight) in moves {
                entries.push(Entry {
                    key,
                    raw_move,
                    weight: fit_u16(weight, max),
                    learn: 0,
                });
            }
        }
        entries.sort_by(|a, b| {
            (a.key, std::cmp::Reverse(a.weight), a.raw_move).cmp(&(
                b.key,
                std::cmp::Reverse(b.weight),
                b.raw_move,
            ))
        });
        entries
    }

    /// Writes the book atomically (a temporary file renamed over `path`).
    pub fn write(&self, path: &Path) -> Result<usize, BookError> {
        let entries = self.entries();
        let mut bytes = Vec::with_capacity(entries.len() * 16);
        for e in &entries {
            bytes.extend_from_slice(&e.to_bytes());
        }
        crate::game::save_atomic(path, &bytes).map_err(|source| BookError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(entries.len())
    }
}

fn score(result: GameResult, mover: Color) -> u32 {
    match (result, mover) {
        (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
        (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => 0,
        (GameResult::Draw | GameResult::Unknown, _) => 1,
    }
}

/// Scales a weight into 16 bits relative to the largest weight of its position, keeping the
/// proportions and never turning a positive weight into 0.
fn fit_u16(weight: u32, max: u32) -> u16 {
    if max <= u32::from(u16::MAX) {
        weight as u16
    } else {
        (u64::from(weight) * u64::from(u16::MAX) / u64::from(max)).max(1) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    const GAMES: &str = r#"
[Result "1-0"]
1. e4 e5 2. Nf3 Nc6 1-0

[Result "0-1"]
1. e4 c5 2. Nf3 0-1

[Result "1/2-1/2"]
1. d4 (1. e4 e6) 1... d5 1/2-1/2

[Result "*"]
1. e4 e5 2. Qh5 Ke7 *
"#;

    fn book_moves(options: BuildOptions) -> Vec<(String, u16)> {
        let mut builder = Builder::new(options);
        builder
            .add_pgn(GAMES.as_bytes(), |e| panic!("{e}"))
            .unwrap();
        let start = Position::startpos();
        builder
            .entries()
            .iter()
            .filter(|e| e.key == start.hash())
            .map(|e| {
                let m = crate::book::decode_move(&start, e.raw_move).unwrap();
                (start.uci(m), e.weight)
            })
            .collect()
    }

    #[test]
    fn result_weights_count_wins_twice_and_draws_once() {
        let moves = book_moves(BuildOptions::default());
        // e4: a win, a loss and an unfinished game (counted as a draw); d4: a draw.
        assert_eq!(moves, vec![("e2e4".into(), 3), ("d2d4".into(), 1)]);
    }

    #[test]
    fn count_weights_and_min_games() {
        let count = BuildOptions {
            weights: WeightScheme::Count,
            ..BuildOptions::default()
        };
        assert_eq!(
            book_moves(count),
            vec![("e2e4".into(), 3), ("d2d4".into(), 1)]
        );
        let min_two = BuildOptions {
            min_games: 2,
            ..count
        };
        assert_eq!(book_moves(min_two), vec![("e2e4".into(), 3)]);
    }

    #[test]
    fn color_filter_keeps_one_sides_moves() {
        let black_only = BuildOptions {
            color: ColorFilter::Black,
            ..BuildOptions::default()
        };
        assert!(book_moves(black_only).is_empty());
        let mut builder = Builder::new(black_only);
        builder.add_pgn(GAMES.as_bytes(), |_| {}).unwrap();
        assert!(!builder.entries().is_empty());
    }

    #[test]
    fn max_ply_limits_depth_and_entries_are_sorted() {
        let shallow = BuildOptions {
            max_ply: 1,
            ..BuildOptions::default()
        };
        let mut builder = Builder::new(shallow);
        builder.add_pgn(GAMES.as_bytes(), |_| {}).unwrap();
        assert_eq!(builder.entries().len(), 2);
        let mut deep = Builder::new(BuildOptions::default());
        deep.add_pgn(GAMES.as_bytes(), |_| {}).unwrap();
        let entries = deep.entries();
        assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
    }

    #[test]
    fn big_weights_are_scaled_into_16_bits() {
        assert_eq!(fit_u16(100, 100), 100);
        assert_eq!(fit_u16(200_000, 200_000), u16::MAX);
        assert_eq!(fit_u16(100_000, 200_000), u16::MAX / 2);
        assert_eq!(fit_u16(1, 200_000), 1);
    }

    #[test]
    fn illegal_games_are_skipped_with_their_reason() {
        let mut builder = Builder::new(BuildOptions::default());
        let mut reasons = Vec::new();
        let pgn = "1. e4 e5 2. Ke3 *\n\n[FEN \"bad fen\"]\n1. e4 *\n\n1. d4 *\n";
        builder
            .add_pgn(pgn.as_bytes(), |e| reasons.push((e.game, e.to_string())))
            .unwrap();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert_eq!(reasons[0].0, 1);
        assert!(reasons[0].1.contains("2. Ke3"), "{}", reasons[0].1);
        assert!(reasons[1].1.contains("FEN"), "{}", reasons[1].1);
        assert_eq!((builder.stats().games, builder.stats().skipped), (1, 2));
    }
}
