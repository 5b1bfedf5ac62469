//! Ranking the root moves of a tablebase position by DTZ: wins that stay inside the fifty-move
//! rule first (quickest zeroing first), then cursed wins, draws, blessed losses, and losses that
//! hold out longest. The engine searches only the best group.

use std::cmp::{Ordering, Reverse};

use super::error::TbError;
use super::tables::{Dtz, Tablebases};
use crate::chess::TbWdl;
use crate::chess::{Move, Position};
use crate::engine::{TbRoot, TbRootMove};

/// One root move with its tablebase verdict, from the mover's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RankedMove {
    pub mv: Move,
    /// The result after this move, with the root's fifty-move counter taken into account.
    pub wdl: TbWdl,
    /// Plies to zeroing counting this move: positive wins, negative loses, 0 draws.
    pub dtz: i32,
    /// A capture or pawn move.
    pub zeroing: bool,
    pub checkmate: bool,
    pub stalemate: bool,
    /// The DTZ of the position after the move, from its side to move (as the tables give it,
    /// so a win for the mover is negative); `None` after a checkmate, where it could not be
    /// probed, and after a zeroing move in the engine's ranking (only [`Tablebases::view`],
    /// which shows it, probes those).
    pub after: Option<Dtz>,
}

/// The root moves, best first.
#[derive(Clone, Debug)]
pub struct RootRanking {
    pub moves: Vec<RankedMove>,
    rule50: bool,
}

impl RootRanking {
    fn class(&self, m: &RankedMove) -> TbWdl {
        match m.wdl {
            TbWdl::CursedWin if !self.rule50 => TbWdl::Win,
            TbWdl::BlessedLoss if !self.rule50 => TbWdl::Loss,
            wdl => wdl,
        }
    }

    fn order(&self, a: &RankedMove, b: &RankedMove) -> Ordering {
        let (ca, cb) = (self.class(a), self.class(b));
        Reverse(ca).cmp(&Reverse(cb)).then_with(|| match ca {
            TbWdl::Win | TbWdl::CursedWin => b.checkmate.cmp(&a.checkmate).then(a.dtz.cmp(&b.dtz)),
            TbWdl::Draw => Ordering::Equal,
            // Hold out longest: the most negative DTZ first.
            TbWdl::Loss | TbWdl::BlessedLoss => a.dtz.cmp(&b.dtz),
        })
    }

    /// The moves the engine should choose from: every win that keeps inside the fifty-move rule
    /// (or every draw) when the best move is one; otherwise the moves as good as the best.
    pub fn best_group(&self) -> &[RankedMove] {
        let Some(first) = self.moves.first() else {
            return &[];
        };
        let class = self.class(first);
        let len = self
            .moves
            .iter()
            .take_while(|m| {
                self.class(m) == class
                    && (matches!(class, TbWdl::Win | TbWdl::Draw) || m.dtz == first.dtz)
            })
            .count();
        &self.moves[..len]
    }
}

impl Tablebases {
    /// Probes every legal move of `pos`. With `rule50` false (Syzygy50MoveRule off), cursed
    /// wins count as wins and blessed losses as losses.
    pub fn rank_root(&self, pos: &Position, rule50: bool) -> Result<RootRanking, TbError> {
        let mut moves = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let zeroing = child.halfmoves() == 0;
            let ranked = if child.is_checkmate() {
                RankedMove {
                    mv,
                    wdl: TbWdl::Win,
                    dtz: 1,
                    zeroing,
                    checkmate: true,
                    stalemate: false,
                    after: None,
                }
            } else if zeroing {
                // The counter restarts, so the WDL table alone decides; DTZ is this move.
                let wdl = self.probe_wdl(&child)?.flip();
                let dtz = match wdl {
                    TbWdl::Win => 1,
                    TbWdl::CursedWin => 101,
                    TbWdl::Draw => 0,
                    TbWdl::BlessedLoss => -101,
                    TbWdl::Loss => -1,
                };
                RankedMove {
                    mv,
                    wdl,
                    dtz,
                    zeroing,
                    checkmate: false,
                    stalemate: child.is_stalemate(),
                    after: None,
                }
            } else {
                let probe = self.probe_dtz(&child)?;
                // A rounded DTZ may be one ply short of the truth: assume the longer distance,
                // so that a win counted inside the fifty-move rule really is.
                let theirs = probe.plies + i32::from(probe.rounded) * probe.plies.signum();
                let dtz = match theirs.signum() {
                    1 => -(theirs + 1),
                    -1 => 1 - theirs,
                    _ => 0,
                };
                RankedMove {
                    mv,
                    wdl: TbWdl::from_dtz(dtz, pos.halfmoves()),
                    dtz,
                    zeroing,
                    checkmate: false,
                    stalemate: child.is_stalemate(),
                    after: Some(probe),
                }
            };
            moves.push(ranked);
        }
        let mut ranking = RootRanking { moves, rule50 };
        let mut sorted = std::mem::take(&mut ranking.moves);
        sorted.sort_by(|a, b| ranking.order(a, b));
        ranking.moves = sorted;
        Ok(ranking)
    }
}

/// The search's view: the best DTZ group of the root moves.
impl crate::engine::TablebaseProbe for Tablebases {
    fn max_pieces(&self) -> u32 {
        Tablebases::max_pieces(self)
    }

    fn probe_wdl(&self, pos: &Position) -> Option<TbWdl> {
        Tablebases::probe_wdl(self, pos).ok()
    }

    fn root_moves(&self, pos: &Position, rule50: bool) -> Option<TbRoot> {
        if !self.covers(pos) {
            return None;
        }
        let ranking = self.rank_root(pos, rule50).ok()?;
        let best: Vec<TbRootMove> = ranking
            .best_group()
            .iter()
            .map(|m| TbRootMove {
                mv: m.mv,
                wdl: m.wdl,
                dtz: m.dtz,
            })
            .collect();
        let probes = ranking.moves.len() as u64;
        (!best.is_empty()).then_some(TbRoot { best, probes })
    }
}
