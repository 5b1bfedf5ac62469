//! The material line under the board, as lichess shows it: each side's pieces beyond the
//! other's, and the points it is ahead.

use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};

use crate::chess::{Color, Piece, Position, Role};
use crate::tui::app::{App, Mode};
use crate::tui::layout::Areas;

use super::board::glyph;

/// Queen first, pawns last; and the usual points of each.
const ROLES: [(Role, i32); 5] = [
    (Role::Queen, 9),
    (Role::Rook, 5),
    (Role::Bishop, 3),
    (Role::Knight, 3),
    (Role::Pawn, 1),
];

/// For White and for Black: the pieces it has beyond the other's, and the points it is ahead
/// (0 for the side behind or level).
pub fn imbalance(pos: &Position) -> [(Vec<Role>, i32); 2] {
    let mut sides = [(Vec::new(), 0), (Vec::new(), 0)];
    let mut points = 0;
    for (role, value) in ROLES {
        let white = pos.pieces(Color::White, role).count() as i32;
        let black = pos.pieces(Color::Black, role).count() as i32;
        let side = usize::from(white < black);
        for _ in 0..(white - black).abs() {
            sides[side].0.push(role);
        }
        points += (white - black) * value;
    }
    sides[0].1 = points.max(0);
    sides[1].1 = (-points).max(0);
    sides
}

/// The text of the line: "White ♕♙ +10", "Black ♝", both when both have extra pieces; empty
/// when the material is level.
pub fn text(pos: &Position, ascii: bool) -> String {
    let mut parts = Vec::new();
    for (color, (roles, ahead)) in [Color::White, Color::Black].into_iter().zip(imbalance(pos)) {
        if roles.is_empty() {
            continue;
        }
        let pieces: String = roles
            .iter()
            .map(|&role| glyph(Piece { color, role }, ascii, false))
            .collect();
        let mut part = format!("{} {pieces}", color.fold("White", "Black"));
        if ahead > 0 {
            part.push_str(&format!(" +{ahead}"));
        }
        parts.push(part);
    }
    parts.join("   ")
}

/// Draws the line in the first free row under the board (and its coordinates), if any.
pub fn render(app: &App, areas: &Areas, buf: &mut Buffer) {
    if matches!(app.mode(), Mode::Setup(_)) {
        return;
    }
    let y = areas.board.bottom() + u16::from(app.config().coordinates);
    if y >= areas.status.y {
        return;
    }
    let text = text(app.position(), app.config().ascii);
    let width = areas.side.x.saturating_sub(areas.board.x);
    let style = Style::default().add_modifier(Modifier::BOLD);
    buf.set_stringn(areas.board.x, y, text, usize::from(width), style);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_shows_its_extra_pieces_and_the_leader_its_points() {
        let level = Position::startpos();
        assert_eq!(text(&level, false), "");
        // White has a queen for a rook and a pawn more; Black a bishop for a knight.
        let pos = Position::from_fen("1r2k1b1/pp6/8/8/8/8/PPP5/2Q1K1N1 w - - 0 1").unwrap();
        let [(white, w), (black, b)] = imbalance(&pos);
        assert_eq!(white, [Role::Queen, Role::Knight, Role::Pawn]);
        assert_eq!(black, [Role::Rook, Role::Bishop]);
        assert_eq!((w, b), (5, 0));
        assert_eq!(text(&pos, false), "White ♕♘♙ +5   Black ♜♝");
        assert_eq!(text(&pos, true), "White QNP +5   Black rb");
    }
}
