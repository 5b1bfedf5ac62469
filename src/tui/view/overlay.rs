//! Dialogs drawn over the board: help, quit confirmation, resume, new game, promotion.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::tui::app::{App, Overlay};
use crate::tui::clock::PRESETS;
use crate::tui::commands::COMMAND_HELP;
use crate::tui::keymap::COMMANDS;

/// `s` cut or padded to exactly `width` cells.
fn fit(s: &str, width: usize) -> String {
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    let len = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - len.min(width)));
    out
}

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
        Overlay::Help => {
            let entries: Vec<String> = COMMANDS
                .iter()
                .map(|&(command, _, _, help)| {
                    let keys: Vec<String> = app
                        .config
                        .keys
                        .keys_for(command)
                        .map(|k| k.to_string())
                        .collect();
                    let key = if keys.is_empty() {
                        "-".to_owned()
                    } else {
                        keys.join("/")
                    };
                    format!("{key:>8}  {help}")
                })
                .collect();
            // Two columns when one would not fit the terminal's height.
            let w = area.width.min(160);
            let columns = if entries.len() + 6 > area.height as usize {
                2
            } else {
                1
            };
            let col_w = (w as usize).saturating_sub(4) / columns;
            let rows = entries.len().div_ceil(columns);
            let mut lines = vec![Line::styled("Keys", bold)];
            for r in 0..rows {
                let text: String = (0..columns)
                    .filter_map(|c| entries.get(c * rows + r))
                    .map(|e| fit(e, col_w))
                    .collect();
                lines.push(Line::raw(text));
            }
            for extra in [
                "  arrows  move the cursor; enter picks up / drops a piece",
                "   mouse  click or drag pieces; click the graph to jump; wheel steps",
                "  typing  a-h, N B R Q K, O start a move: e4, Nf3, O-O, e2e4; tab completes",
                "  browse  type to filter; up/down/pgup/pgdn; enter opens; esc back",
                " endgame  f5 or :endgame KRvK; t best move, u takeback, n new position",
                "  ctrl-c  quit",
            ] {
                lines.push(Line::raw(extra));
            }
            lines.push(Line::styled("Commands (:)", bold));
            for (c, help) in COMMAND_HELP {
                lines.push(Line::raw(format!("  :{c}  {help}")));
            }
            lines.push(Line::styled(
                "any key closes this",
                Style::default().add_modifier(Modifier::DIM),
            ));
            ("Help", lines, w)
        }
        Overlay::ConfirmQuit => (
            "Quit",
            vec![
                Line::raw("The game is not saved. Save it as PGN before quitting?"),
                Line::raw(""),
                Line::styled(
                    "y: save and quit   n: quit without saving   esc: stay",
                    bold,
                ),
            ],
            60,
        ),
        Overlay::Confirm(action) => {
            let (question, answers) = action.question(app);
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
                    "An unfinished {} from last time ({} moves) was saved.",
                    if saved.human.is_some() {
                        "game"
                    } else {
                        "analysis"
                    },
                    saved.moves.len()
                )),
                Line::raw(""),
                Line::styled("y/enter: resume   n/esc: discard it", bold),
            ],
            60,
        ),
        Overlay::NewGame(d) => {
            let mark = |i: usize| if d.field == i { "▶ " } else { "  " };
            (
                "New game",
                vec![
                    Line::raw(format!(
                        "{}You play   ◀ {} ▶",
                        mark(0),
                        d.color.fold("White", "Black")
                    )),
                    Line::raw(format!("{}Time       ◀ {} ▶", mark(1), PRESETS[d.preset])),
                    Line::raw(format!("{}Level      ◀ {} ▶  (1-20)", mark(2), d.level)),
                    Line::raw(format!("{}Book       ◀ {} ▶", mark(3), d.book.name())),
                    Line::raw(""),
                    Line::styled(
                        "up/down: field  left/right: change  enter: start  esc: cancel",
                        Style::default().add_modifier(Modifier::DIM),
                    ),
                    Line::styled(
                        "custom time control: :play 7+2 level 12 black",
                        Style::default().add_modifier(Modifier::DIM),
                    ),
                ],
                66,
            )
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
