//! Building a Polyglot book from games: count every (position, move) of the first plies of each
//! mainline, then write the entries sorted by key and merged, with weights from results or counts.

use std::collections::{HashMap, HashSet};
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::entry::{Entry, encode_move};
use super::error::BookError;
use super::pgn::{GameResult, MainlineGame, read_mainlines};
use crate::chess::Color;

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

    pub fn add_game(&mut self, game: &MainlineGame) {
        self.stats.games += 1;
        let mut pos = game.start.clone();
        // A position reached twice in one game counts once.
        let mut seen = HashSet::new();
        for &m in game.moves.iter().take(self.options.max_ply) {
            let mover = pos.turn();
            let wanted = match self.options.color {
                ColorFilter::Both => true,
                ColorFilter::White => mover == Color::White,
                ColorFilter::Black => mover == Color::Black,
            };
            let key = (pos.hash(), encode_move(m));
            if wanted && seen.insert(key) {
                let stats = self.moves.entry(key).or_default();
                stats.games += 1;
                stats.score += score(game.result, mover);
            }
            pos.play_unchecked(m);
        }
    }

    /// Reads all games of one PGN stream; skipped games go to `warn` with their number and reason.
    pub fn add_pgn(
        &mut self,
        input: impl Read,
        mut warn: impl FnMut(usize, &str),
    ) -> io::Result<()> {
        read_mainlines(input, self.options.max_ply, |number, game| {
            match game {
                Ok(game) => self.add_game(&game),
                Err(reason) => {
                    self.stats.skipped += 1;
                    warn(number, &reason);
                }
            }
            ControlFlow::Continue(())
        })
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
        write_atomically(path, &bytes).map_err(|source| BookError::Write {
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

fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = PathBuf::from(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    tmp.set_file_name(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
