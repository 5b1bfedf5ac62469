//! The evaluation bar beside the board: White's share from the bottom (top when flipped).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Style};

use crate::game::Score;

/// White's expected share, 0..=1, from a White's-view score.
pub fn white_share(score: Score) -> f64 {
    match score {
        Score::Mate(n) => {
            if n >= 0 {
                1.0
            } else {
                0.0
            }
        }
        Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
    }
}

pub fn render(score: Option<Score>, flipped: bool, colors: bool, area: Rect, buf: &mut Buffer) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let share = score.map_or(0.5, white_share);
    let white_cells = (share * f64::from(area.height)).round() as u16;
    for row in 0..area.height {
        // Rows counted from White's side of the board.
        let from_white = if flipped { row } else { area.height - 1 - row };
        let white = from_white < white_cells;
        let cell = &mut buf[(area.x, area.y + row)];
        if colors {
            cell.set_char(' ').set_style(Style::default().bg(if white {
                Tc::Rgb(235, 235, 235)
            } else {
                Tc::Rgb(50, 50, 50)
            }));
        } else {
            cell.set_char(if white { '█' } else { '░' });
        }
    }
}
