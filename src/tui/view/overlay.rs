//! Dialogs drawn over the board: help, quit confirmation, resume, new game, promotion, the
//! database's games of a position.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::engines::service::MAX_LEVEL;
use crate::tui::app::{App, DialogField, Overlay, Severity};
use crate::tui::clock::PRESETS;
use crate::tui::help;

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

pub fn render(app: &App, overlay: &Overlay, area: Rect, buf: &mut Buffer) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let (title, lines, w): (&str, Vec<Line>, u16) = match overlay {
        Overlay::Help { scroll } => {
            let all = help::lines(app);
            // Borders and the footer take four rows; the rest shows a window of the text.
            let rows = usize::from(area.height.saturating_sub(4)).max(1);
            let first = (*scroll).min(all.len().saturating_sub(rows));
            let shown = all.iter().skip(first).take(rows);
            let mut lines: Vec<Line> = shown
                .enumerate()
                .map(|(i, l)| {
                    let heading = !l.starts_with(' ')
                        && !l.is_empty()
                        && (first + i == 0 || l.starts_with("Commands"));
                    if heading {
                        Line::styled(l.clone(), bold)
                    } else {
                        Line::raw(l.clone())
                    }
                })
                .collect();
            let last = (first + rows).min(all.len());
            lines.push(Line::styled(
                format!(
                    "lines {}-{last} of {}: up/down/pgup/pgdn scroll, any other key closes",
                    first + 1,
                    all.len()
                ),
                Style::default().add_modifier(Modifier::DIM),
            ));
            ("Help", lines, area.width.min(84))
        }
        Overlay::Messages { scroll } => {
            let all = app
                .messages()
                .lines(crate::tui::dialog::log_width(area.width));
            let rows = usize::from(area.height.saturating_sub(4)).max(1);
            let first = (*scroll).min(all.len().saturating_sub(rows));
            let mut lines: Vec<Line> = all
                .iter()
                .skip(first)
                .take(rows)
                .map(|(severity, text)| match severity {
                    Severity::Error => Line::styled(text.clone(), bold),
                    Severity::Info => Line::raw(text.clone()),
                })
                .collect();
            if all.is_empty() {
                lines.push(Line::raw("no messages yet"));
            }
            let last = (first + rows).min(all.len());
            lines.push(Line::styled(
                format!(
                    "lines {}-{last} of {}: up/down/pgup/pgdn scroll, any other key closes",
                    (first + 1).min(last),
                    all.len()
                ),
                Style::default().add_modifier(Modifier::DIM),
            ));
            ("Messages", lines, area.width.min(100))
        }
        Overlay::ConfirmQuit => (
            "Quit",
            vec![
                Line::raw("The game is not saved. Save it as PGN before quitting?"),
                Line::raw(match (app.game().origin(), app.human()) {
                    (Some(o), _) => format!(
                        "(written back as game {} of {})",
                        o.number,
                        o.path.display()
                    ),
                    (None, Some(_)) => {
                        "(appended to the games file; offered to resume next time)".to_owned()
                    }
                    (None, None) => "(appended to the games file)".to_owned(),
                }),
                Line::raw(""),
                Line::styled(
                    "y: save and quit   n: quit and discard it   esc: stay",
                    bold,
                ),
            ],
            60,
        ),
        Overlay::Confirm(action) => {
            let (question, answers) =
                action.question(app.human().is_some(), app.game().origin().is_some());
            (
                "Confirm",
                vec![
                    Line::raw(question),
                    Line::raw(""),
                    Line::styled(answers, bold),
                ],
                66,
            )
        }
        Overlay::Resume(saved) => (
            "Resume",
            vec![
                Line::raw(format!(
                    "An unfinished {} from last time ({} moves{}) was kept.",
                    if saved.human.is_some() {
                        "game"
                    } else {
                        "analysis"
                    },
                    saved.moves.len(),
                    if saved
                        .pgn
                        .as_deref()
                        .is_some_and(|p| p.contains('(') || p.contains('{'))
                    {
                        ", with variations or comments"
                    } else {
                        ""
                    }
                )),
                Line::raw(""),
                Line::styled("y/enter: resume   n/esc: discard it", bold),
            ],
            60,
        ),
        Overlay::NewGame(d) => {
            let mark = |f: DialogField| if d.field == f { "▶ " } else { "  " };
            let mut lines = Vec::new();
            if d.welcome {
                lines.extend([
                    Line::styled(
                        "Welcome to kibitzer. Choose your first game against the engine;",
                        Style::default().add_modifier(Modifier::BOLD),
                    ),
                    Line::raw("these choices are kept for the next start (n: another game)."),
                    Line::raw(""),
                ]);
            }
            lines.extend([
                Line::raw(format!(
                    "{}You play   ◀ {} ▶",
                    mark(DialogField::Color),
                    d.color.fold("White", "Black")
                )),
                Line::raw(format!(
                    "{}Time       ◀ {} ▶",
                    mark(DialogField::Time),
                    PRESETS[d.preset]
                )),
                Line::raw(format!(
                    "{}Level      ◀ {} ▶  (1-{MAX_LEVEL})",
                    mark(DialogField::Level),
                    d.level
                )),
                Line::raw(format!(
                    "{}Book       ◀ {} ▶",
                    mark(DialogField::Book),
                    d.book.name()
                )),
                Line::raw(format!(
                    "{}Start      ◀ {} ▶",
                    mark(DialogField::Start),
                    if d.chess960 {
                        "Chess960 (random)"
                    } else {
                        "standard"
                    }
                )),
                Line::raw(""),
                Line::styled(
                    "up/down: field  left/right: change  enter: start  esc: cancel",
                    Style::default().add_modifier(Modifier::DIM),
                ),
                Line::styled(
                    "custom time control: :play 7+2 level 12 black",
                    Style::default().add_modifier(Modifier::DIM),
                ),
            ]);
            let title = if d.welcome { "Welcome" } else { "New game" };
            (title, lines, 66)
        }
        Overlay::DbGames(list) => {
            let rows = usize::from(area.height.saturating_sub(5)).max(1);
            let first = list.selected.saturating_sub(rows - 1);
            let mut lines: Vec<Line> = list
                .games
                .iter()
                .enumerate()
                .skip(first)
                .take(rows)
                .map(|(i, g)| {
                    let text = g.to_string();
                    if i == list.selected {
                        Line::styled(format!("▶ {text}"), bold)
                    } else {
                        Line::raw(format!("  {text}"))
                    }
                })
                .collect();
            lines.push(Line::styled(
                format!(
                    "{} of {} games: up/down choose, enter opens it here, esc closes",
                    list.selected + 1,
                    list.games.len()
                ),
                Style::default().add_modifier(Modifier::DIM),
            ));
            ("Games reaching this position", lines, area.width.min(100))
        }
        Overlay::Promotion { .. } => (
            "Promote",
            vec![Line::styled(
                "q: queen  r: rook  b: bishop  n: knight  esc: cancel",
                bold,
            )],
            56,
        ),
    };
    let h = lines.len() as u16 + 2;
    let rect = centered(area, w, h);
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {title} ")),
        )
        .render(rect, buf);
}
