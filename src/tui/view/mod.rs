//! `render(&App, &mut Frame)`: draws the state, never changes it.

mod board;
mod browse;
mod clocks;
pub mod engine;
mod evalbar;
mod explorer;
pub mod graph;
mod material;
pub mod moves;
mod overlay;
mod pieces;
mod reference;
mod status;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::app::{App, Mode};
use super::layout;

pub use board::glyph;

/// Below this size only a request to enlarge the terminal is shown.
pub const MIN_SIZE: (u16, u16) = (40, 12);

pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!("kibitzer needs {}x{}", MIN_SIZE.0, MIN_SIZE.1);
        frame.render_widget(
            ratatui::widgets::Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let areas = layout::compute(area, app.config().coordinates);
    let buf = frame.buffer_mut();
    if let Mode::Browse = app.mode() {
        let list = Rect::new(area.x, area.y, area.width, areas.status.y - area.y);
        browse::render(app, list, buf);
        status::render_status(app, areas.status, buf);
        status::render_input(app, areas.input, buf);
        if let Some(o) = app.overlay() {
            overlay::render(app, o, area, buf);
        }
        return;
    }
    evalbar::render(
        app.shown_eval(),
        app.board().flipped(),
        app.colors(),
        areas.evalbar,
        buf,
    );
    board::render(app, &areas, buf);
    material::render(app, &areas, buf);
    let side = side_panels(app, &areas);
    if side.clocks.height > 0 {
        clocks::render(app, side.clocks, buf);
    }
    moves::render(app, side.moves, buf);
    if side.reference.height > 0 {
        reference::render(app, side.reference, buf);
    }
    if side.explorer.height > 0 {
        explorer::render(app, side.explorer, buf);
    }
    engine::render(app, side.engine, buf);
    if side.graph.height >= 3 {
        graph::render(app, side.graph, buf);
    }
    status::render_status(app, areas.status, buf);
    status::render_input(app, areas.input, buf);
    if let Some(o) = app.overlay() {
        overlay::render(app, o, area, buf);
    }
}

/// The panels beside the board for what `app` shows (clicks are matched against the same).
pub fn side_panels(app: &App, areas: &layout::Areas) -> layout::SidePanels {
    // Hidden lines leave the engine panel its name and a note: the moves take the rest.
    let engine_rows = app.engine_hidden().then_some(4);
    areas.side_panels(
        clocks::panel_lines(app, areas.side.height),
        app.reference_lines(),
        crate::tui::database::panel_lines(app),
        engine_rows,
    )
}

#[cfg(test)]
mod snapshots;
#[cfg(test)]
mod tests;
