//! The tablebase verdict of a position and of each of its moves, lichess style: what
//! `kibitzer tb probe` prints and the interface's tablebase panel shows.

use super::error::TbError;
use super::root::{RankedMove, RootRanking};
use super::tables::{Dtz, Tablebases};
use crate::chess::Position;
use crate::chess::TbWdl;

/// The position itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TbState {
    Checkmate,
    Stalemate,
    /// The side to move's result (with the fifty-move counter counted) and its DTZ.
    Probed {
        wdl: TbWdl,
        dtz: Dtz,
    },
}

/// A position and all its moves, best first for the side to move.
#[derive(Clone, Debug)]
pub struct TbView {
    pub state: TbState,
    pub ranking: RootRanking,
}

impl Tablebases {
    /// Probes `pos` and every legal move (WDL and DTZ tables needed).
    pub fn view(&self, pos: &Position) -> Result<TbView, TbError> {
        let mut ranking = self.rank_root(pos, true)?;
        // The ranking leaves the DTZ after a zeroing move out (the engine ranks by WDL there);
        // the view shows it. A table missing for the new material costs the figure alone.
        for m in ranking
            .moves
            .iter_mut()
            .filter(|m| m.zeroing && !m.checkmate)
        {
            m.after = pos
                .play(m.mv)
                .ok()
                .and_then(|child| self.probe_dtz(&child).ok());
        }
        let state = if pos.is_checkmate() {
            TbState::Checkmate
        } else if pos.is_stalemate() {
            TbState::Stalemate
        } else {
            let dtz = self.probe_dtz(pos)?;
            TbState::Probed {
                wdl: TbWdl::from_dtz(dtz.plies, pos.halfmoves()),
                dtz,
            }
        };
        Ok(TbView { state, ranking })
    }
}

impl TbWdl {
    /// What the result means for the side that gets it, with the fifty-move rule spelled out.
    pub fn verdict(self) -> &'static str {
        match self {
            TbWdl::Win => "win",
            TbWdl::CursedWin => "cursed win (the fifty-move rule draws it)",
            TbWdl::Draw => "draw",
            TbWdl::BlessedLoss => "blessed loss (the fifty-move rule saves it)",
            TbWdl::Loss => "loss",
        }
    }
}

impl RankedMove {
    /// The DTZ column: `checkmate`, `stalemate`, or the plies to zeroing left after the move
    /// (the DTZ of the position it leads to, so the best move of a DTZ-17 win shows 16; `~`
    /// where the table stores it rounded), with `zeroing` for a capture or pawn move; nothing
    /// for a plain draw.
    pub fn detail(&self) -> String {
        if self.checkmate {
            return "checkmate".into();
        } else if self.stalemate {
            return "stalemate".into();
        }
        let plies = self.after.filter(|d| d.plies != 0).map(|d| {
            let rounded = if d.rounded { "~" } else { "" };
            format!("{rounded}{}", d.plies.abs())
        });
        match (plies, self.zeroing) {
            (Some(plies), true) => format!("{plies}, zeroing"),
            (Some(plies), false) => plies,
            (None, true) => "zeroing".into(),
            (None, false) => String::new(),
        }
    }
}

impl TbState {
    /// `White wins, DTZ 21`, `draw`, `Black is checkmated`: the position for the panel title.
    pub fn headline(self, pos: &Position) -> String {
        let side = pos.turn().fold("White", "Black");
        match self {
            TbState::Checkmate => format!("{side} is checkmated"),
            TbState::Stalemate => "stalemate".into(),
            TbState::Probed { wdl, dtz } => {
                let rounded = if dtz.rounded { "~" } else { "" };
                match wdl {
                    TbWdl::Draw => "draw".into(),
                    _ => format!("{side}: {}, DTZ {rounded}{}", wdl.name(), dtz.plies),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::tests::shared_tables;

    #[test]
    fn view_of_a_won_rook_ending() {
        let Some(tables) = shared_tables() else {
            return;
        };
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/K6R w - - 0 1").unwrap();
        let view = tables.view(&pos).unwrap();
        let TbState::Probed { wdl, dtz } = view.state else {
            panic!("{:?}", view.state);
        };
        assert_eq!(wdl, TbWdl::Win);
        assert!(dtz.plies > 0);
        let best = view.ranking.moves[0];
        assert_eq!(best.wdl, TbWdl::Win);
        // The ranking counts a rounded DTZ one ply longer.
        assert!((best.dtz - dtz.plies).abs() <= 1);
        // Every legal move is listed once.
        assert_eq!(view.ranking.moves.len(), pos.legal_moves().len());
        assert!(view.state.headline(&pos).starts_with("White: win, DTZ"));
    }

    #[test]
    fn mates_stalemates_and_details() {
        let Some(tables) = shared_tables() else {
            return;
        };
        // Qb7 mates, Qc7 stalemates (Black king a8, White king b6).
        let pos = Position::from_fen("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1").unwrap();
        let view = tables.view(&pos).unwrap();
        let find = |uci: &str| {
            let m = pos.parse_uci(uci).unwrap();
            *view.ranking.moves.iter().find(|r| r.mv == m).unwrap()
        };
        assert_eq!(find("c1c8").detail(), "checkmate");
        assert_eq!(find("c1c7").detail(), "stalemate");
        assert_eq!(find("c1c7").wdl, TbWdl::Draw);
        assert!(view.ranking.moves[0].checkmate);
        let mated = Position::from_fen("k1Q5/8/1K6/8/8/8/8/8 b - - 1 1").unwrap();
        assert_eq!(tables.view(&mated).unwrap().state, TbState::Checkmate);
    }
}
