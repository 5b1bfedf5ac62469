//! `render(&App, &mut Frame)`: draws the state, never changes it.

mod board;
pub mod engine;
mod evalbar;
pub mod graph;
pub mod moves;
mod overlay;
mod status;

use ratatui::Frame;

use super::app::App;
use super::layout;

pub use board::glyph;

pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let areas = layout::compute(area, app.config.coordinates);
    let buf = frame.buffer_mut();
    evalbar::render(
        app.shown_eval(),
        app.flipped,
        app.colors,
        areas.evalbar,
        buf,
    );
    board::render(app, &areas, buf);
    let side = areas.side_panels();
    moves::render(app, side.moves, buf);
    engine::render(app, side.engine, buf);
    if side.graph.height >= 3 {
        graph::render(app, side.graph, buf);
    }
    status::render_status(app, areas.status, buf);
    status::render_input(app, areas.input, buf);
    if let Some(o) = &app.overlay {
        overlay::render(app, o, area, buf);
    }
}
