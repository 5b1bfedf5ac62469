//! The status line (mode, side to move, clocks, result, messages) and the input line below it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::chess::Color;

use crate::tui::app::{App, Mode, Prompt, Severity};
use crate::tui::clock::format_clock;
use crate::tui::keymap::COMMANDS;
use crate::tui::typed::completions;

pub fn render_status(app: &App, area: Rect, buf: &mut Buffer) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut spans = vec![Span::styled(
        format!(" {} ", app.mode().component().name()),
        bold.add_modifier(Modifier::REVERSED),
    )];
    let pos = app.position();
    let state = match (app.mode(), app.game().end()) {
        (Mode::Setup(s), _) => format!(" {} to move", s.turn().fold("White", "Black")),
        (_, Some(end)) if app.game().at_main_end() => format!(" {} {end}", end.result()),
        _ => {
            let check = if pos.in_check() { ", check" } else { "" };
            format!(" {} to move{check}", pos.turn().fold("White", "Black"))
        }
    };
    spans.push(Span::styled(state, bold));
    if let Some(clocks) = app.clocks() {
        for color in [Color::White, Color::Black] {
            let t = format_clock(clocks.remaining(color, app.now()));
            let who = match app.human() {
                Some(h) if h == color => "you",
                Some(_) => "engine",
                None => "",
            };
            let mut style = Style::default();
            if clocks.running() == Some(color) {
                style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
            }
            spans.push(Span::raw("  "));
            spans.push(Span::styled(
                format!(" {} {who} {t} ", color.fold("W", "B")),
                style,
            ));
        }
    }
    if let Mode::Play(p) = app.mode() {
        spans.push(Span::raw(format!("  level {}", p.level)));
        if let Some(premove) = &p.premove {
            spans.push(Span::styled(format!("  premove {premove}"), bold));
        }
    }
    if let Mode::Analyse(_) = app.mode()
        && let Some(label) = game_label(app.game().headers())
    {
        spans.push(Span::raw(format!("  {label}")));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

/// "Carlsen (2863) - Caruana (2835), London 2018, ½-½" from a game's tags, when it names its
/// players.
fn game_label(headers: &crate::game::Headers) -> Option<String> {
    let known = |tag: &str| {
        headers
            .get(tag)
            .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
    };
    let player = |name: &str, elo: &str| {
        let name = known(name).unwrap_or("?");
        match known(elo) {
            Some(elo) => format!("{name} ({elo})"),
            None => name.to_owned(),
        }
    };
    if known("White").is_none() && known("Black").is_none() {
        return None;
    }
    let mut label = format!(
        "{} - {}",
        player("White", "WhiteElo"),
        player("Black", "BlackElo")
    );
    if let Some(event) = known("Event") {
        label.push_str(&format!(", {event}"));
    }
    if let Some(result) = known("Result").filter(|r| *r != "*") {
        label.push_str(&format!(", {}", result.replace("1/2", "½")));
    }
    Some(label)
}

/// The prompt's label and text with the cursor on its character (reversed), a selected text
/// all reversed, and the file names a tab could not choose between.
fn prompt_line(prompt: &Prompt) -> Line<'_> {
    let reversed = Style::default().add_modifier(Modifier::REVERSED);
    let text = prompt.text();
    let mut spans = vec![Span::styled(
        prompt.kind.label(),
        Style::default().add_modifier(Modifier::BOLD),
    )];
    if prompt.selected {
        spans.push(Span::styled(text, reversed));
    } else {
        let at = text
            .char_indices()
            .nth(prompt.line.cursor())
            .map_or(text.len(), |(i, _)| i);
        let (before, rest) = text.split_at(at);
        let mut rest = rest.chars();
        let under = rest.next().map_or_else(|| " ".to_owned(), String::from);
        spans.push(Span::raw(before));
        spans.push(Span::styled(under, reversed));
        spans.push(Span::raw(rest.as_str()));
    }
    if !prompt.candidates.is_empty() {
        spans.push(Span::styled(
            format!("   {}", prompt.candidates.join("  ")),
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    Line::from(spans)
}

fn message_style(app: &App, severity: Severity) -> Style {
    match (severity, app.colors()) {
        (Severity::Error, true) => Style::default()
            .fg(Tc::LightRed)
            .add_modifier(Modifier::BOLD),
        (Severity::Error, false) => Style::default().add_modifier(Modifier::BOLD),
        (Severity::Info, _) => Style::default(),
    }
}

pub fn render_input(app: &App, area: Rect, buf: &mut Buffer) {
    let dim = Style::default().add_modifier(Modifier::DIM);
    let line = if let Some(prompt) = app.prompt().current() {
        prompt_line(prompt)
    } else if let Mode::Setup(s) = app.mode() {
        let error = s.error.as_deref().unwrap_or("");
        Line::from(vec![
            Span::styled(
                error.to_owned(),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                format!(
                    "{}PNBRQK/pnbrqk put, x clear, tab side, 1-4 castling KQkq {}, c empty, s start, f FEN, enter done, esc cancel",
                    if error.is_empty() { "" } else { "  " },
                    castling(&s.castling)
                ),
                dim,
            ),
        ])
    } else if let Some((severity, text)) = app.message()
        && app.board().typed().is_empty()
    {
        Line::styled(fitted(text, area.width), message_style(app, *severity))
    } else if !app.board().typed().is_empty() {
        // What is wrong with the typed move, kept for correction; else the moves it may become.
        let after = match app.message() {
            Some((severity, text)) => {
                Span::styled(format!("   {text}"), message_style(app, *severity))
            }
            None => {
                let matches = completions(app.position(), app.board().typed());
                let shown: Vec<String> = matches.into_iter().take(12).collect();
                let alone = crate::tui::typed::key_alone(app)
                    .and_then(|c| COMMANDS.iter().find(|entry| entry.0 == c))
                    .map_or_else(String::new, |entry| {
                        format!("   (enter alone: {})", entry.3)
                    });
                Span::styled(format!("   {}{alone}", shown.join(" ")), dim)
            }
        };
        Line::from(vec![
            Span::styled("move: ", Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(app.board().typed().to_owned()),
            Span::styled("█", Style::default()),
            after,
        ])
    } else {
        Line::styled(crate::tui::help::hint(app), dim)
    };
    Paragraph::new(line).render(area, buf);
}

/// The message in `width` columns: cut short with a pointer to the log when it is longer.
fn fitted(text: &str, width: u16) -> String {
    const MORE: &str = "... (:messages)";
    let width = usize::from(width);
    if text.chars().count() < width {
        return format!(" {text}");
    }
    let keep = width.saturating_sub(MORE.len() + 1);
    format!(" {}{MORE}", text.chars().take(keep).collect::<String>())
}

fn castling(c: &[bool; 4]) -> String {
    let s: String = ['K', 'Q', 'k', 'q']
        .iter()
        .zip(c)
        .filter(|&(_, on)| *on)
        .map(|(ch, _)| *ch)
        .collect();
    if s.is_empty() { "-".into() } else { s }
}
