//! The opponent's book: depth, variety and the `:book` command.

use crate::book::Book;
use crate::chess::{Color, Position};
use crate::engines::service::EngineCommand;
use crate::tui::app::{App, Effect, Reference};
use crate::tui::config::BookChoice;
use crate::tui::start::start_play;
use crate::tui::tests::{app, keys};
use crate::tui::update::settle;

fn engine_plays_white(configure: impl FnOnce(&mut App)) -> App {
    let mut app = app();
    app.policy_mut().set_book(Some(Book::embedded()));
    configure(&mut app);
    start_play(
        &mut app,
        Position::startpos(),
        Color::Black,
        "5+3".parse().unwrap(),
        20,
    );
    settle(&mut app);
    app
}

fn searched(app: &App) -> bool {
    app.effects()
        .iter()
        .any(|e| matches!(e, Effect::Engine(EngineCommand::Go { .. })))
}

#[test]
fn best_variety_plays_the_top_book_move() {
    let app = engine_plays_white(|a| a.config_mut().book_choice = BookChoice::Best);
    let book = app.policy().book().unwrap();
    let Some(best) = book.best(&Position::startpos()) else {
        return; // an empty built-in book: nothing to check
    };
    assert_eq!(app.game().len(), 1);
    assert_eq!(
        app.game().last(),
        &Position::startpos().play(best.mv).unwrap()
    );
    assert!(!searched(&app));
}

#[test]
fn book_depth_zero_makes_the_engine_search() {
    let app = engine_plays_white(|a| a.config_mut().book_depth = 0);
    assert!(app.game().is_empty());
    assert!(searched(&app));
}

#[test]
fn book_command_sets_variety_and_depth() {
    let mut app = app();
    keys(&mut app, ":book random<Enter>");
    assert_eq!(app.config().book_choice, BookChoice::Random);
    keys(&mut app, ":book depth 6<Enter>");
    assert_eq!(app.config().book_depth, 6);
    assert!(
        app.message()
            .unwrap()
            .1
            .contains("random moves up to ply 6")
    );
    keys(&mut app, ":book off<Enter>");
    assert_eq!(app.config().book_depth, 0);
    keys(&mut app, ":book sideways<Enter>");
    assert!(app.message().unwrap().1.contains("book takes"));
    // The new-game dialog's fourth field picks the variety.
    keys(&mut app, "n<Down><Down><Down><Left><Enter>");
    assert_eq!(app.config().book_choice, BookChoice::Proportional);
}

#[test]
fn book_panel_shows_weights_and_shares() {
    let mut app = app();
    app.policy_mut().set_book(Some(Book::embedded()));
    crate::tui::start::enter_analyse(&mut app);
    if app.book_moves().is_empty() {
        return;
    }
    assert_eq!(app.reference(), Reference::Book);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    terminal
        .draw(|f| crate::tui::view::render(&app, f))
        .unwrap();
    let buf = terminal.backend().buffer().clone();
    let text: String = buf.content().iter().map(|c| c.symbol()).collect();
    let first = &app.book_moves()[0];
    let san = app.position().san(first.mv);
    assert!(
        text.contains(&format!("{san} ")) && text.contains(&format!("({})", first.weight)),
        "{text}"
    );
    assert!(text.contains('%'));
}
