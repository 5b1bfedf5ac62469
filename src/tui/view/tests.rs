//! Rendering tests on ratatui's TestBackend at several sizes.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::chess::{Color, Square};

use crate::engines::service::PvInfo;
use crate::game::Score;
use crate::tui::app::App;
use crate::tui::layout;
use crate::tui::tests::{keys, main_node, playing, playing_out_of_book};

fn draw(app: &App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::render(app, f)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
    let mut s = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

fn symbol_at_square(app: &App, buf: &Buffer, sq: Square) -> String {
    let areas = layout::compute(buf.area, app.config().coordinates);
    let r = areas.square_rect(sq, app.board().flipped());
    buf[(r.x + r.width / 2, r.y + r.height / 2)]
        .symbol()
        .to_owned()
}

/// A short game with evaluations, engine lines and a move to show.
pub(crate) fn sample() -> App {
    let mut app = playing_out_of_book(Color::White);
    crate::tui::start::enter_analyse(&mut app);
    keys(
        &mut app,
        "e4<Enter>e5<Enter>Nf3<Enter>Nc6<Enter>Bb5<Enter>a6<Enter>",
    );
    for (ply, cp) in [20, 25, 30, 28, 35, 40, 400].into_iter().enumerate() {
        let node = main_node(&app, ply);
        app.game_mut().set_eval(node, Score::Cp(cp));
    }
    let root = app.position().clone();
    let line = PvInfo {
        multipv: 1,
        depth: 18,
        seldepth: 24,
        score: Some(Score::Cp(400)),
        nodes: 1_234_567,
        nps: 2_000_000,
        hashfull: 123,
        pv: vec![root.parse_uci("b5a4").unwrap()],
        ..PvInfo::default()
    };
    app.lines_mut().report(&root, line, 1);
    app
}

#[test]
fn board_move_list_engine_and_graph_at_several_sizes() {
    let mut app = sample();
    // One symbol a square, so each piece can be read back.
    app.config_mut().piece_art = false;
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let buf = draw(&app, w, h);
        let screen = text(&buf);
        assert_eq!(
            symbol_at_square(&app, &buf, Square::E1),
            "♚",
            "{w}x{h}\n{screen}"
        );
        assert_eq!(symbol_at_square(&app, &buf, Square::B5), "♝", "{w}x{h}");
        assert_eq!(symbol_at_square(&app, &buf, Square::A6), "♟", "{w}x{h}");
        assert_eq!(symbol_at_square(&app, &buf, Square::E2), " ", "{w}x{h}");
        assert!(
            screen.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6??"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("+4.00 4.Ba4"), "{w}x{h}\n{screen}");
        assert!(screen.contains("d18/24"), "{w}x{h}\n{screen}");
        assert!(screen.contains("Evaluation"), "{w}x{h}\n{screen}");
        assert!(
            screen
                .chars()
                .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
            "braille graph"
        );
        assert!(screen.contains("ANALYSE"));
    }
}

#[test]
fn flipped_ascii_and_no_color() {
    let mut app = sample();
    app.board_mut().flip();
    app.config_mut().ascii = true;
    app.set_colors(false);
    let buf = draw(&app, 80, 24);
    assert_eq!(symbol_at_square(&app, &buf, Square::E1), "K");
    assert_eq!(symbol_at_square(&app, &buf, Square::E8), "k");
    let areas = layout::compute(buf.area, true);
    // Flipped: h1 in the top-left corner.
    assert_eq!(
        areas.square_at(areas.board.x, areas.board.y, true),
        Some(Square::H1)
    );
    for y in 0..24 {
        for x in 0..80 {
            let c = &buf[(x, y)];
            assert_eq!(c.fg, ratatui::style::Color::Reset, "colour at {x},{y}");
            assert_eq!(c.bg, ratatui::style::Color::Reset, "colour at {x},{y}");
        }
    }
}

#[test]
fn highlights_selected_piece_and_destinations() {
    let mut app = playing(Color::White);
    keys(&mut app, "<Enter>");
    let buf = draw(&app, 80, 24);
    for sq in [Square::E3, Square::E4] {
        assert_eq!(symbol_at_square(&app, &buf, sq), "●");
    }
    let areas = layout::compute(buf.area, true);
    let e2 = areas.square_rect(Square::E2, false);
    let d2 = areas.square_rect(Square::D2, false);
    // The selected square is coloured apart from its neighbours.
    assert_ne!(buf[(e2.x + 1, e2.y)].bg, buf[(d2.x + 1, d2.y)].bg);
}

#[test]
fn overlays_prompts_and_tiny_terminals() {
    let mut app = playing(Color::White);
    for (input, expect) in [
        ("?", "Keys"),
        ("n<Enter>", "New game"),
        (":fen x", ":fen x"),
    ] {
        keys(&mut app, "<Esc>");
        keys(&mut app, input);
        let screen = text(&draw(&app, 80, 24));
        assert!(screen.contains(expect), "{input}\n{screen}");
        keys(&mut app, "<Esc>");
    }
    keys(&mut app, "<Esc>Nf");
    let screen = text(&draw(&app, 80, 24));
    assert!(screen.contains("move: Nf"), "{screen}");
    assert!(
        screen.contains("Nf3 Nh3") || screen.contains("Nf3"),
        "{screen}"
    );
    for (w, h) in [(1, 1), (20, 5), (40, 12), (300, 100)] {
        draw(&app, w, h);
    }
}

#[test]
#[ignore = "a timing: run with --ignored on a quiet machine"]
fn frame_render_time_at_200x60() {
    let app = sample();
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let frames = 200;
    let start = Instant::now();
    for _ in 0..frames {
        terminal.draw(|f| super::render(&app, f)).unwrap();
    }
    let per_frame = start.elapsed() / frames;
    eprintln!("render 200x60: {per_frame:?} per frame");
    // The bar is 2 ms; allow slack for a loaded test machine.
    assert!(per_frame.as_millis() < 20, "{per_frame:?}");
}

/// A game with a nested variation, NAGs and comments, shown inside the variation.
fn annotated() -> App {
    let mut app = crate::tui::tests::app();
    app.policy_mut().set_book(None);
    crate::tui::start::enter_analyse_from(&mut app, crate::chess::Position::startpos());
    keys(
        &mut app,
        "e4<Enter>c5<Enter>Nf3<Enter>d6<Enter>d4<Enter>cxd4<Enter><Home>j",
    );
    keys(&mut app, "e5<Enter>5;the classical reply<Enter>");
    keys(&mut app, "Nf3<Enter>Nc6<Enter>kNf6<Enter>Nxe5<Enter>4");
    app
}

#[test]
fn move_list_shows_variations_nags_and_comments() {
    let app = annotated();
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&app, w, h);
        let screen = text(&buf);
        assert!(screen.contains("1. e4 c5"), "{w}x{h}\n{screen}");
        for part in ["(1... e5!?", "the classical reply", "(2... Nf6 3. Nxe5??))"] {
            assert!(screen.contains(part), "{part} at {w}x{h}\n{screen}");
        }
        assert!(screen.contains("2. Nf3 d6"), "{w}x{h}\n{screen}");
        // The shown move, and only it, is highlighted.
        let marked: String = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&p| buf[p].bg == ratatui::style::Color::Rgb(60, 90, 160))
            .map(|p| buf[p].symbol().to_owned())
            .collect();
        assert_eq!(marked, "Nxe5", "{w}x{h}");
    }
}

/// The shown move's comment is shown whole: the list scrolls past the move to its last line,
/// as far as the move itself stays in view.
#[test]
fn the_shown_moves_long_comment_scrolls_into_view() {
    let mut app = knights_shuffling(15);
    let words = |n: usize| (1..=n).map(|i| format!("w{i}")).collect::<Vec<_>>();
    app.game_mut().set_comment(&words(24).join(" "));
    let screen = text(&draw(&app, 80, 24));
    assert!(screen.contains("30. Ng1 Ng8"), "{screen}");
    assert!(screen.contains("w24"), "{screen}");
    // A comment longer than the panel: the move stays, its comment runs off below.
    app.game_mut().set_comment(&words(400).join(" "));
    let screen = text(&draw(&app, 80, 24));
    assert!(
        screen.contains("30. Ng1 Ng8") && !screen.contains("w400"),
        "{screen}"
    );
}

/// Analysis of a game of knights going out and back `rounds` times (four plies a round).
fn knights_shuffling(rounds: usize) -> App {
    let mut app = crate::tui::tests::app();
    app.policy_mut().set_book(None);
    crate::tui::start::enter_analyse_from(&mut app, crate::chess::Position::startpos());
    for _ in 0..rounds {
        keys(&mut app, "Nf3<Enter>Nf6<Enter>Ng1<Enter>Ng8<Enter>");
    }
    app
}

#[test]
fn long_games_scroll_the_current_move_into_view() {
    let mut app = knights_shuffling(30);
    let screen = text(&draw(&app, 80, 24));
    assert!(screen.contains("60. Ng1 Ng8"), "{screen}");
    keys(&mut app, "<Home>");
    let screen = text(&draw(&app, 80, 24));
    assert!(screen.contains("1. Nf3 Nf6"), "{screen}");
    assert!(!screen.contains("60. Ng1"), "{screen}");
}

#[test]
fn a_game_against_the_engine_hides_its_judgement_until_the_end() {
    let mut app = sample();
    app.set_mode(playing(Color::White).mode().clone());
    let screen = text(&draw(&app, 120, 40));
    assert!(!screen.contains("+4.00"), "{screen}");
    assert!(!screen.contains("a6??"), "{screen}");
    assert!(
        screen.contains("lines hidden until the game ends"),
        "{screen}"
    );
    app.config_mut().show_engine_in_play = true;
    assert!(text(&draw(&app, 120, 40)).contains("+4.00 4.Ba4"));
    app.config_mut().show_engine_in_play = false;
    app.game_mut().adjudicate(crate::game::Ending::Resignation {
        winner: Color::Black,
    });
    let screen = text(&draw(&app, 120, 40));
    assert!(
        screen.contains("+4.00 4.Ba4") && screen.contains("a6??"),
        "{screen}"
    );
    // Lines for another position than the shown one are not shown.
    keys(&mut app, "k");
    assert!(!text(&draw(&app, 120, 40)).contains("4.Ba4"));
}

#[test]
fn analyse_mode_names_the_players_event_and_result() {
    let mut app = sample();
    let headers = app.game_mut().headers_mut();
    headers.set("White", "Carlsen, Magnus");
    headers.set("WhiteElo", "2863");
    headers.set("Black", "Caruana, Fabiano");
    headers.set("Event", "World Championship");
    headers.set("Result", "1/2-1/2");
    let screen = text(&draw(&app, 160, 40));
    assert!(
        screen.contains("Carlsen, Magnus (2863) - Caruana, Fabiano, World Championship, ½-½"),
        "{screen}"
    );
}

#[test]
fn help_scrolls_through_every_key_and_command_at_80x24() {
    let mut app = sample();
    keys(&mut app, "?");
    let first = text(&draw(&app, 80, 24));
    assert!(first.contains("Keys in analyse mode"), "{first}");
    assert!(first.contains("ctrl-z  undo the last edit"), "{first}");
    assert!(first.contains("lines 1-20 of"), "{first}");
    // Scrolled to the end: the last : command shows, and the board is still behind.
    keys(&mut app, "<End>");
    let last = text(&draw(&app, 80, 24));
    assert!(last.contains(":analyse-game"), "{last}");
    assert!(!last.contains("Keys in analyse mode"), "{last}");
    keys(&mut app, "x");
    assert!(app.overlay().is_none());
    // The hint at the bottom follows the mode.
    let bottom = text(&draw(&app, 160, 24));
    assert!(bottom.contains("space engine · u undo"), "{bottom}");
}

#[test]
fn the_opening_is_named_over_the_move_list() {
    let mut app = crate::tui::tests::app();
    app.policy_mut().set_book(None);
    crate::tui::start::enter_analyse_from(&mut app, crate::chess::Position::startpos());
    keys(
        &mut app,
        "e4<Enter>c5<Enter>Nf3<Enter>d6<Enter>d4<Enter>cxd4<Enter>Nxd4<Enter>Nf6<Enter>Nc3<Enter>a6<Enter>",
    );
    let screen = text(&draw(&app, 160, 40));
    assert!(
        screen.contains("B90 Sicilian Defense: Najdorf Variation"),
        "{screen}"
    );
    // Back at 2. Nf3 the name is the one of that position.
    keys(&mut app, "<Home>jjj");
    let screen = text(&draw(&app, 160, 40));
    assert!(
        screen.contains("Moves · B27 Sicilian Defense ─"),
        "{screen}"
    );
}

#[test]
fn the_engines_best_move_is_marked_on_the_board() {
    // sample(): the lines are for the shown position, best move Ba4 (b5-a4).
    let mut app = sample();
    let bg = |app: &App, sq| {
        let buf = draw(app, 120, 40);
        let areas = layout::compute(buf.area, true);
        let r = areas.square_rect(sq, false);
        buf[(r.x + 1, r.y)].bg
    };
    let marked = bg(&app, Square::A4);
    assert_ne!(
        marked,
        bg(&app, Square::C4),
        "a4 stands apart from a square like it"
    );
    // In a game against the engine it stays hidden.
    app.set_mode(playing(Color::White).mode().clone());
    assert_ne!(bg(&app, Square::A4), marked);
}

#[test]
fn stepping_into_the_engines_line_shows_its_positions() {
    // sample(): the line is 4. Ba4; make it 4. Ba4 Nf6.
    let mut app = sample();
    app.config_mut().piece_art = false;
    let after = app
        .position()
        .play(app.engine_best_move().unwrap())
        .unwrap();
    let nf6 = after.parse_san("Nf6").unwrap();
    app.lines_mut().first_pv_mut().unwrap().push(nf6);
    let hint = |app: &App| {
        let buf = draw(app, 120, 40);
        let areas = layout::compute(buf.area, true);
        let r = areas.square_rect(Square::F6, false);
        (
            buf[(r.x + 1, r.y)].bg,
            symbol_at_square(app, &buf, Square::A4),
            text(&buf),
        )
    };
    let (f6_before, a4_before, _) = hint(&app);
    // The best move, Ba4, is an arrow into the empty a4.
    assert_eq!(a4_before, "↙");
    keys(&mut app, "))");
    let (f6_marked, a4_now, screen) = hint(&app);
    // The board is after Ba4, with Nf6's squares marked; the game did not move.
    assert_eq!(a4_now, "♝");
    assert_ne!(f6_marked, f6_before);
    assert!(
        screen.contains("board at move 2 of the line: Nf6"),
        "{screen}"
    );
    assert_eq!(app.game().len(), 6);
    // Past the end it stays; escape goes back to the game's position.
    keys(&mut app, ")<Esc>");
    assert_eq!(app.lines().cursor(), 0);
    assert_eq!(hint(&app).1, "↙");
}

/// A click on a move of the list shows that move's position.
#[test]
fn clicking_a_move_in_the_list_shows_it() {
    let mut app = sample();
    app.resize(100, 30);
    let buf = draw(&app, 100, 30);
    let areas = layout::compute(buf.area, app.config().coordinates);
    // "Nf3" in the move list (right of the board).
    let (x, y) = (0..buf.area.height)
        .flat_map(|y| (areas.side.x..buf.area.width - 2).map(move |x| (x, y)))
        .find(|&(x, y)| (0..3).map(|i| buf[(x + i, y)].symbol()).collect::<String>() == "Nf3")
        .expect("Nf3 is in the list");
    crate::tui::update::update(&mut app, crate::tui::action::Action::MouseDown(x + 1, y));
    assert_eq!(app.game().current_node(), main_node(&app, 3));
    // The move number before it takes the click too; a blank cell right of the list nothing.
    crate::tui::update::update(&mut app, crate::tui::action::Action::MouseDown(x - 2, y));
    assert_eq!(app.game().current_node(), main_node(&app, 3));
    let shown = app.game().current_node();
    crate::tui::update::update(
        &mut app,
        crate::tui::action::Action::MouseDown(buf.area.width - 1, y),
    );
    assert_eq!(app.game().current_node(), shown);
}

/// A timed game's clocks stand above the move list: in large digits where the side column is
/// tall, on one line each where it is not; the engine's (Black's) on top, the player's below,
/// and a clock under 20 seconds in red.
#[test]
fn the_clocks_are_drawn_beside_the_board_and_red_when_low() {
    let mut app = playing(Color::White);
    let now = app.now();
    if let crate::tui::app::Mode::Play(p) = app.mode_mut() {
        p.clocks.set_remaining(crate::chess::ByColor {
            white: std::time::Duration::from_millis(12_300),
            black: std::time::Duration::from_secs(299),
        });
        p.clocks.start(Color::White, now);
    }
    let buf = draw(&app, 120, 40);
    let screen = text(&buf);
    let side = layout::compute(buf.area, app.config().coordinates).side;
    let line = |y: u16| screen.lines().nth(usize::from(y)).unwrap()[..].to_owned();
    assert!(line(side.y + 1).contains("Black engine"), "{screen}");
    assert!(line(side.y + 5).contains("▶ White you"), "{screen}");
    // 4:59 in large digits: the top row of 4, the colon and 5, 9.
    assert!(line(side.y).contains("╻ ╻ ╻ ┏━╸ ┏━┓"), "{screen}");
    let low = &buf[(side.x, side.y + 4)];
    assert_eq!(low.fg, ratatui::style::Color::Red);

    let small = text(&draw(&app, 80, 24));
    assert!(small.contains("4:59   Black engine"), "{small}");
    assert!(small.contains("12.3 ▶ White you"), "{small}");
    // Untimed: no clock panel.
    let mut untimed = playing(Color::White);
    crate::tui::start::enter_analyse(&mut untimed);
    assert!(!text(&draw(&untimed, 120, 40)).contains("White you"));
}

/// The engine's best move (here the player's hint) is drawn as arrows across the board.
#[test]
fn the_suggested_move_is_an_arrow_across_the_board() {
    let mut app = crate::tui::tests::app();
    app.policy_mut().set_book(None);
    crate::tui::start::enter_analyse_from(&mut app, crate::chess::Position::startpos());
    keys(&mut app, "e4<Enter>e5<Enter>");
    app.set_hint(Some(app.position().parse_uci("f1c4").unwrap()));
    let buf = draw(&app, 120, 40);
    for (sq, arrow) in [("e2", "↖"), ("d3", "↖"), ("c4", "↖")] {
        assert_eq!(
            symbol_at_square(&app, &buf, sq.parse().unwrap()),
            arrow,
            "{sq}"
        );
    }
    assert_ne!(symbol_at_square(&app, &buf, "b5".parse().unwrap()), "↖");
}
