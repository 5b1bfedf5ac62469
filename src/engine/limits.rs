//! What a search is asked to do: its stopping limits, pondering and a restricted move set.

use std::time::Duration;

use crate::chess::{ByColor, Move};

/// Both clocks as the GUI reports them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    pub time: ByColor<Duration>,
    pub inc: ByColor<Duration>,
    /// Moves until the next time control; `None` for sudden death (plus increment).
    pub moves_to_go: Option<u32>,
}

/// One stopping condition. A search stops at the first one met.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limit {
    /// Finish this many iterations.
    Depth(u32),
    /// Stop after about this many nodes (exact with one thread).
    Nodes(u64),
    /// Think this long (less the move overhead).
    MoveTime(Duration),
    /// Stop once a mate in at most this many moves is found.
    Mate(u32),
    /// Budget the time from the clock.
    Clock(Clock),
}

/// A search request. No limits at all means infinite analysis, stopped only by `stop`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SearchLimits {
    pub limits: Vec<Limit>,
    /// Search on the opponent's time: no limit applies until `ponderhit`, and the best move is
    /// held back until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all legal moves).
    pub search_moves: Vec<Move>,
}

impl SearchLimits {
    pub fn infinite() -> SearchLimits {
        SearchLimits::default()
    }

    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits::with(Limit::Depth(depth))
    }

    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits::with(Limit::Nodes(nodes))
    }

    pub fn move_time(time: Duration) -> SearchLimits {
        SearchLimits::with(Limit::MoveTime(time))
    }

    pub fn clock(clock: Clock) -> SearchLimits {
        SearchLimits::with(Limit::Clock(clock))
    }

    pub fn with(limit: Limit) -> SearchLimits {
        SearchLimits {
            limits: vec![limit],
            ..SearchLimits::default()
        }
    }

    /// Whether only `stop` ends this search (no limit given).
    pub fn is_infinite(&self) -> bool {
        self.limits.is_empty()
    }
}
