//! End to end: the real binary in a tmux pane, with files: browsing and writing PGN, saves and
//! autosaves that survive a quit or a killed terminal, puzzles from an annotated game, the
//! explorer over a game database. Skipped when tmux is missing.

mod common;

use common::tmux::*;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Browse a PGN file, filter, open a game, make a variation, write it out, quit.
#[test]
fn browse_filter_open_annotate_and_write() {
    if tmux_missing() {
        return;
    }
    let (dir, cmd) = fresh_home("browse", "analyse games.pgn");
    let games = dir.join("games.pgn");
    std::fs::write(
        &games,
        "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Nf3 *\n\n\
         [White \"Carol\"]\n[Black \"Dave\"]\n[ECO \"D02\"]\n\n1. d4 d5 2. Nf3 Nf6 *\n\n\
         [White \"Erin\"]\n[Black \"Frank\"]\n\n1. e4 Ke7 2. Qxf7 *\n",
    )
    .unwrap();
    let out_file = dir.join("out.pgn");
    let s = Session::start("browse", 120, 32, &format!("cd {} && {cmd}", dir.display()));
    s.wait_for("the game list", |t| {
        t.contains("BROWSE") && t.contains("Carol") && t.contains("1 with errors")
    });
    // The background check names each game's opening from its moves.
    s.wait_for("the openings", |t| t.contains("C40 King's Knight Opening"));
    s.keys(&["d02"]);
    s.wait_for("the filtered list", |t| {
        t.contains("1 of 3 games") && !t.contains("Alice")
    });
    s.keys(&["Enter"]);
    s.wait_for("the opened game", |t| {
        t.contains("ANALYSE") && t.contains("1. d4 d5 2. Nf3 Nf6")
    });
    s.keys(&["j", "c", "5", "Enter"]);
    s.wait_for("the variation", |t| t.contains("(1... c5)"));
    s.keys(&["w"]);
    s.wait_for("the write prompt", |t| t.contains("Write PGN to"));
    s.keys(&[&out_file.display().to_string(), "Enter"]);
    s.wait_for("the save", |t| t.contains("saved to"));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("[White \"Carol\"]"), "{written}");
    assert!(
        written.contains("1. d4 d5 (1... c5) 2. Nf3 Nf6 *"),
        "{written}"
    );
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Play mode hides the engine's judgement; save-and-quit writes the unfinished game to the games
/// file and the next start offers it back, saying where it was saved; nothing on the way shows
/// an error.
#[test]
fn play_hides_the_engine_and_save_and_quit_resumes() {
    if tmux_missing() {
        return;
    }
    let (dir, cmd) = fresh_home("resume", "play --white --tc untimed");
    let s = Session::start("resume", 120, 36, &cmd);
    s.wait_for("the board", |t| {
        t.contains("PLAY") && t.contains("no moves yet")
    });
    s.keys(&["d", "4", "Enter"]);
    let screen = s.wait_for("the book reply", |t| {
        t.contains("1. d4 ") && t.contains("White to move")
    });
    assert!(!screen.contains("could not"), "{screen}");
    assert!(
        screen.contains("lines hidden until the game ends"),
        "{screen}"
    );
    s.keys(&["q"]);
    s.wait_for("the quit question", |t| t.contains("Save it as PGN"));
    s.keys(&["y"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let games_file = dir.join("data/kibitzer/games.pgn");
    let games = std::fs::read_to_string(&games_file).unwrap();
    assert!(games.contains("1. d4"), "{games}");
    assert!(autosave_file(&dir).is_some(), "the game stays resumable");
    drop(s);
    let (_, again) = fresh_home_keep(&dir, "");
    let s = Session::start("resume2", 120, 36, &again);
    s.wait_for("the offer", |t| {
        t.contains("Resume") && t.contains("unfinished game")
    });
    s.keys(&["y"]);
    let screen = s.wait_for("the resumed game", |t| {
        t.contains("PLAY") && t.contains("1. d4 ") && t.contains("saved unfinished in")
    });
    assert!(screen.contains("games.pgn"), "{screen}");
    s.keys(&["q", "n"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 44's third bar: a comment and a variation in analyse mode, the terminal killed, a new
/// start: the analysis is offered back with both.
#[test]
fn an_analysis_survives_a_killed_terminal() {
    if tmux_missing() {
        return;
    }
    let (dir, cmd) = fresh_home(
        "crash",
        "analyse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
    );
    let s = Session::start("crash", 120, 36, &cmd);
    s.wait_for("the board", |t| t.contains("ANALYSE"));
    s.keys(&["e", "4", "Enter", "e", "5", "Enter", "k", "c", "5", "Enter"]);
    s.wait_for("the variation", |t| t.contains("(1... c5)"));
    // tmux reads a bare ';' as its own command separator.
    s.keys(&["\\;"]);
    s.wait_for("the comment prompt", |t| t.contains("Comment:"));
    s.keys(&["the Sicilian", "Enter"]);
    s.wait_for("the comment", |t| t.contains("c5 the Sicilian"));
    let start = Instant::now();
    while !autosave_file(&dir)
        .and_then(|f| std::fs::read_to_string(f).ok())
        .is_some_and(|t| t.contains("the Sicilian"))
    {
        assert!(start.elapsed() < Duration::from_secs(10), "no autosave");
        sleep(Duration::from_millis(50));
    }
    // The terminal goes away with the program in it; wait until the process is gone.
    let file = autosave_file(&dir).unwrap();
    let pid = file
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .replace("autosave-", "");
    drop(s);
    let start = Instant::now();
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "kibitzer outlived its terminal"
        );
        sleep(Duration::from_millis(50));
    }
    let (_, again) = fresh_home_keep(&dir, "");
    let s = Session::start("crash2", 120, 36, &again);
    s.wait_for("the offer", |t| {
        t.contains("Resume") && t.contains("analysis")
    });
    s.keys(&["y"]);
    s.wait_for("the analysis back", |t| {
        t.contains("ANALYSE") && t.contains("(1... c5 the Sicilian)") && t.contains("resumed")
    });
    s.quit_discarding();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game `annotate` wrote opens in analyse mode and its blunder is solved as a puzzle: the
/// game's move is refused, the better move solved, and the end sums up.
#[test]
fn a_blunder_from_an_annotated_game_is_solved_as_a_puzzle() {
    if tmux_missing() {
        return;
    }
    let (dir, _) = fresh_home("learn", "");
    let game = dir.join("game.pgn");
    std::fs::write(
        &game,
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let annotated = dir.join("annotated.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(["annotate", "--depth", "8", "--threads", "1", "-o"])
        .arg(&annotated)
        .arg(&game)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The better move the engine named (g6 or Qf6, by its depth).
    let text = std::fs::read_to_string(&annotated).unwrap();
    let better = text
        .split("Blunder. ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no blunder found:\n{text}"))
        .to_owned();
    let (_, cmd) = fresh_home_keep(&dir, &format!("analyse '{}'", annotated.display()));
    let s = Session::start("learn", 120, 36, &cmd);
    // The file is read in the background: the game is in once its name is shown.
    s.wait_for("the game", |t| t.contains("annotated.pgn, game 1"));
    s.keys(&[":", "learn black", "Enter"]);
    s.wait_for("the puzzle", |t| {
        t.contains("puzzle 1 of 1: Black played Nf6?? here") && t.contains("LEARN")
    });
    s.keys(&["Nf6", "Enter"]);
    s.wait_for("the game's move refused", |t| {
        t.contains("Nf6 is the game's move")
    });
    s.keys(&[&better, "Enter"]);
    s.wait_for("the solution", |t| {
        t.contains(&format!("{better} is best!"))
    });
    s.keys(&["n"]);
    s.wait_for("the summary", |t| {
        t.contains("done: 1 puzzle: 0 solved at once, 1 after a retry")
    });
    s.keys(&["q", "n"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 44's first bar: in a 36-game file, game 14 marked and written back with `w`: the file
/// still holds 36 games, game 14 carries the mark, and the other 35 are byte for byte as they
/// were.
#[test]
fn writing_one_game_back_keeps_the_other_35() {
    if tmux_missing() {
        return;
    }
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let (dir, cmd) = fresh_home("inplace", "analyse immortal-games.pgn");
    let file = dir.join("immortal-games.pgn");
    std::fs::copy(shared.join("pgn/python-chess/immortal-games.pgn"), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    let s = Session::start(
        "inplace",
        120,
        36,
        &format!("cd {} && {cmd}", dir.display()),
    );
    s.wait_for("the game list", |t| {
        t.contains("BROWSE") && t.contains("36 games")
    });
    s.keys(&["bauer"]);
    s.wait_for("the filtered list", |t| t.contains("1 of 36 games"));
    s.keys(&["Enter"]);
    s.wait_for("game 14", |t| {
        t.contains("ANALYSE") && t.contains("game 14")
    });
    s.keys(&["j", "1", "w"]);
    s.wait_for("the write prompt", |t| t.contains("immortal-games.pgn"));
    s.keys(&["Enter"]);
    s.wait_for("the write", |t| t.contains("written back into"));
    let after = std::fs::read(&file).unwrap();
    let games = |bytes: &[u8]| -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        kibitzer::game::PgnReader::new(bytes)
            .for_each_raw(|raw| {
                out.push(raw.bytes.to_vec());
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        out
    };
    let (old, new) = (games(&before), games(&after));
    assert_eq!(new.len(), 36);
    for i in (0..36).filter(|&i| i != 13) {
        assert_eq!(old[i], new[i], "game {} changed", i + 1);
    }
    let game14 = kibitzer::game::parse_all(&String::from_utf8_lossy(&new[13])).remove(0);
    let first = game14.game.tree.mainline().next().unwrap();
    assert_eq!(game14.game.tree.node(first).nags, [kibitzer::game::Nag(1)]);
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 44's second bar: after ctrl-a, `q` asks and F3 asks; the game written afterwards
/// carries the evaluations and the marks.
#[test]
fn a_whole_game_analysis_is_not_thrown_away() {
    if tmux_missing() {
        return;
    }
    let (dir, cmd) = fresh_home("pass", "analyse scholar.pgn");
    std::fs::write(
        dir.join("scholar.pgn"),
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let s = Session::start("pass", 120, 36, &format!("cd {} && {cmd}", dir.display()));
    s.wait_for("the game", |t| t.contains("ANALYSE") && t.contains("Qxf7#"));
    s.keys(&["C-a"]);
    s.wait_for("the analysis", |t| t.contains("game analysed"));
    s.keys(&["q"]);
    s.wait_for("the quit question", |t| t.contains("Save it as PGN"));
    s.keys(&["Escape", "F3"]);
    s.wait_for("the browse question", |t| {
        t.contains("changes that are not saved")
    });
    s.keys(&["n", "w"]);
    s.wait_for("the write prompt", |t| t.contains("scholar.pgn"));
    s.keys(&["Enter"]);
    s.wait_for("the write", |t| t.contains("written back into"));
    let written = std::fs::read_to_string(dir.join("scholar.pgn")).unwrap();
    assert!(written.contains("[%eval"), "{written}");
    assert!(written.contains("3... Nf6 $4"), "{written}");
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database beside the board: the explorer shows the moves of the position with their games;
/// Enter plays one; the games list opens a game at the position reached.
#[test]
fn the_explorer_plays_a_move_and_opens_a_game_at_the_position() {
    if tmux_missing() {
        return;
    }
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let (dir, cmd) = fresh_home(
        "explorer",
        "analyse 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
    );
    let pgn = shared.join("pgn/python-chess/kasparov-deep-blue-1997.pgn");
    let db = dir.join("games.kdb");
    let (pgn, db_arg) = (pgn.to_string_lossy(), db.to_string_lossy());
    let out = common::kibitzer(&["db", "import", &pgn, "-o", &db_arg], &dir);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let config = dir.join("cfg/kibitzer");
    std::fs::create_dir_all(&config).unwrap();
    let toml = format!("[database]\npath = \"{}\"\n", db.display());
    std::fs::write(config.join("config.toml"), toml).unwrap();

    let s = Session::start("explorer", 120, 40, &cmd);
    // Kasparov-Deep Blue 1997: three of the six games began 1. e4 (the first row).
    let row = |t: &str, san: &str, games: &str| {
        t.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.windows(2).any(|w| w == [san, games])
        })
    };
    // A capture can catch a frame half drawn: wait for the rows themselves.
    s.wait_for("the explorer's rows", |t| {
        t.contains("Explorer: games.kdb")
            && t.contains("6 games")
            && row(t, "e4", "3")
            && row(t, "Nf3", "2")
    });
    s.keys(&["Tab", "Enter"]);
    let screen = s.wait_for("the first row played", |t| {
        t.contains("1. e4") && t.contains("Black to move") && t.contains("3 games")
    });
    assert!(!screen.contains("no moves yet"), "{screen}");
    s.keys(&["g"]);
    s.wait_for("the games list", |t| {
        t.contains("Games reaching this position") && t.contains("Deep Blue")
    });
    s.keys(&["Enter"]);
    s.wait_for("the question for the edited game", |t| {
        t.contains("not saved; they will be lost")
    });
    s.keys(&["y"]);
    let screen = s.wait_for("the game opened at the position", |t| {
        t.contains("vs") && t.contains("Black to move") && t.contains("2. ")
    });
    assert!(screen.contains("Kasparov"), "{screen}");
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}
