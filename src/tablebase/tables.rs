//! One shared set of Syzygy tables, gathered from several directories and opened lazily.

use std::ffi::OsStr;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

use super::convert::{map_error, to_shakmaty};
use super::error::TbError;
use crate::chess::Position;

use crate::chess::TbWdl;

impl TbWdl {
    fn from_syzygy(w: shakmaty_syzygy::Wdl) -> TbWdl {
        match w {
            shakmaty_syzygy::Wdl::Loss => TbWdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => TbWdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => TbWdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => TbWdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => TbWdl::Win,
        }
    }
}

/// Distance to zeroing (the next capture or pawn move, counted in plies) with best play:
/// positive when the side to move wins, negative when it loses, 0 for draws. Some tables store
/// only even distances; `rounded` says the value may be one ply too high.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Dtz {
    pub plies: i32,
    pub rounded: bool,
}

/// Syzygy tables, shared cheaply between threads (clones share one set of open files).
#[derive(Clone)]
pub struct Tablebases {
    tables: Arc<Tablebase<Chess>>,
    files: usize,
}

/// Equal when they share one set of tables (clones of one `open`).
impl PartialEq for Tablebases {
    fn eq(&self, other: &Tablebases) -> bool {
        Arc::ptr_eq(&self.tables, &other.tables)
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

impl Tablebases {
    /// Registers the table files of every directory in `path` (separated by ':' on Unix, ';' on
    /// Windows); files are opened on first use. A missing directory is an error; a file that
    /// cannot be a table (wrong size, unreadable) is skipped and returned as a warning.
    pub fn open(path: &OsStr) -> Result<(Tablebases, Vec<TbError>), TbError> {
        let mut tables = Tablebase::new();
        let mut warnings = Vec::new();
        let mut files = 0;
        let mut dirs = 0;
        for dir in std::env::split_paths(path).filter(|d| !d.as_os_str().is_empty()) {
            dirs += 1;
            let entries = std::fs::read_dir(&dir).map_err(|source| TbError::Directory {
                path: dir.clone(),
                source,
            })?;
            let mut names: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            names.sort();
            for file in names {
                match tables.add_file(&file) {
                    Ok(()) => files += 1,
                    // Not a table file name: anything else may live in the directory.
                    Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
                    Err(e) => warnings.push(TbError::BadFile {
                        path: file,
                        reason: describe(&e),
                    }),
                }
            }
        }
        if dirs == 0 {
            return Err(TbError::NoPath);
        }
        Ok((
            Tablebases {
                tables: Arc::new(tables),
                files,
            },
            warnings,
        ))
    }

    /// Number of table files registered.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Most pieces (kings included) of any registered table; 0 when there are none.
    pub fn max_pieces(&self) -> u32 {
        self.tables.max_pieces() as u32
    }

    /// Whether `pos` could be in the tables: few enough pieces and no castling rights.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces() && pos.castling_rooks().0 == 0
    }

    fn prepare(&self, pos: &Position) -> Result<Chess, TbError> {
        let pieces = pos.occupied().count();
        if pieces > self.max_pieces() {
            return Err(TbError::TooManyPieces {
                pieces,
                max: self.max_pieces(),
            });
        }
        if pos.castling_rooks().0 != 0 {
            return Err(TbError::Castling);
        }
        to_shakmaty(pos)
    }

    fn map(&self, pos: &Position, e: shakmaty_syzygy::SyzygyError) -> TbError {
        map_error(e, pos.occupied().count(), self.max_pieces())
    }

    /// WDL of `pos` as if it had just been reached by a capture or pawn move (the fifty-move
    /// counter at zero). Reads only WDL tables: the probe for search.
    pub fn probe_wdl(&self, pos: &Position) -> Result<TbWdl, TbError> {
        let chess = self.prepare(pos)?;
        self.tables
            .probe_wdl_after_zeroing(&chess)
            .map(TbWdl::from_syzygy)
            .map_err(|e| self.map(pos, e))
    }

    /// DTZ of `pos` (needs WDL and DTZ tables).
    pub fn probe_dtz(&self, pos: &Position) -> Result<Dtz, TbError> {
        let chess = self.prepare(pos)?;
        let dtz = self
            .tables
            .probe_dtz(&chess)
            .map_err(|e| self.map(pos, e))?;
        Ok(Dtz {
            plies: dtz.ignore_rounding().0,
            rounded: dtz.precise().is_none(),
        })
    }
}

fn describe(e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::InvalidData {
        // shakmaty's wording is "unexpected file size": say what that means.
        format!("{e} (a table is 16 bytes more than a multiple of 64; truncated or corrupted?)")
    } else {
        e.to_string()
    }
}
