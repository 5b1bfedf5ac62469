//! The reference panel: book moves with their share of the weight.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use crate::tui::app::App;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let moves = app.book_moves();
    let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
    let pos = app.position();
    let text = moves
        .iter()
        .map(|m| {
            let share = (u32::from(m.weight) * 100).checked_div(total).unwrap_or(0);
            format!("{} {share}%", pos.san(m.mv))
        })
        .collect::<Vec<_>>()
        .join("  ");
    let block = Block::default().borders(Borders::TOP).title(" Book ");
    Paragraph::new(Line::raw(text))
        .wrap(Wrap { trim: true })
        .block(block)
        .render(area, buf);
}
