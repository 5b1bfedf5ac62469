//! What the search asks of endgame tables. The engine owns this trait (its results are
//! `chess::TbWdl`); the `tablebase` module implements it over Syzygy files, so the engine
//! depends on neither.

use std::sync::Arc;

use crate::chess::{Move, Position, TbWdl};

/// A root move that keeps the best result the tables give.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TbRootMove {
    pub mv: Move,
    /// The result after the move, from the mover's side.
    pub wdl: TbWdl,
    /// Plies to zeroing counting this move: positive wins, negative loses, 0 draws.
    pub dtz: i32,
}

/// The root moves the search keeps, and how many table probes finding them took.
#[derive(Clone, Debug)]
pub struct TbRoot {
    /// Best first; never empty.
    pub best: Vec<TbRootMove>,
    pub probes: u64,
}

/// Endgame tables as the search uses them.
pub trait TablebaseProbe: Send + Sync {
    /// The most pieces a covered position has.
    fn max_pieces(&self) -> u32;

    /// The result of `pos` (right after a capture or pawn move), if the tables have it.
    fn probe_wdl(&self, pos: &Position) -> Option<TbWdl>;

    /// The root moves as good as the best (with `rule50`, cursed wins count as draws), when the
    /// tables cover `pos`.
    fn root_moves(&self, pos: &Position, rule50: bool) -> Option<TbRoot>;
}

/// Tables for the search: the root keeps only its best DTZ moves, and WDL probes score
/// positions right after captures and pawn moves.
#[derive(Clone)]
pub struct TablebaseConfig {
    pub tables: Arc<dyn TablebaseProbe>,
    /// Probe only at this remaining depth or more (SyzygyProbeDepth).
    pub probe_depth: i32,
    /// Honour the fifty-move rule: cursed wins and blessed losses are draws (Syzygy50MoveRule).
    pub rule50: bool,
}

/// Equal when they share one set of tables and the same settings.
impl PartialEq for TablebaseConfig {
    fn eq(&self, other: &TablebaseConfig) -> bool {
        Arc::ptr_eq(&self.tables, &other.tables)
            && self.probe_depth == other.probe_depth
            && self.rule50 == other.rule50
    }
}

impl std::fmt::Debug for TablebaseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablebaseConfig")
            .field("max_pieces", &self.tables.max_pieces())
            .field("probe_depth", &self.probe_depth)
            .field("rule50", &self.rule50)
            .finish()
    }
}
