//! The reference panel: book moves with their weights, the tablebase verdict of every move, or
//! the endgame trainer's grades.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use crate::chess::TbWdl;
use crate::tablebase::TbState;
use crate::tui::app::{App, Mode, Reference};

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    match app.reference() {
        Reference::None => {}
        Reference::Book => book(app, area, buf),
        Reference::Tablebase => tablebase(app, area, buf),
        Reference::Trainer => trainer(app, area, buf),
    }
}

fn book(app: &App, area: Rect, buf: &mut Buffer) {
    let moves = app.book_moves();
    let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
    let pos = app.position();
    let text = moves
        .iter()
        .map(|m| {
            let share = (u32::from(m.weight) * 100).checked_div(total).unwrap_or(0);
            format!("{} {share}% ({})", pos.san(m.mv), m.weight)
        })
        .collect::<Vec<_>>()
        .join("  ");
    let block = Block::default().borders(Borders::TOP).title(" Book ");
    Paragraph::new(Line::raw(text))
        .wrap(Wrap { trim: true })
        .block(block)
        .render(area, buf);
}

fn wdl_style(app: &App, wdl: TbWdl) -> Style {
    if !app.colors() {
        return match wdl {
            TbWdl::Win => Style::default().add_modifier(Modifier::BOLD),
            _ => Style::default(),
        };
    }
    match wdl {
        TbWdl::Win => Style::default().fg(Tc::LightGreen),
        TbWdl::CursedWin | TbWdl::BlessedLoss => Style::default().fg(Tc::Yellow),
        TbWdl::Draw => Style::default().fg(Tc::Gray),
        TbWdl::Loss => Style::default().fg(Tc::LightRed),
    }
}

fn tablebase(app: &App, area: Rect, buf: &mut Buffer) {
    let pos = app.position();
    let dim = Style::default().add_modifier(Modifier::DIM);
    let (title, lines) = match app.tb().answer(pos) {
        _ if app.tb().tables.is_none() => (
            " Tablebase ".to_owned(),
            vec![Line::styled(app.tb().note.clone(), dim)],
        ),
        None => (
            " Tablebase ".to_owned(),
            vec![Line::styled("probing...", dim)],
        ),
        Some(Err(e)) => (" Tablebase ".to_owned(), vec![Line::styled(e.clone(), dim)]),
        Some(Ok(view)) => {
            let title = format!(" Tablebase: {} ", view.state.headline(pos));
            let lines = match view.state {
                TbState::Checkmate | TbState::Stalemate => Vec::new(),
                TbState::Probed { .. } => view
                    .ranking
                    .moves
                    .iter()
                    .map(|m| {
                        Line::from(vec![
                            Span::raw(format!("{:<8}", pos.san(m.mv))),
                            Span::styled(format!("{:<13}", m.wdl.name()), wdl_style(app, m.wdl)),
                            Span::styled(m.detail(), dim),
                        ])
                    })
                    .collect(),
            };
            (title, lines)
        }
    };
    let block = Block::default().borders(Borders::TOP).title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    // Two columns when the moves do not fit in one and the panel is wide enough.
    let rows = inner.height as usize;
    if lines.len() > rows && inner.width >= 60 && rows > 0 {
        let half = Rect::new(inner.x, inner.y, inner.width / 2, inner.height);
        let right = Rect::new(
            inner.x + inner.width / 2,
            inner.y,
            inner.width - inner.width / 2,
            inner.height,
        );
        let (a, b) = lines.split_at(rows);
        Paragraph::new(a.to_vec()).render(half, buf);
        Paragraph::new(b.to_vec()).render(right, buf);
    } else {
        let mut lines = lines;
        if lines.len() > rows && rows > 0 {
            let more = lines.len() - rows + 1;
            lines.truncate(rows - 1);
            lines.push(Line::styled(format!("... {more} more"), dim));
        }
        Paragraph::new(lines).render(inner, buf);
    }
}

fn trainer(app: &App, area: Rect, buf: &mut Buffer) {
    let Mode::Endgame(e) = app.mode() else {
        return;
    };
    let grades = e.user_grades();
    let best = grades.iter().filter(|g| g.is_best()).count();
    let counter = app.game().last().halfmoves();
    let mut lines = vec![Line::raw(format!(
        "you play {} · {} moves, {} best · fifty-move counter {}/100",
        e.user.fold("White", "Black"),
        grades.len(),
        best,
        counter
    ))];
    let mut graded = Vec::new();
    for &(_, node, g) in &e.grades {
        if let Some(san) = app.game().tree().san(node) {
            graded.push(Span::raw(format!("{san}{} ", g.glyph())));
        }
    }
    lines.push(Line::from(graded));
    if let Some((_, _, last)) = e.grades.last() {
        lines.push(Line::styled(
            format!("last: {last}"),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    let block = Block::default()
        .borders(Borders::TOP)
        .title(" Endgame trainer ");
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .block(block)
        .render(area, buf);
}
