//! The board: squares, pieces, coordinates and highlights.

use ratatui::buffer::Buffer;
use ratatui::style::{Color as Tc, Modifier, Style};

use crate::chess::{Color, File, Move, Piece, Rank, Square};

use crate::tui::app::{App, Mode};
use crate::tui::game::king_target;
use crate::tui::layout::Areas;

fn rgb((r, g, b): crate::tui::theme::Rgb) -> Tc {
    Tc::Rgb(r, g, b)
}

/// How a piece is drawn: filled glyphs coloured by side, outline/filled without colour, or letters.
pub fn glyph(piece: Piece, ascii: bool, colors: bool) -> char {
    if ascii {
        return piece.char();
    }
    let filled = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let outline = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let i = piece.role.index();
    if colors || piece.color == Color::Black {
        filled[i]
    } else {
        outline[i]
    }
}

pub fn render(app: &App, areas: &Areas, buf: &mut Buffer) {
    // Stepping through the engine's line shows the position before its move at the cursor.
    let preview = app.pv_preview();
    let pos = preview.as_ref().map_or(app.position(), |(p, ..)| p);
    let setup = match app.mode() {
        Mode::Setup(s) => Some(s),
        _ => None,
    };
    let pieces = |sq: Square| setup.map_or_else(|| pos.piece_at(sq), |s| s.piece_at(sq));
    let (cursor, selected) = setup.map_or((app.board().cursor(), app.board().selected()), |s| {
        (s.cursor, None)
    });
    let game_last = app.game().last_move().map(|(m, _)| m);
    let last = preview
        .as_ref()
        .map_or(game_last, |&(_, _, before)| before.or(game_last));
    // The line's move at the cursor; the player's hint; or the engine's best move where its
    // lines may be shown.
    let suggested = preview
        .as_ref()
        .map(|&(_, m, _)| m)
        .or(app.hint())
        .or_else(|| app.engine_best_move());
    // The suggested move drawn as a path of arrows over the empty squares it crosses and lands
    // on, so that it reads as a move and not as two unrelated squares.
    let path = suggested.map_or_else(Vec::new, |m| {
        arrow_path(m, app.board().flipped(), app.config().ascii)
    });
    let dests = app.destinations();
    let check =
        (pos.in_check() && !matches!(app.mode(), Mode::Setup(_))).then(|| pos.king(pos.turn()));
    for i in 0..64 {
        let sq = Square::new(i);
        let rect = areas.square_rect(sq, app.board().flipped());
        let light = (sq.file().index() + sq.rank().index()) % 2 == 1;
        let is_last = last.is_some_and(|m| m.from() == sq || king_target(m) == sq);
        let is_hint = suggested.is_some_and(|m| m.from() == sq || king_target(m) == sq);
        let is_dest = dests.iter().any(|&m| m.to() == sq || king_target(m) == sq);
        let mut style = Style::default();
        // The square's colour, on which marks are inked.
        let mut square_bg = None;
        if app.colors() {
            let t = app.config().theme;
            let bg = if Some(sq) == selected {
                t.selected
            } else if check == Some(sq) {
                t.check
            } else if is_hint {
                t.hint
            } else if is_last {
                if light { t.last_light } else { t.last_dark }
            } else if light {
                t.light
            } else {
                t.dark
            };
            style = style.bg(rgb(bg));
            square_bg = Some(bg);
        } else if Some(sq) == selected || check == Some(sq) {
            // Without colour (NO_COLOR): the selection and a king in check reversed and bold,
            // the last move reversed, the hint or best move underlined.
            style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        } else if is_last {
            style = style.add_modifier(Modifier::REVERSED);
        } else if is_hint {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        buf.set_style(rect, style);
        if !app.colors() && !light && rect.width >= 3 {
            // Mark dark squares without colour.
            buf[(rect.x, rect.y)].set_char('·');
        }
        let mid = (rect.x + rect.width / 2, rect.y + rect.height / 2);
        if let Some(p) = pieces(sq) {
            let mut ps = Style::default().add_modifier(Modifier::BOLD);
            if app.colors() {
                let t = app.config().theme;
                let ink = p.color.fold(t.white_piece, t.black_piece);
                ps = ps.fg(rgb(ink));
                if let Some(plate) = t.plate(ink) {
                    ps = ps.bg(rgb(plate));
                }
            }
            let art = app.colors()
                && !app.config().ascii
                && app.config().piece_art
                && super::pieces::draw(p.role, rect, ps, buf);
            if !art {
                buf[mid]
                    .set_char(glyph(p, app.config().ascii, app.colors()))
                    .set_style(ps);
            }
            if is_dest {
                // A capture target: corner marks.
                buf[(rect.x, rect.y)]
                    .set_char('◣')
                    .set_style(mark_style(app, square_bg));
                if rect.width > 2 {
                    buf[(rect.right() - 1, rect.y)]
                        .set_char('◢')
                        .set_style(mark_style(app, square_bg));
                }
            }
        } else if is_dest {
            buf[mid]
                .set_char(if app.config().ascii { '*' } else { '●' })
                .set_style(mark_style(app, square_bg));
        } else if let Some(&(_, arrow)) = path.iter().find(|(p, _)| *p == sq) {
            // Black or white by the square: the hint's own colour is a square colour, close
            // to the squares' own in every theme.
            let style = square_bg.map_or_else(Style::default, |bg| {
                Style::default().fg(rgb(crate::tui::theme::ink(bg)))
            });
            buf[mid]
                .set_char(arrow)
                .set_style(style.add_modifier(Modifier::BOLD));
        }
        if sq == cursor {
            let cs = if let Some(bg) = square_bg.filter(|_| app.config().theme.plates) {
                Style::default()
                    .fg(rgb(app.config().theme.mark(bg)))
                    .add_modifier(Modifier::BOLD)
            } else if app.colors() {
                Style::default()
                    .fg(Tc::Rgb(30, 60, 200))
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().add_modifier(Modifier::BOLD)
            };
            buf[(rect.x, mid.1)].set_char('[').set_style(cs);
            if rect.width > 1 {
                buf[(rect.right() - 1, mid.1)].set_char(']').set_style(cs);
            }
        }
    }
    if app.config().coordinates {
        coordinates(app, areas, buf);
    }
}

/// The squares a move crosses and lands on, each with an arrow pointing the way it goes on the
/// screen (`flipped`: Black at the bottom): a slider's line, a knight's long leg then its
/// landing square, a king's castling walk. ASCII symbols for `ascii` terminals.
pub fn arrow_path(m: Move, flipped: bool, ascii: bool) -> Vec<(Square, char)> {
    let (from, to) = (m.from(), king_target(m));
    let coords = |sq: Square| (sq.file().index() as i32, sq.rank().index() as i32);
    let ((f0, r0), (f1, r1)) = (coords(from), coords(to));
    let (df, dr) = (f1 - f0, r1 - r0);
    // A knight goes along its long leg first, then across.
    let corner = match (df.abs(), dr.abs()) {
        (1, 2) => Some((f0, r1)),
        (2, 1) => Some((f1, r0)),
        _ => None,
    };
    let mut squares = Vec::new();
    let mut at = (f0, r0);
    for target in corner.into_iter().chain([(f1, r1)]) {
        while at != target {
            let step = ((target.0 - at.0).signum(), (target.1 - at.1).signum());
            at = (at.0 + step.0, at.1 + step.1);
            squares.push((at, step));
        }
    }
    squares
        .into_iter()
        .map(|((f, r), (sf, sr))| {
            let square = Square::from_coords(File::new(f as u32), Rank::new(r as u32));
            let (sf, sr) = if flipped { (-sf, -sr) } else { (sf, sr) };
            (square, arrow(sf, sr, ascii))
        })
        .collect()
}

/// The arrow for a step of (`file`, `rank`) on the screen, up being towards the top row.
fn arrow(file: i32, rank: i32, ascii: bool) -> char {
    let arrows = if ascii {
        ['^', 'v', '>', '<', '/', '\\', '\\', '/']
    } else {
        ['↑', '↓', '→', '←', '↗', '↖', '↘', '↙']
    };
    match (file, rank) {
        (0, 1) => arrows[0],
        (0, -1) => arrows[1],
        (1, 0) => arrows[2],
        (-1, 0) => arrows[3],
        (1, 1) => arrows[4],
        (-1, 1) => arrows[5],
        (1, -1) => arrows[6],
        _ => arrows[7],
    }
}

/// How the squares a selected piece can go to are marked on a square of colour `square`.
fn mark_style(app: &App, square: Option<crate::tui::theme::Rgb>) -> Style {
    match square {
        Some(bg) => Style::default().fg(rgb(app.config().theme.mark(bg))),
        None => Style::default().add_modifier(Modifier::BOLD),
    }
}

fn coordinates(app: &App, areas: &Areas, buf: &mut Buffer) {
    let style = Style::default().add_modifier(Modifier::DIM);
    let b = areas.board;
    for i in 0..8u32 {
        let file_sq = Square::from_coords(crate::chess::File::new(i), crate::chess::Rank::new(0));
        let r = areas.square_rect(file_sq, app.board().flipped());
        if b.bottom() < buf.area.bottom() {
            buf[(r.x + r.width / 2, b.bottom())]
                .set_char(file_sq.file().char())
                .set_style(style);
        }
        let rank_sq = Square::from_coords(crate::chess::File::new(0), crate::chess::Rank::new(i));
        let r = areas.square_rect(rank_sq, app.board().flipped());
        if b.x >= 2 {
            buf[(b.x - 2, r.y + r.height / 2)]
                .set_char(char::from(b'1' + i as u8))
                .set_style(style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    fn path(fen: &str, uci: &str, flipped: bool) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        arrow_path(m, flipped, false)
            .into_iter()
            .map(|(sq, arrow)| format!("{sq}{arrow}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn moves_are_drawn_as_arrows_over_the_squares_they_cross() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(path(start, "e2e4", false), "e3↑ e4↑");
        assert_eq!(path(start, "e2e4", true), "e3↓ e4↓");
        // A knight: the long leg, then across.
        assert_eq!(path(start, "g1f3", false), "g2↑ g3↑ f3←");
        let bishop = "4k3/8/8/8/8/8/8/B3K3 w - - 0 1";
        assert_eq!(path(bishop, "a1h8", false), "b2↗ c3↗ d4↗ e5↗ f6↗ g7↗ h8↗");
        // Castling walks the king to its square, not to the rook.
        let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(path(castles, "e1g1", false), "f1→ g1→");
    }
}
