//! The explorer panel: the moves played from the shown position in the open database, with
//! their games, results and the players' average rating, and the book's share beside them so a
//! repertoire and the book can be compared.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::db::Tally;
use crate::tui::app::App;
use crate::tui::explorer::Scope;

use super::engine::si;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let panel = &app.explorer();
    let pos = app.position();
    let dim = Style::default().add_modifier(Modifier::DIM);
    let mut title = format!(" Explorer: {} ", panel.name());
    if let Scope::Mine(color) = panel.scope() {
        let name = app.config().database_player.as_deref().unwrap_or("?");
        title.push_str(&format!("({name} as {}) ", color.fold("White", "Black")));
    }
    if panel.focused() {
        title.push_str("· enter play · g games · m mine · tab back ");
    }
    let mut lines = Vec::new();
    match (panel.report_for(pos), panel.error_for(pos)) {
        (_, Some(why)) => lines.push(Line::styled(why.to_owned(), dim)),
        (None, None) if panel.games().is_none() => {
            lines.push(Line::styled("opening the database...", dim))
        }
        (None, None) => lines.push(Line::styled("searching the games...", dim)),
        (Some(report), None) if report.total.games == 0 => {
            lines.push(Line::styled("no game reached this position", dim))
        }
        (Some(report), None) => {
            let mut summary = format!("{} games {}", report.total.games, results(&report.total));
            if let Some(r) = report.total.average_rating {
                summary.push_str(&format!("  avg {r}"));
            }
            if report.ended.games > 0 {
                summary.push_str(&format!("  ({} ended here)", report.ended.games));
            }
            lines.push(Line::styled(summary, dim));
            let book = app.book_moves();
            let book_total: u32 = book.iter().map(|m| u32::from(m.weight)).sum();
            // The book's share of each move (when the book knows the position), so where a
            // repertoire and the book part is in sight.
            let book_share = |uci: &str| -> String {
                if book_total == 0 {
                    return String::new();
                }
                match book.iter().find(|b| pos.uci(b.mv) == uci) {
                    Some(b) => format!(" book {}%", u32::from(b.weight) * 100 / book_total),
                    None => " not in book".to_owned(),
                }
            };
            let width = usize::from(area.width);
            for (i, row) in report.moves.iter().enumerate() {
                let share = row.tally.games * 100 / report.total.games.max(1);
                let number = if panel.focused() && i < 9 {
                    format!("{} ", i + 1)
                } else {
                    "  ".to_owned()
                };
                let mut text = format!(
                    "{number}{:<6}{:>5} {share:>2}% {}",
                    row.san,
                    si(row.tally.games),
                    results(&row.tally),
                );
                // Rating, then the book's share, where the panel is wide enough.
                let avg = row
                    .tally
                    .average_rating
                    .map_or_else(|| "     ".to_owned(), |r| format!(" {r:>4}"));
                if text.chars().count() + avg.len() <= width {
                    text.push_str(&avg);
                    let book = book_share(&row.uci);
                    if text.chars().count() + book.len() <= width {
                        text.push_str(&book);
                    }
                }
                let style = if panel.focused() && i == panel.selected() {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default()
                };
                lines.push(Line::from(Span::styled(text, style)));
            }
        }
    }
    // Keep the chosen row in sight when the moves do not all fit.
    let rows = usize::from(area.height.saturating_sub(1));
    let skip = if lines.len() > rows && panel.focused() {
        (panel.selected() + 2).saturating_sub(rows)
    } else {
        0
    };
    let mut shown: Vec<Line> = lines.iter().take(1).cloned().collect();
    shown.extend(lines.into_iter().skip(1 + skip));
    let block = Block::default().borders(Borders::TOP).title(title);
    Paragraph::new(shown).block(block).render(area, buf);
}

/// "W38 D31 B31": White's wins, draws and Black's wins in percent of the games with a result.
fn results(tally: &Tally) -> String {
    let decided = tally.white + tally.draws + tally.black;
    if decided == 0 {
        return "no results ".into();
    }
    let pct = |n: u64| (n * 100 + decided / 2) / decided;
    format!(
        "W{:>2} D{:>2} B{:>2}",
        pct(tally.white),
        pct(tally.draws),
        pct(tally.black)
    )
}
