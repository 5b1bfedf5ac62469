//! The move list: numbered SAN, judgement glyphs, the current move highlighted, scrolled to it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::tui::app::App;
use crate::tui::review::judge_move;

/// Lays the moves out in lines of at most `width` cells; returns the lines and the line of the
/// current move.
pub fn lines(app: &App, width: u16) -> (Vec<Line<'static>>, usize) {
    let game = &app.game;
    let current = game.cursor().checked_sub(1);
    let mut out: Vec<Line> = Vec::new();
    let mut line: Vec<Span> = Vec::new();
    let mut used = 0usize;
    let mut current_line = 0;
    let highlight = if app.colors {
        Style::default()
            .bg(Tc::Rgb(60, 90, 160))
            .fg(Tc::White)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::default().add_modifier(Modifier::REVERSED)
    };
    for (i, san) in game.sans().iter().enumerate() {
        let (number, turn) = game.move_number(i);
        let mut word = Vec::new();
        if turn == crate::chess::Color::White {
            word.push(Span::styled(
                format!("{number}."),
                Style::default().add_modifier(Modifier::DIM),
            ));
        } else if i == 0 {
            word.push(Span::styled(
                format!("{number}..."),
                Style::default().add_modifier(Modifier::DIM),
            ));
        }
        let glyph = judge_move(game, i).map_or("", |j| j.glyph());
        let style = if Some(i) == current {
            highlight
        } else {
            Style::default()
        };
        word.push(Span::styled(format!("{san}{glyph}"), style));
        let w: usize = word
            .iter()
            .map(|s| s.content.chars().count())
            .sum::<usize>()
            + word.len()
            - 1;
        if used > 0 && used + 1 + w > width as usize {
            out.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        for (k, s) in word.into_iter().enumerate() {
            if used > 0 || k > 0 {
                line.push(Span::raw(" "));
                used += 1;
            }
            used += s.content.chars().count();
            line.push(s);
        }
        if Some(i) == current {
            current_line = out.len();
        }
    }
    if let Some(end) = game.end() {
        if used > 0 {
            line.push(Span::raw(" "));
        }
        line.push(Span::styled(
            end.result(),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    if !line.is_empty() {
        out.push(Line::from(line));
    }
    (out, current_line)
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let block = Block::default().borders(Borders::TOP).title(" Moves ");
    let inner = block.inner(area);
    block.render(area, buf);
    let (lines, current) = lines(app, inner.width);
    // Keep the current move in view, near the bottom when the list is long.
    let height = inner.height as usize;
    let scroll = (current + 1)
        .saturating_sub(height)
        .min(lines.len().saturating_sub(height));
    let text = if lines.is_empty() {
        vec![Line::styled(
            "no moves yet",
            Style::default().add_modifier(Modifier::DIM),
        )]
    } else {
        lines
    };
    Paragraph::new(text)
        .scroll((scroll as u16, 0))
        .render(inner, buf);
}
