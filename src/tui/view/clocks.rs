//! The clocks of a timed game at the top of the side panels, as lichess puts them beside its
//! board: the clock of the side at the board's top above the other, in large digits where the
//! panel is tall enough, the running one marked, and red (bold and underlined without colours)
//! under 20 seconds.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tui, Modifier, Style};

use crate::chess::Color;
use crate::tui::app::App;
use crate::tui::clock::format_clock;

/// Under this much time a clock is drawn as running low.
pub const LOW_TIME: Duration = Duration::from_secs(20);

/// Side panels at least this tall get large digits (3 rows a clock, a blank row between).
const LARGE_FROM_HEIGHT: u16 = 30;
const LARGE_LINES: u16 = 7;

/// Rows of the clock panel for `app` in a side column `side_height` tall: none without clocks.
pub fn panel_lines(app: &App, side_height: u16) -> u16 {
    match app.clocks() {
        None => 0,
        Some(_) if large(app, side_height) => LARGE_LINES,
        Some(_) => 2,
    }
}

fn large(app: &App, side_height: u16) -> bool {
    side_height >= LARGE_FROM_HEIGHT && !app.config().ascii
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(clocks) = app.clocks() else {
        return;
    };
    let top = if app.board().flipped() {
        Color::White
    } else {
        Color::Black
    };
    let big = area.height >= LARGE_LINES;
    let rows = if big { 3 } else { 1 };
    for (i, color) in [top, !top].into_iter().enumerate() {
        let y = area.y + i as u16 * if big { rows + 1 } else { 1 };
        let left = clocks.remaining(color, app.now());
        let running = clocks.running() == Some(color);
        let mut style = Style::default();
        if left < LOW_TIME {
            style = if app.colors() {
                style.fg(Tui::Red).add_modifier(Modifier::BOLD)
            } else {
                style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            };
        }
        let who = match app.human() {
            Some(h) if h == color => "you",
            _ => "engine",
        };
        let label = format!(
            "{} {} {who}",
            if running { "▶" } else { " " },
            color.fold("White", "Black")
        );
        let text = format_clock(left);
        let label_style = if running {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        if big {
            let width = draw_large(&text, area.x, y, area.right(), style, buf);
            let x = area.x + width + 1;
            if x < area.right() {
                let room = usize::from(area.right() - x);
                buf.set_stringn(x, y + 1, &label, room, label_style);
            }
        } else {
            let end = buf
                .set_stringn(area.x, y, &text, usize::from(area.width), style)
                .0;
            if end + 1 < area.right() {
                let room = usize::from(area.right() - end - 1);
                buf.set_stringn(end + 1, y, &label, room, label_style);
            }
        }
    }
}

/// Three rows of each character of a clock's text (digits, ':' and '.'), in box-drawing lines.
fn large_glyph(c: char) -> [&'static str; 3] {
    match c {
        '0' => ["┏━┓", "┃ ┃", "┗━┛"],
        '1' => ["  ╻", "  ┃", "  ╹"],
        '2' => ["╺━┓", "┏━┛", "┗━╸"],
        '3' => ["╺━┓", " ━┫", "╺━┛"],
        '4' => ["╻ ╻", "┗━┫", "  ╹"],
        '5' => ["┏━╸", "┗━┓", "╺━┛"],
        '6' => ["┏━╸", "┣━┓", "┗━┛"],
        '7' => ["╺━┓", "  ┃", "  ╹"],
        '8' => ["┏━┓", "┣━┫", "┗━┛"],
        '9' => ["┏━┓", "┗━┫", "╺━┛"],
        ':' => ["╻", " ", "╹"],
        _ => [" ", " ", "▪"],
    }
}

/// Draws `text` in large characters from (`x`, `y`), a column apart, stopping before `right`;
/// returns the width drawn.
fn draw_large(text: &str, x: u16, y: u16, right: u16, style: Style, buf: &mut Buffer) -> u16 {
    let mut at = x;
    for c in text.chars() {
        let glyph = large_glyph(c);
        let w = glyph[0].chars().count() as u16;
        if at + w > right {
            break;
        }
        for (row, line) in glyph.iter().enumerate() {
            buf.set_string(at, y + row as u16, line, style);
        }
        at += w + 1;
    }
    at.saturating_sub(x + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_of_a_clock_has_a_large_glyph_of_even_rows() {
        for c in "0123456789:.".chars() {
            let g = large_glyph(c);
            let w = g[0].chars().count();
            assert!(g.iter().all(|row| row.chars().count() == w), "{c}");
        }
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 3));
        let width = draw_large("4:59", 0, 0, 20, Style::default(), &mut buf);
        // Three digits of 3 columns, a colon of 1, a column between each.
        assert_eq!(width, 3 * 3 + 1 + 3);
        let row = |y| (0..20).map(|x| buf[(x, y)].symbol()).collect::<String>();
        assert_eq!(row(1).trim_end(), "┗━┫   ┗━┓ ┗━┫");
        assert_eq!(row(2).trim_end(), "  ╹ ╹ ╺━┛ ╺━┛");
    }
}
