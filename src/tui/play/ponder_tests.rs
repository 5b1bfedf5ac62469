//! Pondering: the engine thinks on the player's time about the reply it expects.

use std::time::Duration;

use crate::chess::Color;
use crate::engines::service::{EngineCommand, EngineEvent, GoLimits};
use crate::tui::action::Action;
use crate::tui::app::{App, Effect, Mode, Purpose};
use crate::tui::config;
use crate::tui::keymap::Command;
use crate::tui::tests::{keys, playing_out_of_book, sans, uci_line};
use crate::tui::update::update;

/// The engine commands queued since the last call.
fn commands(app: &mut App) -> Vec<EngineCommand> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Engine(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// The one `go` among `commands`: its id, moves in UCI, limits and ponder flag.
fn the_go(commands: &[EngineCommand]) -> (u64, Vec<String>, GoLimits, bool) {
    let gos: Vec<_> = commands
        .iter()
        .filter_map(|c| match c {
            EngineCommand::Go {
                id,
                start,
                moves,
                limits,
                ponder,
                ..
            } => Some((*id, uci_line(start, moves), *limits, *ponder)),
            _ => None,
        })
        .collect();
    assert_eq!(gos.len(), 1, "{commands:?}");
    gos.into_iter().next().unwrap()
}

fn best(app: &mut App, id: u64, best: &str, ponder: Option<&str>) {
    let pos = app.game().last().clone();
    let m = pos.parse_uci(best).ok();
    let ponder = ponder.map(|p| pos.play(m.unwrap()).unwrap().parse_uci(p).unwrap());
    update(
        app,
        Action::Engine(id, EngineEvent::BestMove { best: m, ponder }),
    );
}

/// 1. e4 played, the engine answers e5 expecting Nf3: returns the ponder search's id.
fn pondering_after_e4_e5() -> App {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, ":ponder on<Enter>");
    assert!(app.config().ponder);
    keys(&mut app, "e4<Enter>");
    let (id, _, _, ponder) = the_go(&commands(&mut app));
    assert!(!ponder);
    best(&mut app, id, "e7e5", Some("g1f3"));
    assert_eq!(sans(&app), "e4 e5");
    app
}

#[test]
fn after_its_move_the_engine_ponders_on_the_expected_reply() {
    let mut app = pondering_after_e4_e5();
    let (_, moves, limits, ponder) = the_go(&commands(&mut app));
    assert!(ponder);
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
    assert!(matches!(limits, GoLimits::Clock { .. }));
    assert!(matches!(
        app.searches().current().map(|s| s.purpose),
        Some(Purpose::Ponder(_))
    ));
    // Only the player's clock runs while the engine ponders.
    let Mode::Play(p) = app.mode() else { panic!() };
    let black = p.clocks.remaining(Color::Black, app.now());
    app.set_now(app.now() + Duration::from_secs(5));
    update(&mut app, Action::Tick);
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!(p.clocks.running(), Some(Color::White));
    assert_eq!(p.clocks.remaining(Color::Black, app.now()), black);
}

#[test]
fn the_expected_move_turns_the_ponder_search_into_the_real_one() {
    let mut app = pondering_after_e4_e5();
    let (id, _, _, _) = the_go(&commands(&mut app));
    keys(&mut app, "Nf3<Enter>");
    let sent = commands(&mut app);
    assert!(
        matches!(sent.as_slice(), [EngineCommand::PonderHit]),
        "{sent:?}"
    );
    let search = app.searches().current().unwrap();
    assert_eq!((search.id, search.purpose), (id, Purpose::Opponent));
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!(p.clocks.running(), Some(Color::Black));
    // Its answer is played, and it ponders again on the next expected reply.
    best(&mut app, id, "b8c6", Some("f1b5"));
    assert_eq!(sans(&app), "e4 e5 Nf3 Nc6");
    let (_, moves, _, ponder) = the_go(&commands(&mut app));
    assert!(ponder);
    assert_eq!(moves.last().unwrap(), "f1b5");
}

#[test]
fn another_move_stops_the_ponder_search_and_ignores_its_answer() {
    let mut app = pondering_after_e4_e5();
    let (stale, _, _, _) = the_go(&commands(&mut app));
    keys(&mut app, "d4<Enter>");
    let sent = commands(&mut app);
    assert!(
        matches!(sent.first(), Some(EngineCommand::Stop)),
        "{sent:?}"
    );
    let (id, moves, _, ponder) = the_go(&sent);
    assert!(!ponder && id != stale);
    assert_eq!(moves, ["e2e4", "e7e5", "d2d4"]);
    // The stopped search's move (for the position after Nf3) is dropped.
    let after_nf3 = "b8c6";
    best(&mut app, stale, after_nf3, None);
    assert_eq!(sans(&app), "e4 e5 d4");
    best(&mut app, id, "e5d4", None);
    assert_eq!(sans(&app), "e4 e5 d4 exd4");
}

#[test]
fn takeback_new_game_mode_change_and_ponder_off_stop_pondering() {
    let mut app = pondering_after_e4_e5();
    let (stale, _, _, _) = the_go(&commands(&mut app));
    update(&mut app, Action::Command(Command::Takeback));
    assert_eq!(sans(&app), "");
    let sent = commands(&mut app);
    assert!(matches!(sent.as_slice(), [EngineCommand::Stop]), "{sent:?}");
    assert!(app.searches().current().is_none());
    best(&mut app, stale, "b8c6", None);
    assert_eq!(sans(&app), "");

    let mut app = pondering_after_e4_e5();
    commands(&mut app);
    keys(&mut app, ":ponder off<Enter>");
    assert!(matches!(
        commands(&mut app).as_slice(),
        [EngineCommand::Stop]
    ));
    keys(&mut app, ":ponder maybe<Enter>");
    assert!(app.message().unwrap().1.contains("on or off"));

    let mut app = pondering_after_e4_e5();
    commands(&mut app);
    // A new game over the one in progress (it asks first).
    keys(&mut app, ":play white<Enter>y");
    assert!(
        commands(&mut app)
            .iter()
            .any(|c| matches!(c, EngineCommand::Stop))
    );
    assert!(app.searches().current().is_none());

    let mut app = pondering_after_e4_e5();
    commands(&mut app);
    // A game in progress asks before it stops.
    keys(&mut app, ":analyse<Enter>y");
    assert!(
        commands(&mut app)
            .iter()
            .any(|c| matches!(c, EngineCommand::Stop))
    );
    assert!(!matches!(
        app.searches().current().map(|s| s.purpose),
        Some(Purpose::Ponder(_))
    ));
}

#[test]
fn pondering_is_off_by_default_and_set_in_the_config() {
    let mut app = playing_out_of_book(Color::White);
    assert!(!app.config().ponder);
    keys(&mut app, "e4<Enter>");
    let (id, _, _, _) = the_go(&commands(&mut app));
    best(&mut app, id, "e7e5", Some("g1f3"));
    assert!(
        !commands(&mut app)
            .iter()
            .any(|c| matches!(c, EngineCommand::Go { .. }))
    );
    let (c, errors) = config::parse("[engine]\nponder = true\n", "test");
    assert!(c.ponder && errors.is_empty());
    let (c, errors) = config::parse("[engine]\nponder = 1\n", "test");
    assert!(!c.ponder && errors[0].contains("engine.ponder"));
    assert!(config::default_text().contains("ponder = false"));
}
