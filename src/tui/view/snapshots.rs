//! Snapshots of the main screens at 80x24, 120x40 and 200x60 (the characters drawn; colours are
//! checked by the other view tests), so that every visual change shows in a review's diff.
//! After an intended change: `INSTA_UPDATE=always cargo test --release --lib snapshots`, then
//! read the new `.snap` files before committing them.

use std::path::Path;
use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::chess::{Color, Position};
use crate::game::GameIndex;
use crate::tui::action::Action;
use crate::tui::app::{App, Mode};
use crate::tui::clock::TimeControl;
use crate::tui::library::LibraryEvent;
use crate::tui::tests::{app, keys};
use crate::tui::update::update;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

/// The screen as text, one line per row, trailing spaces cut.
fn screen(app: &App, (w, h): (u16, u16)) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::render(app, f)).unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let row: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn snapshot_at_every_size(name: &str, mut app: App) {
    for size in SIZES {
        app.resize(size.0, size.1);
        let text = screen(&app, size);
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), text);
    }
}

#[test]
fn play() {
    let mut app = app();
    crate::tui::start::start_play(
        &mut app,
        Position::startpos(),
        Color::White,
        TimeControl::Untimed,
        20,
    );
    keys(&mut app, "e4<Enter>");
    snapshot_at_every_size("play", app);
}

#[test]
fn analyse_with_engine_lines() {
    snapshot_at_every_size("analyse", super::tests::sample());
}

#[test]
fn browse() {
    // A path relative to the package, so that it reads the same in every checkout.
    let dir = Path::new("target/snapshot-data");
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(
        &path,
        "[Event \"Club\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
         [Event \"Open\"]\n[White \"Carol\"]\n[Black \"Dave\"]\n[Result \"0-1\"]\n\n1. d4 Nf6 2. Qxh7 0-1\n\n\
         [Event \"Club\"]\n[White \"Erin\"]\n[Black \"Frank\"]\n[Result \"1-0\"]\n\n1. c4 e5 1/2-1/2\n",
    )
    .unwrap();
    let mut app = app();
    let index = GameIndex::build(&path)
        .map(Arc::new)
        .map_err(|e| e.to_string());
    update(
        &mut app,
        Action::Library(LibraryEvent::Indexed(path.clone(), index)),
    );
    update(
        &mut app,
        Action::Library(LibraryEvent::Checked {
            path,
            upto: 3,
            errors: vec![(
                2,
                "game 2, line 11: 2. Qxh7 is not legal in this position".into(),
            )],
            warnings: vec![(
                3,
                "Result tag \"1-0\" but the movetext ends with 1/2-1/2".into(),
            )],
            openings: Vec::new(),
            done: true,
        }),
    );
    assert!(matches!(app.mode(), Mode::Browse));
    keys(&mut app, "<Down><Down>");
    snapshot_at_every_size("browse", app);
}

#[test]
fn endgame() {
    if crate::test_data::shared_path("syzygy").is_none() {
        return;
    }
    let mut app = app();
    app.config_mut().tablebase_path =
        crate::test_data::shared_path("syzygy").map(|p| p.display().to_string());
    *app.tb_mut() = crate::tui::tablebase::TbPanel::open(app.config());
    crate::tui::endgame::start(&mut app, "8/8/8/4k3/8/8/8/4K2R w - - 0 1");
    assert!(
        matches!(app.mode(), Mode::Endgame(_)),
        "{:?}",
        app.message()
    );
    snapshot_at_every_size("endgame", app);
}

#[test]
fn learn() {
    let mut app = crate::tui::learn::tests::analysed();
    keys(&mut app, ":learn black<Enter>");
    assert!(matches!(app.mode(), Mode::Learn(_)));
    snapshot_at_every_size("learn", app);
}
