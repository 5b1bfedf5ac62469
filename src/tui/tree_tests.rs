//! Update tests for the game tree and PGN files: variations, promotion and deletion,
//! comments and NAGs, browsing a file, opening a game, saving and appending.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::chess::Position;
use crate::game::index::load_entry_with_bytes;
use crate::game::{GameIndex, Nag, NodeId, PgnReader, parse_all};

use super::action::Action;
use super::app::{App, Effect, Mode, Overlay, PromptKind};
use super::library::LibraryEvent;
use super::start::enter_analyse_from;
use super::tests::{app, ctrl, keys, main_node, sans};
use super::update::update;

fn analysing(moves: &str) -> App {
    let mut app = app();
    app.policy_mut().set_book(None);
    enter_analyse_from(&mut app, Position::startpos());
    keys(&mut app, moves);
    app
}

fn shown_san(app: &App) -> String {
    app.game()
        .tree()
        .san(app.game().current_node())
        .unwrap_or_default()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitzer-tui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Carries out the queued saves the way the event loop does.
fn run_saves(app: &mut App) {
    for effect in app.take_effects() {
        if let Effect::SaveGame {
            path,
            game,
            append,
            origin,
            ..
        } = effect
        {
            if let Some(origin) = origin {
                let event = match crate::game::replace_game(&origin, &game) {
                    Ok(bytes) => {
                        let at = crate::game::GameOrigin { bytes, ..*origin };
                        LibraryEvent::Written(Box::new(at), true)
                    }
                    Err(e) => LibraryEvent::NotWritten {
                        message: e.to_string(),
                        changed: Some(origin),
                    },
                };
                update(app, Action::Library(event));
            } else if append {
                crate::game::append_game(&path, &game).unwrap();
            } else {
                crate::game::save_games(&path, [&*game]).unwrap();
            }
        }
    }
}

#[test]
fn moves_off_the_main_line_make_variations_to_walk_promote_and_delete() {
    let mut app = analysing("e4<Enter>e5<Enter>Nf3<Enter>k");
    assert_eq!(shown_san(&app), "e5");
    keys(&mut app, "Nc3<Enter>");
    assert_eq!(sans(&app), "e4 e5 Nf3", "the main line stays");
    assert_eq!(shown_san(&app), "Nc3");
    assert!(!app.game().is_saved());
    // Alternatives of the shown move, and back out of the variation.
    keys(&mut app, "[");
    assert_eq!(shown_san(&app), "Nf3");
    keys(&mut app, "]");
    assert_eq!(shown_san(&app), "Nc3");
    keys(&mut app, "]");
    assert!(app.message().unwrap().1.contains("last alternative"));
    keys(&mut app, "Nc6<Enter><Lt>");
    assert_eq!(shown_san(&app), "Nf3", "left the variation");
    // The same move again enters the existing variation instead of adding one.
    keys(&mut app, "kNc3<Enter>");
    let e5 = main_node(&app, 2);
    assert_eq!(app.game().tree().node(e5).children().len(), 2);
    keys(&mut app, "p");
    assert_eq!(sans(&app), "e4 e5 Nc3 Nc6");
    keys(&mut app, "[");
    assert_eq!(shown_san(&app), "Nc3");
    keys(&mut app, "]x");
    assert_eq!(app.game().current_node(), e5, "Nf3 deleted; back before it");
    assert_eq!(app.game().tree().node(e5).children().len(), 1);
    keys(&mut app, "x");
    assert!(app.message().unwrap().1.contains("main line"));
    // A variation two levels deep made the main line at once.
    keys(&mut app, "<Home>jd5<Enter>exd5<Enter>Qxd5<Enter>P");
    assert_eq!(sans(&app), "e4 d5 exd5 Qxd5");
    // X cuts the shown move and what follows; u undoes that, U redoes it.
    keys(&mut app, "kX");
    assert_eq!(sans(&app), "e4 d5");
    assert_eq!(shown_san(&app), "d5");
    keys(&mut app, "u");
    assert_eq!(sans(&app), "e4 d5 exd5 Qxd5");
    keys(&mut app, "U");
    assert_eq!(sans(&app), "e4 d5");
}

#[test]
fn every_edit_can_be_undone_and_redone() {
    let mut app = analysing("e4<Enter>e5<Enter>Nf3<Enter>Nc6<Enter>Bb5<Enter>");
    // As a game read from a file: saved, nothing to undo.
    app.game_mut().mark_saved();
    app.undo_history().clear();
    let whole = sans(&app);
    // A variation, a mark, a comment, a promotion, a deletion: ten steps back restore the game.
    keys(&mut app, "kkd6<Enter>1;solid<Enter>p");
    assert_eq!(sans(&app), "e4 e5 Nf3 d6");
    keys(&mut app, "<Home>jjX");
    assert_eq!(sans(&app), "e4");
    for _ in 0..5 {
        keys(&mut app, "u");
    }
    assert_eq!(sans(&app), whole);
    assert!(app.game().is_saved(), "back to the saved state");
    keys(&mut app, "u");
    assert!(app.message().unwrap().1.contains("nothing to undo"));
    // Redo walks forward again, and ctrl-z/ctrl-y do the same as u/U.
    keys(&mut app, "UUUUU");
    assert_eq!(sans(&app), "e4");
    ctrl(&mut app, 'z');
    assert_eq!(sans(&app), "e4 e5 Nf3 d6");
    assert_eq!(app.game().comment(), "");
    ctrl(&mut app, 'y');
    assert_eq!(sans(&app), "e4");
    // A new edit after an undo drops what could be redone.
    keys(&mut app, "uBc4<Enter>");
    keys(&mut app, "U");
    assert!(app.message().unwrap().1.contains("nothing to redo"));
}

#[test]
fn replacing_an_edited_game_asks_first() {
    let mut app = analysing("e4<Enter>e5<Enter>");
    assert!(!app.game().is_saved());
    keys(&mut app, "n");
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "<Esc>");
    assert!(app.overlay().is_none());
    assert_eq!(sans(&app), "e4 e5");
    // A FEN typed at the prompt waits for the answer too.
    keys(&mut app, ":fen 8/8/8/8/8/k7/8/K7 w - - 0 1<Enter>");
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "n");
    assert_eq!(sans(&app), "e4 e5");
    keys(&mut app, ":fen 8/8/8/8/8/k7/8/K7 w - - 0 1<Enter>y");
    assert!(app.game().is_empty());
    // Nothing unsaved: no question.
    keys(&mut app, "n");
    assert!(matches!(app.overlay(), Some(Overlay::NewGame(_))));
}

#[test]
fn comments_and_nags_on_the_shown_move() {
    let mut app = analysing("d4<Enter>d5<Enter>");
    keys(&mut app, ";");
    assert_eq!(app.prompt().current().unwrap().kind, PromptKind::Comment);
    keys(&mut app, "solid<Enter>");
    assert_eq!(app.game().comment(), "solid");
    // The prompt starts from the comment, to edit it.
    keys(&mut app, ";");
    assert_eq!(app.prompt().current().unwrap().text(), "solid");
    keys(&mut app, " and sound<Enter>");
    assert_eq!(app.game().comment(), "solid and sound");
    let d5 = app.game().current_node();
    keys(&mut app, "5");
    assert_eq!(app.game().tree().node(d5).nags, [Nag::SPECULATIVE]);
    keys(&mut app, "4");
    assert_eq!(
        app.game().tree().node(d5).nags,
        [Nag::BLUNDER],
        "one assessment"
    );
    keys(&mut app, "4");
    assert!(
        app.game().tree().node(d5).nags.is_empty(),
        "again clears it"
    );
    keys(&mut app, "3;<Esc>");
    assert_eq!(app.game().comment(), "solid and sound", "esc keeps it");
    let pgn = app.game().to_game().to_pgn();
    assert!(pgn.contains("1. d4 d5 $3 {solid and sound} *"), "{pgn}");
    // Play mode does not annotate.
    let mut play = super::tests::playing(crate::chess::Color::White);
    keys(&mut play, "1");
    assert!(play.message().unwrap().1.contains("analyse mode"));
}

#[test]
fn save_and_append_round_trip() {
    let dir = temp_dir("save");
    let path = dir.join("analysis.pgn");
    let mut app = analysing("e4<Enter>c5<Enter>ke5<Enter>1;open<Enter><Home>");
    keys(&mut app, "w");
    assert_eq!(app.prompt().current().unwrap().kind, PromptKind::WriteAs);
    keys(&mut app, &format!("{}<Enter>", path.display()));
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::SaveGame { append: false, .. }))
    );
    assert!(app.game().is_saved());
    run_saves(&mut app);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("1. e4 c5 (1... e5 $1 {open}) *"), "{text}");
    let back = parse_all(&text);
    assert_eq!(back.len(), 1);
    assert!(back[0].is_ok(), "{:?}", back[0].errors);
    assert!(back[0].game.tree.same_as(app.game().tree()));
    // Writing again over a file of games asks first: r replaces it. Appending adds a game.
    keys(&mut app, &format!(":write {}<Enter>", path.display()));
    assert!(matches!(
        app.overlay(),
        Some(Overlay::Confirm(super::dialog::Pending::Overwrite {
            games: 1,
            ..
        }))
    ));
    keys(&mut app, "r");
    run_saves(&mut app);
    super::tests::ctrl(&mut app, 's');
    assert_eq!(app.prompt().current().unwrap().kind, PromptKind::SaveAs);
    keys(&mut app, "<Esc>");
    keys(&mut app, &format!(":save {}<Enter>", path.display()));
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::SaveGame { append: true, .. }))
    );
    run_saves(&mut app);
    let back = parse_all(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(|g| g.game.tree.same_as(app.game().tree())));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_comment_with_a_closing_brace_survives_a_save_and_a_reload() {
    let dir = temp_dir("brace");
    let path = dir.join("brace.pgn");
    let mut app = analysing("e4<Enter>");
    keys(&mut app, ";see {this} } and that<Enter>");
    keys(&mut app, &format!(":write {}<Enter>", path.display()));
    run_saves(&mut app);
    let back = parse_all(&std::fs::read_to_string(&path).unwrap());
    assert!(back[0].is_ok(), "{:?}", back[0].errors);
    let e4 = back[0].game.tree.mainline().next().unwrap();
    let comment = back[0].game.tree.node(e4).comment_after.clone().unwrap();
    assert_eq!(comment.text, "see {this} } and that");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Indexes `path` and checks its games as the background jobs would, feeding the results in.
fn open_file(app: &mut App, path: &Path) {
    keys(app, "o");
    assert_eq!(app.prompt().current().unwrap().kind, PromptKind::OpenPgn);
    keys(app, &format!("{}<Enter>", path.display()));
    assert!(
        app.effects()
            .iter()
            .any(|e| matches!(e, Effect::IndexPgn(p) if p == path)),
        "{:?}",
        app.effects()
    );
    app.take_effects();
    let index = GameIndex::build(path)
        .map(Arc::new)
        .map_err(|e| e.to_string());
    update(
        app,
        Action::Library(LibraryEvent::Indexed(path.to_owned(), index)),
    );
    let games: Vec<_> = PgnReader::open(path).unwrap().map(Result::unwrap).collect();
    let errors = games
        .iter()
        .filter_map(|g| Some((g.number, g.errors.first()?.to_string())))
        .collect();
    let warnings = games
        .iter()
        .filter(|g| g.errors.is_empty())
        .filter_map(|g| Some((g.number, g.warnings.first()?.kind.to_string())))
        .collect();
    update(
        app,
        Action::Library(LibraryEvent::Checked {
            path: path.to_owned(),
            upto: 3,
            errors,
            warnings,
            openings: Vec::new(),
            done: true,
        }),
    );
}

/// Reads the game a `LoadGame` effect asks for and feeds it in.
fn load_requested(app: &mut App) {
    let Some(Effect::LoadGame { path, entry }) = app
        .effects()
        .iter()
        .find(|e| matches!(e, Effect::LoadGame { .. }))
        .cloned()
    else {
        panic!("no game requested: {:?}", app.effects());
    };
    app.take_effects();
    let game = load_entry_with_bytes(&path, &entry)
        .map(|(parsed, bytes)| {
            let origin = crate::game::GameOrigin {
                path: path.clone(),
                number: entry.number,
                offset: entry.offset,
                bytes,
            };
            Box::new((parsed, origin))
        })
        .map_err(|e| e.to_string());
    update(
        app,
        Action::Library(LibraryEvent::Loaded(path, entry.number, game)),
    );
}

#[test]
fn browse_filters_as_you_type_and_opens_games() {
    let dir = temp_dir("browse");
    let path = dir.join("games.pgn");
    std::fs::write(
        &path,
        "[Event \"Club\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[ECO \"B20\"]\n\n1. e4 c5 2. Nf3 *\n\n\
         [Event \"Open\"]\n[White \"Carol\"]\n[Black \"Alice\"]\n[Result \"1-0\"]\n\n1. d4 Nf6 2. Qxh7 1-0\n\n\
         [Event \"Club\"]\n[White \"Dave\"]\n[Black \"Erin\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
    let mut app = analysing("");
    open_file(&mut app, &path);
    assert!(matches!(app.mode(), Mode::Browse));
    let lib = app.library().unwrap();
    assert_eq!(lib.matches.len(), 3);
    assert_eq!(lib.errors.len(), 1, "the illegal Qxh7 is found");
    assert!(lib.errors[&2].contains("Qxh7"), "{:?}", lib.errors);
    // Letters filter (case-insensitive, every word somewhere in the row).
    keys(&mut app, "alice");
    assert_eq!(app.library().unwrap().matches.len(), 2);
    keys(&mut app, " open");
    assert_eq!(app.library().unwrap().matches, [1]);
    keys(&mut app, "<BS><BS><BS><BS><BS>");
    assert_eq!(app.library().unwrap().matches.len(), 2);
    keys(&mut app, "<Esc>b20");
    assert_eq!(app.library().unwrap().matches, [0], "ECO too");
    keys(&mut app, "<Esc><End><Enter>");
    load_requested(&mut app);
    assert!(matches!(app.mode(), Mode::Analyse(_)));
    assert_eq!(sans(&app), "f3 e5 g4 Qh4#");
    assert_eq!(
        app.game().current_node(),
        NodeId::ROOT,
        "opened at the start"
    );
    assert_eq!(
        app.game().end().unwrap().result(),
        crate::game::GameResult::BlackWins
    );
    // Back to the list, and a bad game opens up to its error, which is shown.
    keys(&mut app, "<F3>");
    assert!(matches!(app.mode(), Mode::Browse));
    keys(&mut app, "<Up><Enter>");
    load_requested(&mut app);
    assert_eq!(sans(&app), "d4 Nf6");
    let (_, message) = app.message().cloned().unwrap();
    assert!(message.contains("Qxh7"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_of_one_game_opens_it_and_a_missing_file_is_an_error() {
    let mut app = analysing("");
    let Some(path) =
        crate::test_data::shared_path("pgn/python-chess/variations-nags-and-comments.pgn")
    else {
        return;
    };
    open_file(&mut app, &path);
    load_requested(&mut app);
    assert!(matches!(app.mode(), Mode::Analyse(_)));
    assert!(
        app.game().tree().move_count() > app.game().len(),
        "variations read"
    );
    let missing = Path::new("/nonexistent/x.pgn");
    let index = GameIndex::build(missing)
        .map(Arc::new)
        .map_err(|e| e.to_string());
    update(
        &mut app,
        Action::Library(LibraryEvent::Indexed(missing.to_owned(), index)),
    );
    assert!(app.message().unwrap().1.contains("could not read"));
    assert!(
        matches!(app.mode(), Mode::Analyse(_)),
        "the game stays open"
    );
}

#[test]
fn clicking_the_graph_jumps_to_that_move() {
    let mut app = analysing("e4<Enter>e5<Enter>Nf3<Enter>Nc6<Enter>");
    let area = ratatui::layout::Rect::new(0, 0, app.size().0, app.size().1);
    let graph = super::view::side_panels(&app, &super::layout::compute(area, true)).graph;
    update(&mut app, Action::MouseDown(graph.x, graph.y + 2));
    assert_eq!(app.game().current_node(), NodeId::ROOT);
    update(&mut app, Action::MouseUp(graph.x, graph.y + 2));
    let middle = graph.x + (graph.width - 1) / 2;
    update(&mut app, Action::MouseDown(middle, graph.bottom() - 1));
    assert_eq!(app.game().current_node(), main_node(&app, 2));
    update(&mut app, Action::MouseDown(graph.right() - 1, graph.y + 1));
    assert_eq!(app.game().current_node(), main_node(&app, 4));
    // In a variation the graph follows its line.
    keys(&mut app, "kkkd5<Enter>");
    update(&mut app, Action::MouseDown(graph.right() - 1, graph.y + 1));
    assert_eq!(shown_san(&app), "d5");
}

/// Timing on a big file (run by hand: `cargo test --release big_file -- --ignored --nocapture`).
#[test]
#[ignore]
fn big_file_index_filter_and_check_times() {
    let legal = crate::test_data::shared_path("pgn/pgn-reader/legal.pgn")
        .map(|p| std::fs::read_to_string(p).unwrap())
        .expect("../shared holds the file this timing reads");
    let dir = temp_dir("big");
    let path = dir.join("big.pgn");
    let copies = 2_000;
    std::fs::write(&path, format!("{legal}\n\n").repeat(copies)).unwrap();
    let bytes = std::fs::metadata(&path).unwrap().len();
    let start = std::time::Instant::now();
    let index = GameIndex::build(&path).unwrap();
    let indexed = start.elapsed();
    let games = index.len();
    let mut app = analysing("");
    update(
        &mut app,
        Action::Library(LibraryEvent::Indexed(path.clone(), Ok(Arc::new(index)))),
    );
    let start = std::time::Instant::now();
    keys(&mut app, "p");
    let first_key = start.elapsed();
    let start = std::time::Instant::now();
    keys(&mut app, "enguin");
    let narrowing = start.elapsed();
    let start = std::time::Instant::now();
    keys(&mut app, "<Esc>");
    let cleared = start.elapsed();
    let start = std::time::Instant::now();
    let bad = PgnReader::open(&path)
        .unwrap()
        .filter(|g| !g.as_ref().unwrap().is_ok())
        .count();
    let checked = start.elapsed();
    eprintln!(
        "{games} games, {:.0} MB: index {indexed:?}, first filter key {first_key:?}, \
         six more keys {narrowing:?}, clear {cleared:?}, check all {checked:?} ({bad} bad)",
        bytes as f64 / 1e6
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn written_games_keep_the_evaluations_and_marks_shown() {
    let mut app = analysing("e4<Enter>e5<Enter>Qh5<Enter>Nc6<Enter>Bc4<Enter>Nf6<Enter>");
    for (ply, cp) in [
        (0, 20),
        (1, 30),
        (2, 25),
        (3, 0),
        (4, 10),
        (5, 30),
        (6, 900),
    ] {
        let node = main_node(&app, ply);
        app.game_mut().set_eval(node, crate::game::Score::Cp(cp));
    }
    // The user's own mark on Nc6 stays; Nf6?? is marked by the evaluations.
    keys(&mut app, "<Home>jjjj2");
    let pgn = app.game().to_game().to_pgn();
    let back = parse_all(&pgn).remove(0).game;
    let tree = &back.tree;
    let nodes: Vec<NodeId> = tree.mainline().collect();
    let eval = |i: usize| {
        tree.node(nodes[i])
            .comment_after
            .as_ref()
            .and_then(|c| c.eval())
            .map(|e| e.score)
    };
    assert_eq!(eval(5), Some(crate::game::Score::Cp(900)), "{pgn}");
    assert_eq!(eval(0), Some(crate::game::Score::Cp(30)), "{pgn}");
    assert_eq!(tree.node(nodes[5]).nags, [Nag(4)], "{pgn}");
    assert!(pgn.contains("Blunder."), "{pgn}");
    assert_eq!(tree.node(nodes[3]).nags, [Nag(2)], "the user's mark: {pgn}");
}

#[test]
fn an_edit_that_changes_nothing_keeps_the_redo() {
    let mut app = analysing("e4<Enter>e5<Enter>Nf3<Enter>");
    keys(&mut app, "X");
    assert_eq!(sans(&app), "e4 e5");
    keys(&mut app, "u");
    // On the main line: nothing to promote, nothing remembered, the cut can still be redone.
    keys(&mut app, "p");
    assert!(app.message().unwrap().1.contains("nothing to promote"));
    keys(&mut app, "U");
    assert_eq!(sans(&app), "e4 e5");
}

/// `w` on a game opened from a file of several writes it back in place: the file keeps every
/// game, the others byte for byte, and the list still opens the games after it.
#[test]
fn writing_a_game_back_replaces_only_it_in_its_file() {
    let dir = temp_dir("inplace");
    let path = dir.join("five.pgn");
    let mut text = String::new();
    for n in 1..=5 {
        text.push_str(&format!(
            "[Event \"E{n}\"]\n[Round \"{n}\"]\n\n1. e4   e5 2. Nf3 {{  spaced  }} Nc6 *\n\n"
        ));
    }
    std::fs::write(&path, &text).unwrap();
    let mut app = analysing("");
    open_file(&mut app, &path);
    keys(&mut app, "<Down><Down><Enter>");
    load_requested(&mut app);
    assert_eq!(app.game().headers().get("Event"), Some("E3"));
    keys(&mut app, "jj1");
    assert!(app.has_unsaved_work());
    keys(&mut app, "w");
    assert_eq!(
        app.prompt().current().unwrap().text(),
        path.display().to_string()
    );
    keys(&mut app, "<Enter>");
    run_saves(&mut app);
    assert!(!app.has_unsaved_work());
    let after = std::fs::read_to_string(&path).unwrap();
    let games = parse_all(&after);
    assert_eq!(games.len(), 5);
    let e5 = games[2].game.tree.mainline().nth(1).unwrap();
    assert_eq!(games[2].game.tree.node(e5).nags, [Nag::GOOD]);
    let old: Vec<&str> = text.split_inclusive("*\n\n").collect();
    for i in [0, 1, 3, 4] {
        assert!(after.contains(old[i]), "game {} changed:\n{after}", i + 1);
    }
    assert!(after.starts_with(old[0]) && after.ends_with(old[4]));
    // The list follows the new offsets: game 4 opens, and a second write goes back in place.
    keys(&mut app, "<F3>");
    keys(&mut app, "<Down><Enter>");
    load_requested(&mut app);
    assert_eq!(app.game().headers().get("Event"), Some("E4"));
    keys(&mut app, "j2w<Enter>");
    run_saves(&mut app);
    let games = parse_all(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(games.len(), 5);
    assert_eq!(games[2].game.tree.node(e5).nags, [Nag::GOOD]);
    let e4 = games[3].game.tree.mainline().next().unwrap();
    assert_eq!(games[3].game.tree.node(e4).nags, [Nag::MISTAKE]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The whole-game analysis is unsaved work: leaving asks, and offers to save it.
#[test]
fn a_whole_game_analysis_is_unsaved_work() {
    let mut app = analysing("e4<Enter>e5<Enter>");
    app.game_mut().mark_saved();
    assert!(!app.has_unsaved_work());
    ctrl(&mut app, 'a');
    let id = app.searches().current().expect("the pass searches").id;
    let node = app.searches().current().unwrap().node;
    let info = crate::engines::service::PvInfo {
        multipv: 1,
        score: Some(crate::game::Score::Cp(30)),
        ..Default::default()
    };
    app.take_effects();
    update(
        &mut app,
        Action::Engine(id, crate::engines::service::EngineEvent::Info(info)),
    );
    assert_eq!(app.game().eval(node), Some(crate::game::Score::Cp(30)));
    assert!(
        !app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Autosave(_))),
        "an engine report alone writes no autosave"
    );
    assert!(app.has_unsaved_work());
    keys(&mut app, "q");
    assert!(matches!(app.overlay(), Some(Overlay::ConfirmQuit)));
    keys(&mut app, "<Esc><F3>");
    assert!(
        matches!(app.overlay(), Some(Overlay::Confirm(_))),
        "F3 asks too"
    );
}

/// A Result tag that contradicts the moves: marked in the list, said when the game opens, and
/// asked about before writing.
#[test]
fn a_result_tag_against_the_moves_is_shown_and_asked_about() {
    let dir = temp_dir("result");
    let path = dir.join("two.pgn");
    let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n\n[Event \"b\"]\n\n1. d4 *\n";
    std::fs::write(&path, text).unwrap();
    let mut app = analysing("");
    open_file(&mut app, &path);
    let lib = app.library().unwrap();
    assert!(
        lib.warnings[&1].contains("Result tag \"1-0\""),
        "{:?}",
        lib.warnings
    );
    keys(&mut app, "<Enter>");
    load_requested(&mut app);
    let message = &app.message().unwrap().1;
    assert!(message.contains("movetext ends with 0-1"), "{message}");
    assert!(
        !message.contains("up to it"),
        "the whole game is loaded: {message}"
    );
    keys(&mut app, "w<Enter>");
    assert!(matches!(
        app.overlay(),
        Some(Overlay::Confirm(
            super::dialog::Pending::ResultConflict { .. }
        ))
    ));
    keys(&mut app, "m");
    run_saves(&mut app);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("[Result \"0-1\"]") && after.contains("1. e4 e5 0-1"),
        "{after}"
    );
    assert!(after.ends_with("[Event \"b\"]\n\n1. d4 *\n"), "{after}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The file changed under the game: nothing is written, the work stays unsaved, and the
/// question offers to append it instead.
#[test]
fn a_file_changed_since_the_game_was_read_is_not_overwritten() {
    let dir = temp_dir("changed");
    let path = dir.join("two.pgn");
    std::fs::write(
        &path,
        "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let mut app = analysing("");
    open_file(&mut app, &path);
    keys(&mut app, "<Enter>");
    load_requested(&mut app);
    keys(&mut app, "j1");
    let edited = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    std::fs::write(&path, edited).unwrap();
    keys(&mut app, "w<Enter>");
    run_saves(&mut app);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        edited,
        "nothing written"
    );
    assert!(app.has_unsaved_work());
    assert!(matches!(
        app.overlay(),
        Some(Overlay::Confirm(super::dialog::Pending::Changed(_)))
    ));
    keys(&mut app, "a");
    run_saves(&mut app);
    let games = parse_all(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(games.len(), 3);
    assert!(games[2].game.to_pgn().contains("1. e4 $1 *"));
    std::fs::remove_dir_all(&dir).unwrap();
}
