//! Update tests: actions in, state and effects out, for every mode.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::chess::{Color, Move, Position, Square};
use crate::game::NodeId;

use super::action::Action;
use super::app::{App, Effect, Mode, Overlay, Purpose};
use super::config::Config;
use super::input::action_for;
use super::keymap::Command;
use super::start::start_play;
use super::update::update;
use crate::engines::service::{EngineCommand, EngineEvent, GoLimits, PvInfo};
use crate::game::Score;
use crate::game::{Ending, GameResult};

pub fn app() -> App {
    let mut app = App::new(Config::default(), Instant::now());
    app.resize(100, 30);
    // Effects are not carried out in these tests; the path is only a label.
    app.set_games_file(Some("games-under-test.pgn".into()));
    app
}

pub fn playing(human: Color) -> App {
    let mut app = app();
    start_play(
        &mut app,
        Position::startpos(),
        human,
        "5+3".parse().unwrap(),
        20,
    );
    super::update::settle(&mut app);
    app
}

/// A game against the engine that has no opening book: every reply is a search.
pub fn playing_out_of_book(human: Color) -> App {
    let mut app = playing(human);
    app.policy_mut().set_book(None);
    app
}

/// Presses keys as typed (`<Enter>`, `<Esc>`, `<Tab>`, `<Up>`... for special keys).
pub fn keys(app: &mut App, text: &str) {
    let mut rest = text;
    while !rest.is_empty() {
        let (code, len) = if rest.starts_with('<') {
            let end = rest.find('>').unwrap();
            let code = match &rest[1..end] {
                "Enter" => KeyCode::Enter,
                "Esc" => KeyCode::Esc,
                "Tab" => KeyCode::Tab,
                "Up" => KeyCode::Up,
                "Down" => KeyCode::Down,
                "Left" => KeyCode::Left,
                "Right" => KeyCode::Right,
                "BS" => KeyCode::Backspace,
                "F2" => KeyCode::F(2),
                "F3" => KeyCode::F(3),
                "Home" => KeyCode::Home,
                "End" => KeyCode::End,
                "PageDown" => KeyCode::PageDown,
                "Lt" => KeyCode::Char('<'),
                other => panic!("unknown key {other}"),
            };
            (code, end + 1)
        } else {
            let c = rest.chars().next().unwrap();
            (KeyCode::Char(c), c.len_utf8())
        };
        rest = &rest[len..];
        key(app, KeyEvent::new(code, KeyModifiers::NONE));
    }
}

pub fn key(app: &mut App, ev: KeyEvent) {
    if let Some(a) = action_for(app, &Event::Key(ev)) {
        update(app, a);
    }
}

pub fn ctrl(app: &mut App, c: char) {
    key(app, KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

/// The last `go` sent to the engine since the effects were drained.
pub fn take_go(app: &mut App) -> Option<(u64, Vec<String>, GoLimits)> {
    let mut last = None;
    for e in app.take_effects() {
        if let Effect::Engine(EngineCommand::Go {
            id,
            start,
            moves,
            limits,
            ..
        }) = e
        {
            last = Some((id, uci_line(&start, &moves), limits));
        }
    }
    last
}

/// `moves` played from `start`, in UCI notation.
pub fn uci_line(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let u = pos.uci(m);
            pos.play_unchecked(m);
            u
        })
        .collect()
}

fn reply(app: &mut App, id: u64, uci: &str) {
    let m = app.game().last().parse_uci(uci).unwrap();
    update(
        app,
        Action::Engine(
            id,
            EngineEvent::BestMove {
                best: Some(m),
                ponder: None,
            },
        ),
    );
}

/// The main line in SAN.
pub fn sans(app: &App) -> String {
    let tree = app.game().tree();
    app.game()
        .mainline()
        .map(|n| tree.san(n).unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The main-line node after `ply` moves.
pub fn main_node(app: &App, ply: usize) -> NodeId {
    std::iter::once(NodeId::ROOT)
        .chain(app.game().mainline())
        .nth(ply)
        .expect("the main line is that long")
}

#[test]
fn play_typed_move_engine_reply_and_takeback() {
    let mut app = playing_out_of_book(Color::White);
    assert!(
        take_go(&mut app).is_none(),
        "White to move: the engine waits"
    );
    keys(&mut app, "e4<Enter>");
    assert_eq!(sans(&app), "e4");
    let (id, moves, limits) = take_go(&mut app).expect("engine asked to move");
    assert_eq!(moves, ["e2e4"]);
    // At 5+3 the opponent thinks at most a human's average move, 300 s / 40 + 3 s.
    let GoLimits::Clock { max_move, .. } = limits else {
        panic!("a clock search, not {limits:?}");
    };
    assert_eq!(max_move, Some(std::time::Duration::from_millis(10_500)));
    // A stale reply from another search is ignored.
    reply(&mut app, id + 7, "e7e5");
    assert_eq!(sans(&app), "e4");
    reply(&mut app, id, "c7c5");
    assert_eq!(sans(&app), "e4 c5");
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!(p.clocks.running(), Some(Color::White));
    keys(&mut app, "u");
    assert_eq!(sans(&app), "");
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Autosave(_)))
    );
}

#[test]
fn takeback_while_the_engine_thinks_cancels_its_search() {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, "d4<Enter>");
    let (id, _, _) = take_go(&mut app).unwrap();
    keys(&mut app, "u");
    assert_eq!(sans(&app), "");
    assert!(app.searches().current().is_none());
    reply_ignored(&mut app, id);
}

fn reply_ignored(app: &mut App, id: u64) {
    let m = Position::startpos().parse_uci("e2e4").unwrap();
    update(
        app,
        Action::Engine(
            id,
            EngineEvent::BestMove {
                best: Some(m),
                ponder: None,
            },
        ),
    );
    assert_eq!(sans(app), "");
}

#[test]
fn engine_moves_first_when_the_player_is_black() {
    let mut app = playing_out_of_book(Color::Black);
    super::update::settle(&mut app);
    assert!(app.board().flipped());
    let (id, moves, _) = take_go(&mut app).expect("engine starts");
    assert!(moves.is_empty());
    reply(&mut app, id, "g1f3");
    assert_eq!(sans(&app), "Nf3");
    assert!(app.mode().component().can_move(&app));
}

#[test]
fn book_moves_are_played_without_search() {
    let app = playing(Color::Black);
    // The embedded book may be empty while it is being built; then the engine searches.
    if app.book_moves().is_empty() {
        return;
    }
    assert_eq!(app.game().len(), 1);
}

#[test]
fn typed_moves_san_uci_prefix_and_errors() {
    let mut app = playing(Color::White);
    keys(&mut app, "Nf<Tab>");
    assert_eq!(app.board().typed(), "Nf3");
    keys(&mut app, "<Esc>");
    assert!(app.board().typed().is_empty());
    keys(&mut app, "e9<Enter>");
    assert_eq!(app.message().unwrap().1, "e9 is not a square");
    assert_eq!(app.board().typed(), "e9");
    keys(&mut app, "<BS><BS>Qh5<Enter>");
    assert_eq!(app.message().unwrap().1, "Qh5 is not legal here");
    keys(&mut app, "<Esc>g1f3<Enter>");
    assert_eq!(sans(&app), "Nf3");
}

#[test]
fn a_refused_typed_move_is_replaced_by_the_next_one_typed() {
    let mut app = playing(Color::White);
    keys(&mut app, "e5<Enter>");
    assert_eq!(app.message().unwrap().1, "e5 is not legal here");
    assert_eq!(
        app.board().typed(),
        "e5",
        "kept on the line beside the error"
    );
    keys(&mut app, "e4");
    assert_eq!(app.board().typed(), "e4", "not e5e4");
    keys(&mut app, "<Enter>");
    assert_eq!(sans(&app), "e4");
}

#[test]
fn an_ambiguous_typed_move_names_the_candidates() {
    let pos = Position::from_fen("4k3/8/8/8/8/R6R/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        super::typed::parse_typed(&pos, "Rd3").unwrap_err(),
        "Rd3 is ambiguous: Rad3 or Rhd3"
    );
    let three = Position::from_fen("4k3/8/8/8/1N3N2/8/1N6/4K3 w - - 0 1").unwrap();
    assert_eq!(
        super::typed::parse_typed(&three, "Nd3").unwrap_err(),
        "Nd3 is ambiguous: N2d3, Nb4d3 or Nfd3"
    );
}

#[test]
fn typed_moves_forgive_lower_case_and_name_what_is_wrong() {
    let parse = |fen: &str, text: &str| {
        let pos = Position::from_fen(fen).unwrap();
        super::typed::parse_typed(&pos, text).map(|m| pos.san(m))
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(parse(start, "nf3"), Ok("Nf3".to_owned()));
    let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    assert_eq!(parse(italian, "bc4"), Ok("Bc4".to_owned()));
    let castle = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    assert_eq!(parse(castle, "o-o"), Ok("O-O".to_owned()));
    // A lower-case b is a pawn's file first: bxc3 takes with the pawn.
    let both = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";
    assert_eq!(parse(both, "bxc3"), Ok("bxc3".to_owned()));
    // The one legal move a lower-case prefix starts.
    assert_eq!(parse(start, "nf"), Ok("Nf3".to_owned()));
    assert_eq!(parse(start, "Ke9"), Err("e9 is not a square".to_owned()));
    assert_eq!(parse(start, "Ni3"), Err("i3 is not a square".to_owned()));
    assert_eq!(parse(start, "Ke2"), Err("Ke2 is not legal here".to_owned()));
}

#[test]
fn arrows_enter_and_mouse_pick_squares() {
    let mut app = playing_out_of_book(Color::White);
    // Cursor starts on e2: pick it up, go up two ranks, drop.
    keys(&mut app, "<Enter>");
    assert_eq!(app.board().selected(), Some(Square::E2));
    assert_eq!(app.destinations().len(), 2);
    keys(&mut app, "<Up><Up><Enter>");
    assert_eq!(sans(&app), "e4");
    let (id, _, _) = take_go(&mut app).unwrap();
    reply(&mut app, id, "e7e5");
    // Drag g1 to f3 with the mouse.
    let areas = super::layout::compute(ratatui::layout::Rect::new(0, 0, 100, 30), true);
    let g1 = areas.square_rect(Square::G1, false);
    let f3 = areas.square_rect(Square::F3, false);
    update(&mut app, Action::MouseDown(g1.x, g1.y));
    update(&mut app, Action::MouseUp(f3.x + 1, f3.y));
    assert_eq!(sans(&app), "e4 e5 Nf3");
    let (id, _, _) = take_go(&mut app).unwrap();
    reply(&mut app, id, "b8c6");
    // Click, click.
    let f1 = areas.square_rect(Square::F1, false);
    let c4 = areas.square_rect(Square::C4, false);
    update(&mut app, Action::MouseDown(f1.x, f1.y));
    update(&mut app, Action::MouseUp(f1.x, f1.y));
    update(&mut app, Action::MouseDown(c4.x, c4.y));
    assert_eq!(sans(&app), "e4 e5 Nf3 Nc6 Bc4");
}

#[test]
fn promotion_asks_for_the_piece() {
    let mut app = app();
    let pos = Position::from_fen("8/1P4k1/8/8/8/8/6K1/8 w - - 0 1").unwrap();
    super::start::enter_analyse_from(&mut app, pos);
    app.board_mut().set_cursor(Square::B7);
    keys(&mut app, "<Enter><Up><Enter>");
    assert!(matches!(app.overlay(), Some(Overlay::Promotion { .. })));
    keys(&mut app, "n");
    assert_eq!(sans(&app), "b8=N");
    // Typed promotions need no dialog.
    keys(&mut app, "k");
    keys(&mut app, "b8=R<Enter>");
    assert_eq!(sans(&app), "b8=N", "a second promotion is a variation");
    let shown = app.game().current_node();
    assert_eq!(app.game().tree().san(shown).as_deref(), Some("b8=R"));
}

#[test]
fn flip_resign_and_game_record() {
    let mut app = playing(Color::White);
    keys(&mut app, "r");
    assert!(app.board().flipped());
    keys(&mut app, "e4<Enter>");
    // Resigning asks first.
    ctrl(&mut app, 'r');
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "n");
    assert_eq!(app.game().end(), None);
    ctrl(&mut app, 'r');
    keys(&mut app, "y");
    assert_eq!(
        app.game().end(),
        Some(Ending::Resignation {
            winner: Color::Black
        })
    );
    let Mode::Play(p) = app.mode() else { panic!() };
    assert!(p.recorded);
    let written = app.effects().iter().find_map(|e| match e {
        Effect::SaveGame { game, append, .. } => Some((game.to_pgn(), *append)),
        _ => None,
    });
    let (pgn, append) = written.unwrap();
    assert!(append);
    assert!(pgn.contains("1. e4 {[%clk 0:05:0"), "{pgn}");
    assert!(pgn.contains("} 0-1"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[White \"Player\"]"), "{pgn}");
    assert!(app.searches().current().is_none());
    keys(&mut app, "d4<Enter>");
    assert_eq!(sans(&app), "e4");
}

#[test]
fn checkmate_ends_the_game() {
    let mut app = playing_out_of_book(Color::Black);
    for (engine, human) in [("f2f3", "e5"), ("g2g4", "Qh4#")] {
        let (id, _, _) = take_go(&mut app).unwrap();
        reply(&mut app, id, engine);
        keys(&mut app, &format!("{human}<Enter>"));
    }
    assert_eq!(app.game().end().unwrap().result(), GameResult::BlackWins);
    assert!(take_go(&mut app).is_none());
    assert!(app.message().unwrap().1.contains("checkmate"));
}

#[test]
fn flag_fall_and_draw_offer() {
    let mut app = playing_out_of_book(Color::White);
    start_play(
        &mut app,
        Position::startpos(),
        Color::White,
        "0.1".parse().unwrap(),
        20,
    );
    keys(&mut app, "e4<Enter>");
    app.set_now(app.now() + Duration::from_secs(7));
    update(&mut app, Action::Tick);
    assert_eq!(
        app.game().end(),
        Some(Ending::TimeForfeit {
            winner: Some(Color::White)
        })
    );
    let mut app = playing(Color::White);
    keys(&mut app, "e4<Enter>");
    ctrl(&mut app, 'd');
    assert!(app.game().end().is_none());
    // Once the engine thinks it is worse, it accepts.
    let node = main_node(&app, 1);
    app.game_mut().set_eval(node, Score::Cp(300));
    ctrl(&mut app, 'd');
    assert_eq!(app.game().end(), Some(Ending::Agreement));
}

#[test]
fn hint_searches_for_the_player() {
    let mut app = playing(Color::White);
    keys(&mut app, "t");
    assert_eq!(app.searches().current().unwrap().purpose, Purpose::Hint);
    let (id, _, limits) = take_go(&mut app).unwrap();
    assert!(matches!(limits, GoLimits::MoveTime(_)));
    reply(&mut app, id, "d2d4");
    assert_eq!(app.hint().map(|m| m.to()), Some(Square::D4));
    assert!(app.message().unwrap().1.contains("d4"));
    assert!(app.searches().current().is_none());
}

#[test]
fn quit_offers_to_save_an_unsaved_game() {
    let mut app = playing(Color::White);
    keys(&mut app, "q");
    assert!(app.quitting(), "nothing to save");
    let mut app = playing(Color::White);
    keys(&mut app, "e4<Enter>q");
    assert!(matches!(app.overlay(), Some(Overlay::ConfirmQuit)));
    keys(&mut app, "<Esc>");
    assert!(!app.quitting());
    ctrl(&mut app, 'c');
    keys(&mut app, "n");
    assert!(app.quitting());
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::ClearAutosave))
    );
    // Saved on the way out unfinished: it stays resumable, its autosave saying where it went.
    let mut app = playing(Color::White);
    keys(&mut app, "e4<Enter>q");
    app.take_effects();
    keys(&mut app, "y");
    assert!(app.quitting());
    assert!(app.effects().iter().any(|e| matches!(
        e,
        Effect::SaveGame {
            clears_autosave: false,
            resume: Some(_),
            ..
        }
    )));
}

/// Leaving a game in progress for another offers to save it first; saved so, it is not offered
/// for resuming (it was left for good).
#[test]
fn a_game_left_for_another_can_be_saved_first() {
    let mut app = playing(Color::White);
    keys(&mut app, "e4<Enter>");
    app.take_effects();
    keys(&mut app, ":play black<Enter>");
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "s");
    assert!(app.effects().iter().any(|e| matches!(
        e,
        Effect::SaveGame {
            append: true,
            clears_autosave: true,
            resume: None,
            ..
        }
    )));
    assert_eq!(app.human(), Some(Color::Black), "the new game started");
}

#[test]
fn analyse_mode_infinite_analysis_follows_navigation() {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, "e4<Enter>");
    let (id, _, _) = take_go(&mut app).unwrap();
    reply(&mut app, id, "e7e5");
    keys(&mut app, "<F2>");
    assert!(
        matches!(app.overlay(), Some(Overlay::Confirm(_))),
        "a game in progress asks"
    );
    keys(&mut app, "y ");
    assert!(matches!(app.mode(), Mode::Analyse(_)));
    assert!(app.has_unsaved_work(), "the stopped game is unsaved work");
    let (id, moves, limits) = take_go(&mut app).unwrap();
    assert_eq!((moves.len(), limits), (2, GoLimits::Infinite));
    let info = PvInfo {
        multipv: 1,
        depth: 12,
        score: Some(Score::Cp(35)),
        pv: vec![app.position().parse_uci("g1f3").unwrap()],
        ..PvInfo::default()
    };
    update(&mut app, Action::Engine(id, EngineEvent::Info(info)));
    assert_eq!(app.game().eval(main_node(&app, 2)), Some(Score::Cp(35)));
    assert_eq!(app.lines().for_position(app.position()).len(), 1);
    keys(&mut app, "k");
    assert_eq!(app.game().current_node(), main_node(&app, 1));
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Engine(EngineCommand::Stop)))
    );
    let (_, moves, _) = take_go(&mut app).unwrap();
    assert_eq!(moves, ["e2e4"]);
    // A move off the main line makes a variation.
    keys(&mut app, "c5<Enter>");
    assert_eq!(sans(&app), "e4 e5");
    assert_eq!(
        app.game().variation_start(app.game().current_node()),
        Some(app.game().current_node())
    );
    keys(&mut app, " ");
    assert!(app.searches().current().is_none());
}

#[test]
fn whole_game_analysis_walks_every_ply() {
    let mut app = app();
    super::start::enter_analyse_from(&mut app, Position::startpos());
    keys(&mut app, "e4<Enter>e5<Enter>");
    ctrl(&mut app, 'a');
    for ply in 0..=2 {
        let (id, moves, limits) = take_go(&mut app).unwrap();
        assert_eq!(moves.len(), ply);
        assert!(matches!(limits, GoLimits::MoveTime(_)));
        let info = PvInfo {
            multipv: 1,
            score: Some(Score::Cp(20 + 400 * (ply as i32 / 2))),
            ..PvInfo::default()
        };
        update(&mut app, Action::Engine(id, EngineEvent::Info(info)));
        update(
            &mut app,
            Action::Engine(
                id,
                EngineEvent::BestMove {
                    best: None,
                    ponder: None,
                },
            ),
        );
    }
    assert!(take_go(&mut app).is_none());
    assert_eq!(
        super::review::judge_move(app.game(), main_node(&app, 2)),
        Some(super::review::Judgement::Blunder)
    );
}

#[test]
fn setup_mode_edits_validates_and_hands_over() {
    let mut app = app();
    ctrl(&mut app, 'e');
    assert!(matches!(app.mode(), Mode::Setup(_)));
    keys(&mut app, "c<Enter>");
    let Mode::Setup(s) = app.mode() else { panic!() };
    assert!(s.error.as_ref().unwrap().contains("no king"));
    // Cursor starts on e1.
    keys(
        &mut app,
        "K<Up><Up><Up><Up><Up><Up><Up>k<Left><Left><Left><Left>r<Tab>",
    );
    keys(&mut app, "<Enter>");
    assert!(
        matches!(app.mode(), Mode::Analyse(_)),
        "{:?}",
        app.message()
    );
    assert_eq!(app.position().fen(), "r3k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn fen_prompt_keeps_bad_input_for_correction() {
    let mut app = app();
    keys(&mut app, ":fen 8/8/8 w - - 0 1<Enter>");
    assert!(app.prompt().current().is_some());
    assert!(app.message().unwrap().1.starts_with("bad FEN"));
    keys(&mut app, "<Esc>:fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1<Enter>");
    assert!(app.prompt().current().is_none());
    assert_eq!(app.position().fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    keys(&mut app, ":bogus<Enter>");
    assert!(app.message().unwrap().1.contains("unknown command"));
    keys(&mut app, ":play black 3+2 level 4<Enter>");
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!((p.human, p.level), (Color::Black, 4));
    assert_eq!(app.position().fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn new_game_dialog() {
    let mut app = playing(Color::White);
    // On the player's turn n starts a knight move; Enter alone makes it the key.
    keys(&mut app, "n");
    assert_eq!(app.board().typed(), "n");
    keys(&mut app, "<Enter>");
    assert!(matches!(app.overlay(), Some(Overlay::NewGame(_))));
    keys(&mut app, "<Right><Down><Right><Down><Left><Left><Enter>");
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!((p.human, p.level), (Color::Black, 18));
    assert_eq!(p.clocks.control().to_string(), "10+5");
    // The last field starts a random Chess960 game.
    keys(&mut app, "n");
    if matches!(app.overlay(), Some(Overlay::Confirm(_))) {
        keys(&mut app, "y");
    }
    keys(&mut app, "<Up><Right><Enter>");
    assert!(matches!(app.mode(), Mode::Play(_)));
    // Position 518 is the standard start, which needs no Variant tag.
    let standard = app.game().start().fen() == Position::startpos().fen();
    assert!(standard || app.game().headers().get("Variant") == Some("Chess960"));
}

/// The first run's welcome is the new-game dialog; what it starts is written into the config
/// file, which a second start reads back.
#[test]
fn the_welcome_keeps_the_choices_in_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let (config, _) = super::config::load(Some(&path));
    assert!(config.first_run);
    let mut app = App::new(config, Instant::now());
    super::start::open_welcome(&mut app);
    assert!(matches!(app.overlay(), Some(Overlay::NewGame(d)) if d.welcome));
    // Black, 10+5, level 19.
    keys(&mut app, "<Right><Down><Right><Down><Left><Enter>");
    let Mode::Play(p) = app.mode() else { panic!() };
    assert_eq!((p.human, p.level), (Color::Black, 19));
    let (again, errors) = super::config::load(Some(&path));
    assert!(errors.is_empty() && !again.first_run, "{errors:?}");
    assert_eq!(again.color, super::config::ColorChoice::Black);
    assert_eq!(again.level, 19);
    assert_eq!(again.time_control.to_string(), "10+5");
    // The rest of the file is the defaults' text, comments and all.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[display]") && text.contains("# MINUTES+INCREMENT_SECONDS"));
}

#[test]
fn help_overlay_takes_any_key() {
    let mut app = playing(Color::White);
    keys(&mut app, "?");
    assert!(matches!(app.overlay(), Some(Overlay::Help { .. })));
    keys(&mut app, "e");
    assert!(app.overlay().is_none());
    assert!(app.board().typed().is_empty());
    assert_eq!(
        app.config().keys.command("?".parse().unwrap()),
        Some(Command::Help)
    );
}

#[test]
fn fen_shown_and_fen_and_pgn_copied() {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, "e4<Enter>");
    let fen = app.position().fen();
    keys(&mut app, ":fen<Enter>");
    assert!(app.message().unwrap().1.starts_with(&fen));
    app.take_effects();
    keys(&mut app, "y");
    let copied: Vec<&String> = app
        .effects()
        .iter()
        .filter_map(|e| match e {
            Effect::Clipboard(text) => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(copied, [&fen]);
    app.take_effects();
    keys(&mut app, "Y");
    assert!(app.effects().iter().any(
        |e| matches!(e, Effect::Clipboard(pgn) if pgn.contains("1. e4") && pgn.contains("[White \"Player\"]"))
    ));
}

#[test]
fn theme_command_switches_the_board_colours() {
    let mut app = playing(Color::White);
    keys(&mut app, ":theme blue<Enter>");
    assert_eq!(app.config().theme.name, "blue");
    keys(&mut app, ":theme neon<Enter>");
    assert!(app.message().unwrap().1.contains("high-contrast"));
    assert_eq!(app.config().theme.name, "blue");
}

#[test]
fn play_960_starts_a_numbered_chess960_game_and_asks_over_unsaved_work() {
    let mut app = app();
    app.policy_mut().set_book(None);
    keys(&mut app, ":play white untimed 960 0<Enter>");
    assert!(matches!(app.mode(), Mode::Play(_)));
    assert_eq!(
        app.game().start().shredder_fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    assert_eq!(app.game().headers().get("Variant"), Some("Chess960"));
    assert!(app.message().unwrap().1.contains("position 0"));
    // A game in progress: :play asks first.
    keys(&mut app, "e4<Enter>");
    keys(&mut app, ":play 960<Enter>");
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "y");
    assert!(app.game().is_empty());
    assert_eq!(app.game().headers().get("Variant"), Some("Chess960"));
    keys(&mut app, ":play 960 960<Enter>");
    assert!(app.message().unwrap().1.contains("0 to 959"));
}

/// A move typed while the engine thinks is a premove: played once the engine has moved if it is
/// legal then, dropped with the reason if not; Esc cancels it.
#[test]
fn a_move_typed_during_the_engines_turn_is_a_premove() {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, "e4<Enter>");
    let (id, _, _) = take_go(&mut app).unwrap();
    keys(&mut app, "Nf3<Enter>");
    assert_eq!(sans(&app), "e4", "not played yet");
    assert!(app.message().unwrap().1.contains("premove Nf3"));
    reply(&mut app, id, "e7e5");
    assert_eq!(sans(&app), "e4 e5 Nf3");

    // Not legal once the engine has moved: dropped, saying why.
    let (id, _, _) = take_go(&mut app).unwrap();
    keys(&mut app, "Nc3<Enter>");
    reply(&mut app, id, "b8c6");
    let (id, _, _) = take_go(&mut app).unwrap();
    assert_eq!(sans(&app), "e4 e5 Nf3 Nc6 Nc3");
    keys(&mut app, "e5<Enter>");
    reply(&mut app, id, "g8f6");
    assert_eq!(sans(&app), "e4 e5 Nf3 Nc6 Nc3 Nf6");
    let (_, message) = app.message().cloned().unwrap();
    assert!(message.contains("premove dropped"), "{message}");

    // Esc cancels one.
    keys(&mut app, "Bb5<Enter>");
    let (id, _, _) = take_go(&mut app).unwrap();
    keys(&mut app, "a3<Enter><Esc>");
    assert!(app.message().unwrap().1.contains("cancelled"));
    reply(&mut app, id, "a7a6");
    assert_eq!(sans(&app), "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 a6");
}

/// In a game, `nf3` typed in lower case is played; `q` and `r` stay keys.
#[test]
fn lower_case_knight_moves_are_typed_in_a_game() {
    let mut app = playing_out_of_book(Color::White);
    keys(&mut app, "nf3<Enter>");
    assert_eq!(sans(&app), "Nf3");
    let (id, _, _) = take_go(&mut app).unwrap();
    reply(&mut app, id, "d7d5");
    keys(&mut app, "r");
    assert!(app.board().flipped(), "r flips at once");
    keys(&mut app, "q");
    assert!(
        matches!(app.overlay(), Some(Overlay::ConfirmQuit)),
        "q asks to quit at once"
    );
}
