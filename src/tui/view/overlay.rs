//! Dialogs drawn over the board: help, quit confirmation, resume, new game, promotion, the
//! database's games of a position.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::engines::service::MAX_LEVEL;
use crate::tui::app::{App, DialogField, NewGameDialog, Overlay, Pending, Severity};
use crate::tui::autosave::Saved;
use crate::tui::clock::PRESETS;
use crate::tui::explorer::GamesList;
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

/// A dialog's frame: its title, its lines and its width.
struct Dialog<'a> {
    title: &'static str,
    lines: Vec<Line<'a>>,
    width: u16,
}

pub fn render(app: &App, overlay: &Overlay, area: Rect, buf: &mut Buffer) {
    let dialog = match overlay {
        Overlay::Help { scroll } => help_dialog(app, *scroll, area),
        Overlay::Messages { scroll } => messages_dialog(app, *scroll, area),
        Overlay::ConfirmQuit => quit_dialog(app),
        Overlay::Confirm(action) => confirm_dialog(app, action),
        Overlay::Resume(saved) => resume_dialog(saved),
        Overlay::NewGame(d) => new_game_dialog(d),
        Overlay::DbGames(list) => games_dialog(list, area),
        Overlay::Promotion { .. } => Dialog {
            title: "Promote",
            lines: vec![Line::styled(
                "q: queen  r: rook  b: bishop  n: knight  esc: cancel",
                bold(),
            )],
            width: 56,
        },
    };
    let h = dialog.lines.len() as u16 + 2;
    let rect = centered(area, dialog.width, h);
    Clear.render(rect, buf);
    Paragraph::new(dialog.lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {} ", dialog.title)),
        )
        .render(rect, buf);
}

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

/// How many lines of a scrolled text fit (borders and the footer take four rows), and the
/// first shown when scrolled by `scroll`.
fn scroll_window(scroll: usize, total: usize, area: Rect) -> (usize, usize) {
    let rows = usize::from(area.height.saturating_sub(4)).max(1);
    (rows, scroll.min(total.saturating_sub(rows)))
}

/// The footer under a scrolled text: which lines show, and the keys.
fn scroll_footer(first: usize, rows: usize, total: usize) -> Line<'static> {
    let last = (first + rows).min(total);
    Line::styled(
        format!(
            "lines {}-{last} of {total}: up/down/pgup/pgdn scroll, any other key closes",
            (first + 1).min(last),
        ),
        dim(),
    )
}

fn help_dialog(app: &App, scroll: usize, area: Rect) -> Dialog<'static> {
    let all = help::lines(app);
    let (rows, first) = scroll_window(scroll, all.len(), area);
    let mut lines: Vec<Line> = all
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, l)| {
            let heading =
                !l.starts_with(' ') && !l.is_empty() && (i == 0 || l.starts_with("Commands"));
            if heading {
                Line::styled(l.clone(), bold())
            } else {
                Line::raw(l.clone())
            }
        })
        .collect();
    lines.push(scroll_footer(first, rows, all.len()));
    Dialog {
        title: "Help",
        lines,
        width: area.width.min(84),
    }
}

fn messages_dialog(app: &App, scroll: usize, area: Rect) -> Dialog<'static> {
    let all = app
        .messages()
        .lines(crate::tui::dialog::log_width(area.width));
    let (rows, first) = scroll_window(scroll, all.len(), area);
    let mut lines: Vec<Line> = all
        .iter()
        .skip(first)
        .take(rows)
        .map(|(severity, text)| match severity {
            Severity::Error => Line::styled(text.clone(), bold()),
            Severity::Info => Line::raw(text.clone()),
        })
        .collect();
    if all.is_empty() {
        lines.push(Line::raw("no messages yet"));
    }
    lines.push(scroll_footer(first, rows, all.len()));
    Dialog {
        title: "Messages",
        lines,
        width: area.width.min(100),
    }
}

fn quit_dialog(app: &App) -> Dialog<'static> {
    let whereto = match (app.game().origin(), app.human()) {
        (Some(o), _) => format!(
            "(written back as game {} of {})",
            o.number,
            o.path.display()
        ),
        (None, Some(_)) => "(appended to the games file; offered to resume next time)".to_owned(),
        (None, None) => "(appended to the games file)".to_owned(),
    };
    Dialog {
        title: "Quit",
        lines: vec![
            Line::raw("The game is not saved. Save it as PGN before quitting?"),
            Line::raw(whereto),
            Line::raw(""),
            Line::styled(
                "y: save and quit   n: quit and discard it   esc: stay",
                bold(),
            ),
        ],
        width: 60,
    }
}

fn confirm_dialog(app: &App, action: &Pending) -> Dialog<'static> {
    let (question, answers) = action.question(app.human().is_some(), app.game().origin().is_some());
    Dialog {
        title: "Confirm",
        lines: vec![
            Line::raw(question),
            Line::raw(""),
            Line::styled(answers, bold()),
        ],
        width: 66,
    }
}

fn resume_dialog(saved: &Saved) -> Dialog<'static> {
    let what = if saved.human.is_some() {
        "game"
    } else {
        "analysis"
    };
    let annotated = saved
        .pgn
        .as_deref()
        .is_some_and(|p| p.contains('(') || p.contains('{'));
    let extras = if annotated {
        ", with variations or comments"
    } else {
        ""
    };
    Dialog {
        title: "Resume",
        lines: vec![
            Line::raw(format!(
                "An unfinished {what} from last time ({} moves{extras}) was kept.",
                saved.moves.len(),
            )),
            Line::raw(""),
            Line::styled("y/enter: resume   n/esc: discard it", bold()),
        ],
        width: 60,
    }
}

fn new_game_dialog(d: &NewGameDialog) -> Dialog<'static> {
    let field = |f: DialogField, name: &str, value: String| {
        let mark = if d.field == f { "▶ " } else { "  " };
        Line::raw(format!("{mark}{name:<11}◀ {value} ▶"))
    };
    let mut lines = Vec::new();
    if d.welcome {
        lines.extend([
            Line::styled(
                "Welcome to kibitzer. Choose your first game against the engine;",
                bold(),
            ),
            Line::raw("these choices are kept for the next start (n: another game)."),
            Line::raw(""),
        ]);
    }
    let start = if d.chess960 {
        "Chess960 (random)"
    } else {
        "standard"
    };
    let mut level = field(DialogField::Level, "Level", d.level.to_string());
    level.push_span(format!("  (1-{MAX_LEVEL})"));
    lines.extend([
        field(
            DialogField::Color,
            "You play",
            d.color.fold("White", "Black").to_owned(),
        ),
        field(DialogField::Time, "Time", PRESETS[d.preset].to_string()),
        level,
        field(DialogField::Book, "Book", d.book.name().to_string()),
        field(DialogField::Start, "Start", start.to_owned()),
        Line::raw(""),
        Line::styled(
            "up/down: field  left/right: change  enter: start  esc: cancel",
            dim(),
        ),
        Line::styled("custom time control: :play 7+2 level 12 black", dim()),
    ]);
    Dialog {
        title: if d.welcome { "Welcome" } else { "New game" },
        lines,
        width: 66,
    }
}

fn games_dialog(list: &GamesList, area: Rect) -> Dialog<'static> {
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
                Line::styled(format!("▶ {text}"), bold())
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
        dim(),
    ));
    Dialog {
        title: "Games reaching this position",
        lines,
        width: area.width.min(100),
    }
}
