//! The tablebases as the interface uses them: opened from the config (or ./tablebases and the
//! data directory), probed on a worker thread (a newer request replaces queued ones), and the
//! answers kept for the last few positions so the panel and the endgame trainer share them.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;

use crate::chess::Position;
use crate::tablebase::{Tablebases, TbView};

use super::config::Config;

/// Answers kept (the panel needs the shown position, grading the one before a move).
const CACHE: usize = 16;

/// A probe answer: the view, or the reason it failed (a missing table...).
pub type Answer = Result<TbView, String>;

#[derive(Default)]
pub struct TbPanel {
    pub tables: Option<Tablebases>,
    /// Where the tables came from, or why there are none.
    pub note: String,
    answers: Vec<(Position, Answer)>,
    /// Requested and not answered yet.
    pending: Vec<Position>,
}

impl TbPanel {
    /// Opens the configured tables; without any the panel says why, once.
    pub fn open(config: &Config) -> TbPanel {
        let chosen = config
            .tablebase_path
            .clone()
            .or_else(|| std::env::var("KIBITZER_SYZYGY").ok())
            .filter(|p| !p.is_empty());
        let (path, label) = match chosen {
            Some(p) => (OsString::from(&p), p),
            None => {
                let dirs = default_dirs();
                let label = dirs
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                let existing: Vec<PathBuf> = dirs.into_iter().filter(|d| d.is_dir()).collect();
                if existing.is_empty() {
                    return TbPanel::none(format!("no tablebases: {}", where_to_put(&label)));
                }
                (std::env::join_paths(existing).unwrap_or_default(), label)
            }
        };
        match Tablebases::open(&path) {
            Ok((tables, _)) if tables.files() == 0 => TbPanel::none(format!(
                "no Syzygy table files in {label}: {}",
                where_to_put(&label)
            )),
            // Unusable files are skipped; the probe that needs one says so.
            Ok((tables, warnings)) => TbPanel {
                note: format!(
                    "{} table files, up to {} pieces{}",
                    tables.files(),
                    tables.max_pieces(),
                    if warnings.is_empty() {
                        String::new()
                    } else {
                        format!(", {} unusable", warnings.len())
                    }
                ),
                tables: Some(tables),
                ..TbPanel::default()
            },
            Err(e) => TbPanel::none(format!("tablebases not used: {e}")),
        }
    }

    pub fn none(note: String) -> TbPanel {
        TbPanel {
            note,
            ..TbPanel::default()
        }
    }

    pub fn with_tables(tables: Tablebases) -> TbPanel {
        TbPanel {
            tables: Some(tables),
            ..TbPanel::default()
        }
    }

    /// Whether `pos` is small enough for the tables (or, without tables, for a note).
    pub fn applies(&self, pos: &Position) -> bool {
        let max = self.tables.as_ref().map_or(5, Tablebases::max_pieces);
        pos.occupied().count() <= max && pos.castling_rooks().0 == 0
    }

    pub fn answer(&self, pos: &Position) -> Option<&Answer> {
        self.answers.iter().find(|(p, _)| p == pos).map(|(_, a)| a)
    }

    pub fn is_pending(&self, pos: &Position) -> bool {
        self.pending.contains(pos)
    }

    pub fn store(&mut self, pos: Position, answer: Answer) {
        self.pending.clear();
        self.answers.retain(|(p, _)| *p != pos);
        if self.answers.len() >= CACHE {
            let _ = self.answers.remove(0);
        }
        self.answers.push((pos, answer));
    }

    /// The view of `pos` now: from the cache, else probed here (only for grading a move played
    /// before its answer came; a warm probe takes well under a millisecond).
    pub fn view_now(&mut self, pos: &Position) -> Option<Answer> {
        if let Some(a) = self.answer(pos) {
            return Some(a.clone());
        }
        let answer = self.tables.as_ref()?.view(pos).map_err(|e| e.to_string());
        self.store(pos.clone(), answer.clone());
        Some(answer)
    }

    /// Of the positions the interface needs, those to ask the tables for (each once): the others
    /// are answered, pending, or not in the tables.
    pub fn to_request(&mut self, wanted: Vec<Position>) -> Vec<Position> {
        if self.tables.is_none() {
            return Vec::new();
        }
        let mut asked = Vec::new();
        for pos in wanted {
            if self.applies(&pos) && self.answer(&pos).is_none() && !self.is_pending(&pos) {
                self.pending.push(pos.clone());
                asked.push(pos);
            }
        }
        asked
    }
}

/// ./tablebases, then the data directory's kibitzer/tablebases.
/// Where tables go and how to get them, for a message.
fn where_to_put(label: &str) -> String {
    format!(
        "put Syzygy files (.rtbw and .rtbz; the 3-5 piece set is about 1 GB, downloadable from \
         syzygy-tables.info) in {label}, or point [tablebase] path in config.toml or \
         KIBITZER_SYZYGY at their folder"
    )
}

fn default_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("tablebases")];
    if let Some(d) = dirs::data_dir() {
        dirs.push(d.join("kibitzer").join("tablebases"));
    }
    dirs
}

/// The probing thread: answers the newest request, dropping older queued ones (the interface
/// asks again for anything it still needs).
pub fn serve(
    tables: Tablebases,
    requests: Receiver<Position>,
    deliver: impl Fn(Position, Answer) -> bool,
) {
    while let Ok(mut pos) = requests.recv() {
        while let Ok(newer) = requests.try_recv() {
            pos = newer;
        }
        let answer = tables.view(&pos).map_err(|e| e.to_string());
        if !deliver(pos, answer) {
            return;
        }
    }
}
