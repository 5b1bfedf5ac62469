//! The engine panel: search statistics and the principal variations in SAN.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use crate::chess::{Move, Position};

use crate::tui::app::{App, Mode, Purpose};

/// SAN of a principal variation with move numbers, stopping at the first move that does not
/// fit the position (a stale line).
pub fn pv_san(root: &Position, pv: &[Move], max_moves: usize) -> String {
    let mut pos = root.clone();
    let mut out = String::new();
    for (i, &m) in pv.iter().take(max_moves).enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        if pos.turn() == crate::chess::Color::White {
            out.push_str(&format!("{}.", pos.fullmoves()));
        } else if i == 0 {
            out.push_str(&format!("{}...", pos.fullmoves()));
        }
        out.push_str(&pos.san(m));
        pos.play_unchecked(m);
    }
    out
}

/// 1234 -> "1.2k", 5_600_000 -> "5.6M".
pub fn si(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let state = match app.searches().current().map(|s| s.purpose) {
        Some(Purpose::Opponent) => "thinking",
        Some(Purpose::Hint) => "hint",
        Some(Purpose::Analysis) => "analysing",
        Some(Purpose::GamePass) => "game analysis",
        Some(Purpose::Ponder(_)) => "pondering",
        Some(Purpose::Grade(_)) => "grading your move",
        None => "idle",
    };
    let block = Block::default()
        .borders(Borders::TOP)
        .title(format!(" Engine: {state} "));
    let inner = block.inner(area);
    block.render(area, buf);
    let dim = Style::default().add_modifier(Modifier::DIM);
    let mut text = Vec::new();
    // Lines only for the shown position, and none during a game against the engine.
    let lines = app.shown_lines();
    let root = app.position();
    let Some(first) = lines.first() else {
        let idle = match app.mode() {
            Mode::Learn(_) => "lines hidden while solving (t shows the answer)",
            _ if app.engine_hidden() => "lines hidden until the game ends ([play] show_engine)",
            Mode::Analyse(_) if app.lines().has_root() && app.searches().current().is_some() => {
                "the engine's lines are for another position"
            }
            Mode::Analyse(_) => "space: start analysis",
            _ => "",
        };
        text.push(Line::styled(app.lines().engine(), dim));
        text.push(Line::styled(idle, dim));
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(inner, buf);
        return;
    };
    text.push(Line::styled(
        format!(
            "d{}/{}  {} nodes  {} n/s  hash {}%  tb {}",
            first.depth,
            first.seldepth,
            si(first.nodes),
            si(first.nps),
            first.hashfull / 10,
            si(first.tbhits)
        ),
        dim,
    ));
    let score_style = if app.colors() {
        Style::default().fg(Tc::Cyan).add_modifier(Modifier::BOLD)
    } else {
        Style::default().add_modifier(Modifier::BOLD)
    };
    if let Some((pos, m, _)) = app.pv_preview() {
        let n = app.lines().cursor().min(lines[0].pv.len());
        text.push(Line::styled(
            format!(
                "board at move {n} of the line: {} marked; ( ) step, esc back",
                pos.san(m)
            ),
            score_style,
        ));
    }
    for info in lines {
        let score = info.score.map_or("?".to_owned(), |s| s.label());
        let pv = pv_san(root, &info.pv, 16);
        text.push(Line::from(vec![
            Span::styled(format!("{score:>6} "), score_style),
            Span::raw(pv),
        ]));
    }
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(inner, buf);
}
