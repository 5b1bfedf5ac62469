//! Pieces drawn as block art, several cells tall, on squares with room for them.
//!
//! Each sprite is a bitmap of pixels two to a cell, one above the other, so a cell shows
//! `█`, `▀`, `▄` or nothing: the piece's colour on the square's.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::chess::Role;

/// One size of sprites: pawn, knight, bishop, rook, queen, king, each `rows` of equal width.
struct Sprites {
    width: u16,
    /// Pixel rows; twice the cells they take.
    rows: [&'static [&'static str]; 6],
}

const SMALL: Sprites = Sprites {
    width: 5,
    rows: [
        &[".....", "..#..", ".###.", "..#..", ".###.", "....."],
        &["..##.", ".####", "##.##", "..###", ".####", "....."],
        &["..#..", ".#.#.", ".###.", "..#..", ".###.", "....."],
        &["#.#.#", "#####", ".###.", ".###.", "#####", "....."],
        &["#.#.#", ".#.#.", ".###.", "..#..", ".###.", "....."],
        &["..#..", ".###.", "..#..", "#####", ".###.", "....."],
    ],
};

const MEDIUM: Sprites = Sprites {
    width: 7,
    rows: [
        &[
            ".......", "..###..", "..###..", "...#...", "..###..", ".#####.", ".#####.", ".......",
        ],
        &[
            "...#.#.", "..#####", ".##.###", "#######", "#..####", "...####", ".######", ".......",
        ],
        &[
            "...#...", "..###..", ".##.##.", ".#####.", "..###..", "...#...", ".#####.", ".......",
        ],
        &[
            "#.#.#.#", "#######", ".#####.", ".#####.", ".#####.", "#######", "#######", ".......",
        ],
        &[
            "#..#..#", "#.###.#", "#######", ".#####.", "..###..", ".#####.", "#######", ".......",
        ],
        &[
            "...#...", "..###..", "#..#..#", "#######", ".#####.", "..###..", ".#####.", ".......",
        ],
    ],
};

const LARGE: Sprites = Sprites {
    width: 9,
    rows: [
        &[
            ".........",
            ".........",
            "...###...",
            "...###...",
            "....#....",
            "...###...",
            "...###...",
            "..#####..",
            ".#######.",
            ".........",
        ],
        &[
            ".........",
            "....#.#..",
            "...#####.",
            "..##.####",
            ".########",
            ".##..####",
            ".....####",
            "....#####",
            "..#######",
            ".........",
        ],
        &[
            "....#....",
            "...###...",
            "..##.##..",
            "..#.###..",
            "..#####..",
            "...###...",
            "....#....",
            "..#####..",
            ".#######.",
            ".........",
        ],
        &[
            ".........",
            ".##.#.##.",
            ".#######.",
            "..#####..",
            "..#####..",
            "..#####..",
            "..#####..",
            ".#######.",
            ".#######.",
            ".........",
        ],
        &[
            ".#..#..#.",
            ".#.###.#.",
            ".#######.",
            "..#####..",
            "..#####..",
            "...###...",
            "..#####..",
            ".#######.",
            ".#######.",
            ".........",
        ],
        &[
            "....#....",
            "...###...",
            "....#....",
            ".##.#.##.",
            "#########",
            ".#######.",
            "..#####..",
            "..#####..",
            ".#######.",
            ".........",
        ],
    ],
};

/// The sprites that fit a square of `width` x `height` cells with a column free on each side
/// (for the cursor's brackets), or `None` where one glyph is all there is room for.
fn sprites_for(width: u16, height: u16) -> Option<&'static Sprites> {
    [&LARGE, &MEDIUM, &SMALL].into_iter().find(|s| {
        let cells = s.rows[0].len() as u16 / 2;
        s.width + 2 <= width && cells <= height
    })
}

/// Draws `role` centred in `square` in `style`'s foreground, leaving empty pixels to the
/// square's background. Returns false (drawing nothing) where the square is too small.
pub fn draw(role: Role, square: Rect, style: Style, buf: &mut Buffer) -> bool {
    let Some(sprites) = sprites_for(square.width, square.height) else {
        return false;
    };
    let rows = sprites.rows[role.index()];
    let cells = rows.len() as u16 / 2;
    let x0 = square.x + (square.width - sprites.width) / 2;
    // Bottom-aligned, as pieces stand on their square, with any spare row above.
    let y0 = square.y + square.height - cells - u16::from(square.height > cells + 1);
    for cy in 0..cells {
        let (top, bottom) = (
            rows[usize::from(2 * cy)].as_bytes(),
            rows[usize::from(2 * cy + 1)].as_bytes(),
        );
        for cx in 0..sprites.width {
            let i = usize::from(cx);
            let ch = match (top[i] == b'#', bottom[i] == b'#') {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => continue,
            };
            buf[(x0 + cx, y0 + cy)].set_char(ch).set_style(style);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sprite_is_a_full_rectangle_of_pixels() {
        for s in [&SMALL, &MEDIUM, &LARGE] {
            let height = s.rows[0].len();
            assert_eq!(height % 2, 0);
            for rows in s.rows {
                assert_eq!(rows.len(), height);
                for row in rows {
                    assert_eq!(row.len(), usize::from(s.width), "{row}");
                    assert!(row.bytes().all(|b| b == b'#' || b == b'.'));
                }
            }
        }
    }

    #[test]
    fn art_needs_room_and_grows_with_the_square() {
        // The layout's square sizes, smallest first.
        assert!(sprites_for(3, 1).is_none());
        assert!(sprites_for(5, 2).is_none());
        let widths: Vec<u16> = [(7, 3), (9, 4), (11, 5), (13, 6)]
            .into_iter()
            .map(|(w, h)| sprites_for(w, h).expect("art fits").width)
            .collect();
        assert_eq!(widths, [5, 7, 9, 9]);
    }

    #[test]
    fn a_drawn_piece_covers_several_rows_and_keeps_the_side_columns_free() {
        let square = Rect::new(0, 0, 11, 5);
        let mut buf = Buffer::empty(square);
        assert!(draw(Role::Queen, square, Style::default(), &mut buf));
        let filled = |x: u16, y: u16| buf[(x, y)].symbol() != " ";
        let rows = (0..5).filter(|&y| (0..11).any(|x| filled(x, y))).count();
        assert!(rows >= 4, "{rows} rows drawn");
        assert!((0..5).all(|y| !filled(0, y) && !filled(10, y)));
    }
}
