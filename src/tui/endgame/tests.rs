//! Endgame mode and the tablebase panel, driven by actions with the probes run in place of the
//! worker thread; tables from ../shared/syzygy (skipped where absent).

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::engines::service::EngineCommand;
use crate::tablebase::tests::shared_tables;
use crate::tui::action::Action;
use crate::tui::app::{Effect, Reference};
use crate::tui::moves::make_move;
use crate::tui::tablebase::TbPanel;
use crate::tui::tests::{app, keys};
use crate::tui::update::update;

fn trainer_app() -> Option<App> {
    let tables = shared_tables()?;
    let mut app = app();
    app.policy_mut().set_book(None);
    *app.tb_mut() = TbPanel::with_tables(tables);
    Some(app)
}

/// Carries out the probe requests the way the worker thread would.
fn run_probes(app: &mut App) {
    loop {
        let mut asked = Vec::new();
        for effect in app.take_effects() {
            match effect {
                Effect::Tablebase(pos) => asked.push(*pos),
                other => app.effect(other),
            }
        }
        if asked.is_empty() {
            return;
        }
        for pos in asked {
            let answer = app
                .tb()
                .tables
                .as_ref()
                .unwrap()
                .view(&pos)
                .map_err(|e| e.to_string());
            update(app, Action::Tablebase(Box::new(pos), answer));
        }
    }
}

fn state(app: &App) -> &EndgameState {
    match app.mode() {
        Mode::Endgame(e) => e,
        other => panic!("not in endgame mode: {other:?}"),
    }
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::tui::view::render(app, f)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

#[test]
fn material_command_starts_a_won_drill() {
    let Some(mut app) = trainer_app() else {
        return;
    };
    keys(&mut app, ":endgame KQvK<Enter>");
    let e = state(&app);
    let pos = app.position().clone();
    assert_eq!(pos.turn(), e.user);
    assert_eq!(Material::of(&pos, e.user).to_string(), "KQvK");
    let tables = app.tb().tables.clone().unwrap();
    assert_eq!(tables.probe_wdl(&pos).unwrap(), TbWdl::Win);
    assert_eq!(app.reference(), Reference::Trainer);
    // The engine stays idle: the defender is the tables.
    assert!(
        !app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Engine(EngineCommand::Go { .. })))
    );
    // n: another position of the same material.
    keys(&mut app, "n");
    assert_eq!(state(&app).material.as_ref().unwrap().to_string(), "KQvK");
    // Bad input is an error in the status line, and the drill goes on.
    keys(&mut app, ":endgame KZvK<Enter>");
    assert!(app.message().unwrap().1.contains("neither a material"));
    assert!(matches!(app.mode(), Mode::Endgame(_)));
}

#[test]
fn a_thrown_win_is_graded_and_summed_up() {
    let Some(mut app) = trainer_app() else {
        return;
    };
    // White Kc6 and Rh7 against Ka8: Ra7+ gives the rook away.
    keys(&mut app, ":endgame k7/7R/2K5/8/8/8/8/8 w - - 0 1<Enter>");
    run_probes(&mut app);
    keys(&mut app, "Ra7<Enter>");
    let msg = &app.message().unwrap().1;
    assert!(msg.contains("Ra7+?: win thrown to a draw"), "{msg}");
    run_probes(&mut app);
    // The defender takes the rook; the game is a draw and the summary says so.
    let sans: Vec<String> = app
        .game()
        .mainline()
        .filter_map(|n| app.game().tree().san(n))
        .collect();
    assert_eq!(sans, ["Ra7+", "Kxa7"]);
    // The grade is a NAG in the record too.
    let first = app.game().mainline().next().unwrap();
    assert_eq!(
        app.game().tree().node(first).nags,
        [crate::game::Nag::MISTAKE]
    );
    let summary = state(&app).summary.clone().expect("drill over");
    assert_eq!((summary.moves, summary.best, summary.dropped), (1, 0, 1));
    assert!(!summary.converted());
    assert!(
        app.message()
            .unwrap()
            .1
            .contains("Draw by insufficient material")
    );
    // The panel shows the tables again once the drill is over.
    assert_eq!(app.reference(), Reference::Tablebase);
    // Takeback reopens the drill.
    keys(&mut app, "u");
    assert!(app.game().is_empty());
    assert!(state(&app).summary.is_none());
}

#[test]
fn best_play_converts_within_the_fifty_move_rule() {
    let Some(mut app) = trainer_app() else {
        return;
    };
    keys(&mut app, ":endgame 8/8/8/3k4/8/8/8/K6R w - - 0 1<Enter>");
    run_probes(&mut app);
    for _ in 0..100 {
        if app.game().end().is_some() {
            break;
        }
        let pos = app.position().clone();
        let best = app
            .tb()
            .answer(&pos)
            .unwrap()
            .as_ref()
            .unwrap()
            .ranking
            .moves[0]
            .mv;
        make_move(&mut app, best);
        crate::tui::update::settle(&mut app);
        run_probes(&mut app);
    }
    let summary = state(&app).summary.clone().expect("mated");
    assert!(summary.converted(), "{summary}");
    assert_eq!(summary.best, summary.moves);
    // Every defender move came from the tables, every user move was graded.
    let e = state(&app);
    assert_eq!(e.grades.len(), app.game().len().div_ceil(2));
}

#[test]
fn hint_shows_the_tables_best_move() {
    let Some(mut app) = trainer_app() else {
        return;
    };
    keys(&mut app, ":endgame k7/8/1K6/8/8/8/8/2Q5 w - - 0 1<Enter>");
    keys(&mut app, "t");
    assert!(app.message().unwrap().1.starts_with("hint: Qc8#"));
}

#[test]
fn tablebase_panel_lists_every_move() {
    let Some(mut app) = trainer_app() else {
        return;
    };
    keys(&mut app, ":fen k7/8/1K6/8/8/8/8/2Q5 w - - 0 1<Enter>");
    assert_eq!(app.reference(), Reference::Tablebase);
    assert!(screen(&app, 100, 30).contains("probing..."));
    run_probes(&mut app);
    for (w, h) in [(100, 30), (160, 50), (80, 24)] {
        let text = screen(&app, w, h);
        assert!(text.contains("Tablebase: White: win"), "{w}x{h}\n{text}");
        assert!(
            text.contains("Qc8#") && text.contains("checkmate"),
            "{w}x{h}\n{text}"
        );
    }
    let text = screen(&app, 160, 50);
    assert!(text.contains("stalemate"), "{text}");
    // Without tables the panel says why, and nothing is probed.
    *app.tb_mut() = TbPanel::none("no tablebases: put Syzygy files in tablebases".into());
    crate::tui::update::settle(&mut app);
    assert!(
        !app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Tablebase(_)))
    );
    assert!(screen(&app, 100, 30).contains("no tablebases"));
}

#[test]
fn configured_engine_is_used_and_dropped_after_a_crash() {
    let mut app = app();
    app.config_mut().engines = vec![crate::engines::external::EngineSpec {
        name: "sf".into(),
        path: "/usr/games/stockfish".into(),
        args: Vec::new(),
        options: Vec::new(),
        protocol: Default::default(),
    }];
    app.config_mut().analysis = "sf".into();
    crate::tui::start::enter_analyse(&mut app);
    app.take_effects();
    keys(&mut app, " ");
    // Each search names its engine.
    let engines = |app: &App| -> Vec<Option<String>> {
        app.effects()
            .iter()
            .filter_map(|e| match e {
                Effect::Engine(EngineCommand::Go { engine, .. }) => {
                    Some(engine.as_ref().map(|s| s.name.clone()))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(engines(&app), [Some("sf".to_owned())]);
    let id = app.searches().current().unwrap().id;
    app.take_effects();
    update(
        &mut app,
        Action::Engine(
            id,
            crate::engines::service::EngineEvent::Lost("engine 'sf' stopped working".into()),
        ),
    );
    assert!(app.message().unwrap().1.contains("stopped working"));
    // The analysis goes on: asked again, the engine service has the built-in engine answer,
    // and says so.
    assert_eq!(engines(&app), [Some("sf".to_owned())]);
    let id = app.searches().current().unwrap().id;
    update(
        &mut app,
        Action::Engine(
            id,
            crate::engines::service::EngineEvent::Engine(
                crate::engines::service::ENGINE_NAME.into(),
            ),
        ),
    );
    assert_eq!(app.lines().engine(), crate::engines::service::ENGINE_NAME);
    // :engine sf gives it another chance.
    app.take_effects();
    keys(&mut app, ":engine sf<Enter>");
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Engine(EngineCommand::Retry(n)) if n == "sf"))
    );
    keys(&mut app, ":engine nosuch<Enter>");
    assert!(app.message().unwrap().1.contains("no engine 'nosuch'"));
}
