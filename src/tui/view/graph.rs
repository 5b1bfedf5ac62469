//! The evaluation graph of the game: White's view in pawns, clamped, the current move marked,
//! mistakes marked, whole-game analysis progress in the title.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Widget};

use crate::game::NodeId;
use crate::tui::app::{App, Mode};
use crate::tui::review::{Judgement, judge_move};

/// The graph shows scores within ±CLAMP pawns.
pub const CLAMP: f64 = 5.0;

/// (ply, pawns) points of the known evaluations along `line`.
pub fn points(app: &App, line: &[NodeId]) -> Vec<(f64, f64)> {
    if app.engine_hidden() {
        return Vec::new();
    }
    line.iter()
        .enumerate()
        .filter_map(|(ply, &n)| {
            app.game().eval(n).map(|s| {
                (
                    ply as f64,
                    (f64::from(s.as_cp()) / 100.0).clamp(-CLAMP, CLAMP),
                )
            })
        })
        .collect()
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let current = app.game().current_node();
    let line = app.game().line_through(current);
    let moves = line.len() - 1;
    let title = match app.mode() {
        Mode::Analyse(a) if a.game_pass.is_some() => {
            let done = a.game_pass.map_or(0, |n| app.game().ply(n));
            format!(" Evaluation: analysing {done}/{} ", app.game().len())
        }
        _ if !app.game().tree().is_mainline(current) => " Evaluation (variation) ".to_owned(),
        _ => " Evaluation ".to_owned(),
    };
    let data = points(app, &line);
    let cursor = app.game().ply(current) as f64;
    let marker_line = [(cursor, -CLAMP), (cursor, CLAMP)];
    let zero = [(0.0, 0.0), (moves.max(1) as f64, 0.0)];
    let mut marks: [Vec<(f64, f64)>; 3] = Default::default();
    let judged = line
        .iter()
        .enumerate()
        .skip(1)
        .filter(|_| !app.engine_hidden());
    for (ply, &n) in judged {
        if let Some(j) = judge_move(app.game(), n) {
            let y = data.iter().find(|p| p.0 == ply as f64).map_or(0.0, |p| p.1);
            let k = match j {
                Judgement::Inaccuracy => 0,
                Judgement::Mistake => 1,
                Judgement::Blunder => 2,
            };
            marks[k].push((ply as f64, y));
        }
    }
    let color = |c: Tc| {
        if app.colors() {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    };
    let mut sets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(color(Tc::DarkGray))
            .data(&zero),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(color(Tc::Blue))
            .data(&marker_line),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(color(Tc::White).add_modifier(Modifier::BOLD))
            .data(&data),
    ];
    for (k, c) in [Tc::Yellow, Tc::LightRed, Tc::Red].into_iter().enumerate() {
        sets.push(
            Dataset::default()
                .marker(Marker::Dot)
                .graph_type(GraphType::Scatter)
                .style(color(c).add_modifier(Modifier::BOLD))
                .data(&marks[k]),
        );
    }
    let chart = Chart::new(sets)
        .block(Block::default().borders(Borders::TOP).title(title))
        .x_axis(Axis::default().bounds([0.0, moves.max(1) as f64]))
        .y_axis(Axis::default().bounds([-CLAMP, CLAMP]));
    chart.render(area, buf);
}
