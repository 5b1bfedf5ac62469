//! Where each panel goes for a terminal size. Pure, so rendering and mouse hit-testing agree.

use ratatui::layout::Rect;

use crate::chess::{File, Rank, Square};

/// Square sizes tried from largest to smallest (width, height in cells).
const SQUARE_SIZES: [(u16, u16); 6] = [(13, 6), (11, 5), (9, 4), (7, 3), (5, 2), (3, 1)];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Areas {
    pub evalbar: Rect,
    /// The 8x8 squares only (coordinates drawn outside it).
    pub board: Rect,
    pub square_w: u16,
    pub square_h: u16,
    pub side: Rect,
    pub status: Rect,
    pub input: Rect,
}

/// Lays out a terminal of `area`; `coordinates` reserves room for a-h and 1-8.
pub fn compute(area: Rect, coordinates: bool) -> Areas {
    let coord_w = if coordinates { 2 } else { 0 };
    let coord_h = u16::from(coordinates);
    let body_h = area.height.saturating_sub(2);
    // The board may take up to about 60% of the width, leaving at least 30 columns beside it.
    let max_w = (area.width * 3 / 5).max(area.width.saturating_sub(30).min(area.width));
    let (square_w, square_h) = SQUARE_SIZES
        .into_iter()
        .find(|&(w, h)| 8 * w + coord_w + 2 <= max_w && 8 * h + coord_h <= body_h)
        .unwrap_or((3, 1));
    let board_w = (8 * square_w).min(area.width.saturating_sub(coord_w + 2));
    let board_h = (8 * square_h).min(body_h.saturating_sub(coord_h));
    let evalbar = Rect::new(area.x, area.y, 1.min(area.width), board_h);
    let board = Rect::new(area.x + 2 + coord_w, area.y, board_w, board_h);
    let left_w = (board.right() - area.x + 1).min(area.width);
    let side = Rect::new(area.x + left_w, area.y, area.width - left_w, body_h);
    Areas {
        evalbar,
        board,
        square_w,
        square_h,
        side,
        status: Rect::new(area.x, area.y + body_h, area.width, 1.min(area.height)),
        input: Rect::new(
            area.x,
            area.y + body_h + 1,
            area.width,
            u16::from(area.height >= 2),
        ),
    }
}

/// The panels beside the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SidePanels {
    /// The clocks of a timed game; empty otherwise.
    pub clocks: Rect,
    pub moves: Rect,
    /// Book moves (or tablebase results) of the shown position; may be empty.
    pub reference: Rect,
    /// The database explorer; empty without a database.
    pub explorer: Rect,
    pub engine: Rect,
    pub graph: Rect,
}

impl Areas {
    /// The clocks on top (`clock_lines`, 0 for none), then the move list, the reference panel
    /// (`reference_lines` of text, 0 for none), the explorer (`explorer_lines`, 0 for none),
    /// engine lines (half of what they and the moves share, or at most `engine_rows` where the
    /// panel has only that much to say), and the evaluation graph below.
    pub fn side_panels(
        &self,
        clock_lines: u16,
        reference_lines: u16,
        explorer_lines: u16,
        engine_rows: Option<u16>,
    ) -> SidePanels {
        let clocks_h = clock_lines.min(self.side.height / 3);
        let clocks = Rect::new(self.side.x, self.side.y, self.side.width, clocks_h);
        let s = Rect::new(
            self.side.x,
            self.side.y + clocks_h,
            self.side.width,
            self.side.height - clocks_h,
        );
        let graph_h = if s.height >= 20 {
            s.height / 3
        } else {
            s.height.saturating_sub(12).min(6)
        };
        let reference_h = if reference_lines == 0 {
            0
        } else {
            (reference_lines + 1).min(s.height.saturating_sub(graph_h) / 2)
        };
        let rest = s.height - graph_h - reference_h;
        // The explorer takes up to a third of what is left: the moves and engine lines share
        // the rest.
        let explorer_h = if explorer_lines == 0 {
            0
        } else {
            (explorer_lines + 1).min(rest / 3).max(2.min(rest))
        };
        let rest = rest - explorer_h;
        let engine_h = rest - rest / 2;
        let moves_h = rest - engine_rows.map_or(engine_h, |rows| rows.min(engine_h));
        let explorer_y = s.y + moves_h + reference_h;
        SidePanels {
            clocks,
            moves: Rect::new(s.x, s.y, s.width, moves_h),
            reference: Rect::new(s.x, s.y + moves_h, s.width, reference_h),
            explorer: Rect::new(s.x, explorer_y, s.width, explorer_h),
            engine: Rect::new(s.x, explorer_y + explorer_h, s.width, rest - moves_h),
            graph: Rect::new(
                s.x,
                explorer_y + explorer_h + rest - moves_h,
                s.width,
                graph_h,
            ),
        }
    }

    /// The cell rectangle of `sq`.
    pub fn square_rect(&self, sq: Square, flipped: bool) -> Rect {
        let (col, row) = if flipped {
            (7 - sq.file().index() as u16, sq.rank().index() as u16)
        } else {
            (sq.file().index() as u16, 7 - sq.rank().index() as u16)
        };
        Rect::new(
            self.board.x + col * self.square_w,
            self.board.y + row * self.square_h,
            self.square_w,
            self.square_h,
        )
    }

    /// The square under terminal cell (`x`, `y`), if any.
    pub fn square_at(&self, x: u16, y: u16, flipped: bool) -> Option<Square> {
        if !self.board.contains((x, y).into()) || self.square_w == 0 || self.square_h == 0 {
            return None;
        }
        let col = (x - self.board.x) / self.square_w;
        let row = (y - self.board.y) / self.square_h;
        if col > 7 || row > 7 {
            return None;
        }
        let (file, rank) = if flipped {
            (7 - col, row)
        } else {
            (col, 7 - row)
        };
        Some(Square::from_coords(
            File::new(u32::from(file)),
            Rank::new(u32::from(rank)),
        ))
    }
}

/// The move of the evaluation graph under cell (`x`, `y`): the graph drawn in `graph` (a
/// top border, then the plot) spans plies 0 to `moves` from its left to its right column.
pub fn graph_ply_at(graph: Rect, moves: usize, x: u16, y: u16) -> Option<usize> {
    let plot = Rect::new(
        graph.x,
        graph.y + 1,
        graph.width,
        graph.height.saturating_sub(1),
    );
    if graph.height < 3 || !plot.contains((x, y).into()) {
        return None;
    }
    let span = usize::from(plot.width.saturating_sub(1)).max(1);
    let col = usize::from(x - plot.x);
    Some(((col * moves + span / 2) / span).min(moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_grows_with_the_terminal() {
        let small = compute(Rect::new(0, 0, 80, 24), true);
        assert_eq!((small.square_w, small.square_h), (5, 2));
        let big = compute(Rect::new(0, 0, 200, 60), true);
        assert!(big.square_w > small.square_w);
        for a in [small, big] {
            assert!(a.side.width >= 30);
            assert!(a.board.right() <= a.side.x);
        }
        let tiny = compute(Rect::new(0, 0, 40, 12), true);
        assert_eq!((tiny.square_w, tiny.square_h), (3, 1));
    }

    #[test]
    fn hit_testing_inverts_square_rects() {
        let a = compute(Rect::new(0, 0, 120, 40), true);
        for flipped in [false, true] {
            for i in 0..64 {
                let sq = Square::new(i);
                let r = a.square_rect(sq, flipped);
                assert_eq!(a.square_at(r.x, r.y, flipped), Some(sq));
                assert_eq!(
                    a.square_at(r.right() - 1, r.bottom() - 1, flipped),
                    Some(sq)
                );
            }
        }
        assert_eq!(a.square_at(0, 0, false), None);
    }

    #[test]
    fn graph_columns_map_to_plies() {
        let graph = Rect::new(50, 20, 41, 8);
        assert_eq!(graph_ply_at(graph, 80, 50, 21), Some(0));
        assert_eq!(graph_ply_at(graph, 80, 70, 25), Some(40));
        assert_eq!(graph_ply_at(graph, 80, 90, 27), Some(80));
        assert_eq!(graph_ply_at(graph, 80, 70, 20), None, "the title row");
        assert_eq!(graph_ply_at(graph, 80, 49, 25), None);
        assert_eq!(graph_ply_at(graph, 0, 70, 25), Some(0));
    }
}
