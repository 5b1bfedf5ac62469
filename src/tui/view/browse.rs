//! The game list of browse mode: a header with the file and the filter, one row per game
//! (White, Black, Result, Date, Event, Opening), bad games marked with their error.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::game::IndexEntry;
use crate::game::openings::Opening;
use crate::tui::app::App;
use crate::tui::library::Library;

/// Cuts `s` to `width` cells (ending in `…` when cut) and pads it.
fn cell(s: &str, width: usize) -> String {
    let count = s.chars().count();
    if count > width {
        let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
        out
    } else {
        format!("{s:width$}")
    }
}

/// Column widths for a list `width` cells wide: number, white, black, result, date, event,
/// opening.
fn columns(width: usize, number_w: usize) -> [usize; 7] {
    let fixed = number_w + 7 + 10 + 6;
    let flexible = width.saturating_sub(fixed);
    let player = (flexible / 5).max(6);
    let event = (flexible / 6).max(4);
    let opening = flexible.saturating_sub(2 * player + event).max(3);
    [number_w, player, player, 7, 10, event, opening]
}

/// The opening its moves reach (once the background check has read the game), else its ECO tag.
/// How a game of the list read: well, with a warning (`!`), or with an error (`✗`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Health {
    Good,
    Odd,
    Bad,
}

fn row(
    entry: &IndexEntry,
    opening: Option<&Opening>,
    widths: &[usize; 7],
    health: Health,
) -> String {
    let opening = opening.map_or_else(|| entry.eco().unwrap_or("").to_owned(), |o| o.to_string());
    let tag = |name| entry.tag(name).unwrap_or("?");
    let mark = match health {
        Health::Good => " ",
        Health::Odd => "!",
        Health::Bad => "✗",
    };
    let number = format!("{}{mark}", entry.number);
    let values = [
        number.as_str(),
        tag("White"),
        tag("Black"),
        tag("Result"),
        tag("Date"),
        tag("Event"),
        &opening,
    ];
    values
        .iter()
        .zip(widths)
        .map(|(v, &w)| cell(v, w))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(lib) = app.library() else {
        Paragraph::new("no PGN file open (o opens one)").render(area, buf);
        return;
    };
    let name = lib.path.display().to_string();
    let block = Block::default()
        .borders(Borders::TOP)
        .title(format!(" {name} "));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height < 3 {
        return;
    }
    let dim = Style::default().add_modifier(Modifier::DIM);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let width = inner.width as usize;
    let number_w = lib.index.len().to_string().len() + 1;
    let widths = columns(width, number_w);
    let mut lines = vec![header(lib), {
        let names = ["#", "White", "Black", "Result", "Date", "Event", "Opening"];
        let text = names
            .iter()
            .zip(&widths)
            .map(|(n, &w)| cell(n, w))
            .collect::<Vec<_>>()
            .join(" ");
        Line::styled(text, bold.add_modifier(Modifier::UNDERLINED))
    }];
    // One line for the selected game's error at the bottom.
    let rows = (inner.height as usize).saturating_sub(3);
    let first = lib.selected.saturating_sub(rows.saturating_sub(1));
    let highlight = if app.colors() {
        Style::default().bg(Tc::Rgb(60, 90, 160)).fg(Tc::White)
    } else {
        Style::default().add_modifier(Modifier::REVERSED)
    };
    let bad_style = if app.colors() {
        Style::default().fg(Tc::LightRed)
    } else {
        dim
    };
    for (k, &i) in lib.matches.iter().enumerate().skip(first).take(rows) {
        let Some(entry) = lib.entry(i) else { continue };
        let health = if lib.errors.contains_key(&entry.number) {
            Health::Bad
        } else if lib.warnings.contains_key(&entry.number) {
            Health::Odd
        } else {
            Health::Good
        };
        let style = match (k == lib.selected, health) {
            (true, _) => highlight,
            (false, Health::Bad) => bad_style,
            (false, _) => Style::default(),
        };
        let opening = lib.openings.get(&entry.number);
        lines.push(Line::styled(row(entry, opening, &widths, health), style));
    }
    if lib.matches.is_empty() {
        lines.push(Line::styled("no game matches the filter", dim));
    }
    Paragraph::new(lines).render(inner, buf);
    let selected = lib.selected_entry().map(|e| e.number);
    let error = match selected {
        Some(n) if lib.errors.contains_key(&n) => Line::from(vec![
            Span::styled("✗ ", bad_style),
            Span::raw(lib.errors[&n].clone()),
        ]),
        Some(n) if lib.warnings.contains_key(&n) => {
            Line::from(vec![Span::raw("! "), Span::raw(lib.warnings[&n].clone())])
        }
        _ => Line::raw(""),
    };
    let bottom = Rect::new(inner.x, inner.bottom() - 1, inner.width, 1);
    Paragraph::new(error).render(bottom, buf);
}

fn header(lib: &Library) -> Line<'static> {
    let total = lib.index.len();
    let shown = lib.matches.len();
    let checking = if lib.check_done {
        match lib.errors.len() {
            0 => "all games read without error".to_owned(),
            n => format!("{n} with errors (✗)"),
        }
    } else {
        format!("checking {}/{total}", lib.checked)
    };
    Line::from(vec![
        Span::styled("filter: ", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(lib.filter.clone()),
        Span::styled("█", Style::default()),
        Span::styled(
            format!("   {shown} of {total} games · {checking} · enter opens · esc back"),
            Style::default().add_modifier(Modifier::DIM),
        ),
    ])
}
