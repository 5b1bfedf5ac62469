//! Learning from mistakes, driven as the user and the engine would.

use crate::chess::{Color, Position};
use crate::engines::service::{EngineEvent, PvInfo};
use crate::game::Score;
use crate::tui::action::Action;
use crate::tui::app::{App, Mode};
use crate::tui::tests::{app, ctrl, keys, take_go};
use crate::tui::update::update;

use crate::tui::mode::{Attempt, PuzzleGrade, Solved};

/// Answers the search that was asked for with `score` (White's view) and `pv` (UCI); returns
/// the moves it was asked to search after.
fn answer(app: &mut App, score: Score, pv: &[&str]) -> Vec<String> {
    let (id, moves, _) = take_go(app).expect("a search was asked for");
    let mut pos = Position::startpos();
    for m in &moves {
        pos = pos.play(pos.parse_uci(m).unwrap()).unwrap();
    }
    let mut line = Vec::new();
    let mut at = pos.clone();
    for m in pv {
        let mv = at.parse_uci(m).unwrap();
        at = at.play(mv).unwrap();
        line.push(mv);
    }
    let info = PvInfo {
        multipv: 1,
        score: Some(score),
        pv: line.clone(),
        ..PvInfo::default()
    };
    update(app, Action::Engine(id, EngineEvent::Info(info)));
    let best = line.first().copied();
    update(
        app,
        Action::Engine(id, EngineEvent::BestMove { best, ponder: None }),
    );
    moves
}

/// The message on the status line.
fn message(app: &App) -> String {
    app.message().map(|m| m.1.clone()).unwrap_or_default()
}

/// The scholar's mate (1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#), analysed in the
/// interface: the engine saw g6 before the blunder.
pub(crate) fn analysed() -> App {
    let mut app = app();
    crate::tui::start::enter_analyse_from(&mut app, Position::startpos());
    keys(
        &mut app,
        "e4<Enter>e5<Enter>Bc4<Enter>Nc6<Enter>Qh5<Enter>Nf6<Enter>Qxf7<Enter>",
    );
    ctrl(&mut app, 'a');
    let scores = [20, 30, 30, 20, 30, 25];
    for cp in scores {
        let pv: &[&str] = if cp == 25 { &["g7g6", "h5d1"] } else { &[] };
        answer(&mut app, Score::Cp(cp), pv);
    }
    answer(&mut app, Score::Mate(1), &["h5f7"]);
    // The mated position at the end.
    answer(&mut app, Score::Mate(0), &[]);
    assert!(take_go(&mut app).is_none());
    app
}

fn state(app: &App) -> &super::LearnState {
    match app.mode() {
        Mode::Learn(l) => l,
        other => panic!("not learning: {other:?}"),
    }
}

#[test]
fn the_analysis_ends_with_annotates_summary() {
    let app = analysed();
    let text = message(&app);
    assert!(text.contains("accuracy White"), "{text}");
    // Words as written, whatever the line breaks.
    let game = app.game().to_game().to_pgn();
    let game = game.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        game.contains("Annotated by kibitzer. White: accuracy"),
        "{game}"
    );
    assert!(game.contains("1 blunders"), "{game}");
    // The blunder carries its note and the better line, as `annotate` writes it.
    assert!(game.contains("3... Nf6 $4"), "{game}");
    assert!(game.contains("Blunder. g6 was best."), "{game}");
    assert!(game.contains("(3... g6 4."), "{game}");
}

#[test]
fn a_marked_move_tells_what_was_better() {
    let mut app = analysed();
    keys(&mut app, "<Home>.");
    let text = message(&app);
    assert_eq!(text, "3... Nf6?? Blunder; better was 3...g6 4.Qd1");
}

#[test]
fn a_mistake_becomes_a_puzzle_graded_by_the_engine() {
    let mut app = analysed();
    keys(&mut app, ":learn black<Enter>");
    assert_eq!(state(&app).puzzles.len(), 1);
    assert_eq!(app.position().turn(), Color::Black);
    assert!(app.board().flipped());
    // Nothing after the puzzle's position is on show.
    assert!(app.engine_hidden());
    // The game's own move is recognised without a search.
    keys(&mut app, "Nf6<Enter>");
    assert_eq!(
        state(&app).attempt,
        Attempt::Graded(
            app.position().parse_san("Nf6").unwrap(),
            PuzzleGrade::GameMove
        )
    );
    assert!(take_go(&mut app).is_none());
    // Another move goes to the engine, which finds it still loses.
    keys(&mut app, "d6<Enter>");
    answer(&mut app, Score::Mate(1), &["h5f7"]);
    assert!(matches!(
        state(&app).attempt,
        Attempt::Graded(_, PuzzleGrade::Still(_))
    ));
    // A retry with a move about as good as the best solves it.
    keys(&mut app, "u");
    keys(&mut app, "Qe7<Enter>");
    let moves = answer(&mut app, Score::Cp(40), &[]);
    assert_eq!(moves.last().map(String::as_str), Some("d8e7"));
    assert!(matches!(
        state(&app).attempt,
        Attempt::Graded(_, PuzzleGrade::Good)
    ));
    assert_eq!(state(&app).results, [Solved::AfterRetry]);
    // The game was not touched, and the end sums up.
    keys(&mut app, "n");
    assert!(matches!(app.mode(), Mode::Analyse(_)));
    let text = message(&app);
    assert!(
        text.contains("1 puzzle: 0 solved at once, 1 after a retry"),
        "{text}"
    );
    assert_eq!(app.game().len(), 7);
}

#[test]
fn the_better_move_is_best_at_once_and_show_tells_the_line() {
    let mut app = analysed();
    keys(&mut app, ":learn black<Enter>g6<Enter>");
    assert!(take_go(&mut app).is_none());
    assert_eq!(state(&app).results, [Solved::FirstTry]);

    let mut app = analysed();
    keys(&mut app, ":learn black<Enter>t");
    assert_eq!(state(&app).results, [Solved::Missed]);
    let text = message(&app);
    assert!(text.contains("g6 4.Qd1"), "{text}");
    assert_eq!(app.hint(), Some(app.position().parse_san("g6").unwrap()));
    // Moving through the game would give answers away.
    keys(&mut app, "j");
    assert_eq!(app.game().ply(app.game().current_node()), 5);
}

#[test]
fn white_made_no_mistake_to_learn_from() {
    let mut app = analysed();
    keys(&mut app, ":learn white<Enter>");
    assert!(matches!(app.mode(), Mode::Analyse(_)));
    keys(&mut app, ":learn purple<Enter>");
    let text = message(&app);
    assert!(text.contains("white or black"), "{text}");
}
