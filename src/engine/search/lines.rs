//! Lines as long as their depth. A node on a line that was searched less deeply than the
//! iteration (a reduction, a re-search a ply shallower, a quiet position where quiescence stood
//! pat) passes up a line that ends early. For the lines the user reads at MultiPV, the hash
//! table's best moves continue them, and where it has none, a search of the plies still missing
//! from the line's last position.

use crate::chess::{Move, Position};

use super::super::score::{INFINITY, is_decisive};
use super::super::thread::FRAME_OFFSET;
use super::super::tt::TranspositionTable;
use super::super::{Bound, history::PieceTo};
use super::{Pv, Searcher};

/// `pv` from `root`, continued by the table's best moves up to `depth` plies. The continuation
/// stops at a missing or illegal move and before a position the line has already seen.
pub(in crate::engine) fn full_line(
    tt: &TranspositionTable,
    root: &Position,
    pv: &[Move],
    depth: usize,
) -> Vec<Move> {
    let mut line = pv.to_vec();
    if line.len() >= depth {
        return line;
    }
    let mut pos = root.clone();
    let mut seen = vec![pos.hash()];
    for &m in pv {
        pos.play_unchecked(m);
        seen.push(pos.hash());
    }
    while line.len() < depth {
        let Some(m) = tt.probe(pos.hash(), 0).and_then(|entry| entry.mv) else {
            break;
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        if seen.contains(&pos.hash()) {
            break;
        }
        seen.push(pos.hash());
        line.push(m);
    }
    line
}

impl Searcher<'_> {
    /// Completes the exact, non-mate lines of a finished iteration at `depth` (for MultiPV: a
    /// single line is what the engine plays, and searching on after it would change the play).
    pub(super) fn complete_lines(&mut self, depth: i32) {
        for index in 0..self.ctx.multipv.min(self.td.root_moves.len()) {
            let rm = &self.td.root_moves[index];
            if rm.score == -INFINITY || rm.bound != Bound::Exact || is_decisive(rm.score) {
                continue;
            }
            let mut line = full_line(self.ctx.tt, &self.td.root, &rm.pv, depth as usize);
            // The search of the rest reduces too, so its line may need another round.
            while line.len() < depth as usize
                && let Some(rest) = self.search_rest(&line, depth - line.len() as i32)
            {
                line.extend(rest);
                line = full_line(self.ctx.tt, &self.td.root, &line, depth as usize);
            }
            if self.ctx.stopped() {
                return;
            }
            self.td.root_moves[index].pv = line;
        }
    }

    /// The best line of `depth` plies from the end of `line`, searched with the frames the
    /// line's moves would have left; `None` where the line ends the game or the search stopped.
    fn search_rest(&mut self, line: &[Move], depth: i32) -> Option<Vec<Move>> {
        let mut pos = self.td.root.clone();
        let mut ply = 0;
        // The line's moves are the search's own, so each has a piece to move.
        while let Some(&m) = line.get(ply)
            && let Some(piece) = pos.moved_piece(m)
        {
            let frame = &mut self.td.frames[ply + FRAME_OFFSET];
            frame.piece_to = Some(PieceTo { piece, to: m.to() });
            frame.static_eval = None;
            frame.excluded = None;
            frame.double_extensions = 0;
            pos = self.make_move(&pos, m);
            ply += 1;
        }
        let seldepth = self.td.seldepth;
        let searched = ply == line.len() && !pos.legal_moves().is_empty() && !self.is_draw(&pos);
        if searched {
            self.pvs::<Pv>(&pos, -INFINITY, INFINITY, depth, ply, false);
        }
        for _ in 0..ply {
            self.unmake_move();
        }
        self.td.seldepth = seldepth;
        let rest = &self.td.pv[ply];
        (searched && !self.ctx.stopped() && !rest.is_empty()).then(|| rest.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tt::TtEntry;

    /// A table holding `moves` as the best moves along the line they make from `root`.
    fn table_of(root: &Position, moves: &[&str]) -> TranspositionTable {
        let tt = TranspositionTable::new(1);
        let mut pos = root.clone();
        for uci in moves {
            let m = pos.parse_uci(uci).unwrap();
            let entry = TtEntry {
                mv: Some(m),
                value: 0,
                eval: 0,
                depth: 5,
                bound: Bound::Exact,
            };
            tt.store(pos.hash(), 0, entry);
            pos.play_unchecked(m);
        }
        tt
    }

    fn uci(root: &Position, line: &[Move]) -> Vec<String> {
        let mut pos = root.clone();
        line.iter()
            .map(|&m| {
                let text = pos.uci(m);
                pos.play_unchecked(m);
                text
            })
            .collect()
    }

    #[test]
    fn a_short_line_goes_on_with_the_tables_moves_up_to_its_depth() {
        let root = Position::startpos();
        let tt = table_of(&root, &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let pv = [root.parse_uci("e2e4").unwrap()];
        assert_eq!(
            uci(&root, &full_line(&tt, &root, &pv, 4)),
            ["e2e4", "e7e5", "g1f3", "b8c6"]
        );
        // No longer than the table knows, and a line already long enough is left alone.
        assert_eq!(full_line(&tt, &root, &pv, 20).len(), 6);
        assert_eq!(full_line(&tt, &root, &pv, 1), pv);
    }

    #[test]
    fn the_continuation_stops_before_a_repetition() {
        let root = Position::startpos();
        // Knights out and back: the fourth move would return to the start.
        let tt = table_of(&root, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        let pv = [root.parse_uci("g1f3").unwrap()];
        assert_eq!(
            uci(&root, &full_line(&tt, &root, &pv, 10)),
            ["g1f3", "g8f6", "f3g1"]
        );
    }
}
