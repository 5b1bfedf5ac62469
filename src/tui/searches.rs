//! The searches the interface asks the engine for: why each runs, at which node, and the id
//! its reports carry, so that a late report of an earlier search is dropped.

use std::time::Instant;

use crate::chess::{Move, Position};
use crate::engines::service::SearchId;
use crate::game::NodeId;

/// Why the engine is searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Choosing the opponent's move in play mode.
    Opponent,
    /// A hint for the player.
    Hint,
    /// Infinite analysis of the shown position.
    Analysis,
    /// One step of the whole-game pass.
    GamePass,
    /// Grading a move tried at a puzzle: the position after it.
    Grade(Move),
    /// Thinking on the player's time, in the position after this expected reply to the node's
    /// position; on a hit it becomes the `Opponent` search of the next node.
    Ponder(Move),
}

/// A search the interface asked for.
#[derive(Clone, Debug)]
pub struct Search {
    pub id: SearchId,
    pub purpose: Purpose,
    /// The node of the game searched, and its position (for SAN and score orientation).
    pub node: NodeId,
    pub root: Position,
    pub started: Instant,
}

/// The search the interface currently wants answers from, and the ids searches are started with
/// (an engine's late reports name an earlier id and are dropped).
#[derive(Clone, Debug)]
pub struct Searches {
    current: Option<Search>,
    next_id: SearchId,
}

impl Default for Searches {
    fn default() -> Searches {
        Searches {
            current: None,
            next_id: 1,
        }
    }
}

impl Searches {
    pub fn current(&self) -> Option<&Search> {
        self.current.as_ref()
    }

    /// The current search if it is the one with this id.
    pub fn with_id(&self, id: SearchId) -> Option<&Search> {
        self.current.as_ref().filter(|s| s.id == id)
    }

    /// Notes a new search as the current one; its id goes with its `go`.
    pub fn start(
        &mut self,
        purpose: Purpose,
        node: NodeId,
        root: Position,
        now: Instant,
    ) -> SearchId {
        let id = self.next_id;
        self.next_id += 1;
        self.current = Some(Search {
            id,
            purpose,
            node,
            root,
            started: now,
        });
        id
    }

    /// Forgets the current search (it ended, or is to be stopped): whether there was one.
    pub fn end(&mut self) -> bool {
        self.current.take().is_some()
    }

    /// The ponder search goes on as the opponent's search at `node`, its clock from `now`.
    pub fn ponder_hit(&mut self, node: NodeId, now: Instant) {
        if let Some(s) = &mut self.current {
            s.purpose = Purpose::Opponent;
            s.node = node;
            s.started = now;
        }
    }
}
