//! The play policy (`engines::policy`) is the one way our engines choose a move: the interface,
//! the UCI engine and annotate play (or recognise) the same book moves, and search with the
//! tables' root filter where there are tables.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kibitzer::analysis::{AnalysisEngine, Annotator};
use kibitzer::book::{Book, BuildOptions, Builder};
use kibitzer::chess::{Color, Move, Position, TbWdl};
use kibitzer::engine::{Engine, EngineOptions, SearchLimits};
use kibitzer::engines::policy::PlayPolicy;
use kibitzer::engines::service::EngineCommand;
use kibitzer::game::{TABLEBASE_CP, parse_all};
use kibitzer::tablebase::Tablebases;
use kibitzer::tui::app::{App, Effect};
use kibitzer::tui::config::Config;
use kibitzer::tui::start::start_play;
use kibitzer::tui::update::settle;
use kibitzer::uci::{self, Output};

/// A book of one drawn game, so each of its positions has exactly one move of weight 1.
const BOOK_GAME: &str = "[Result \"1/2-1/2\"]\n\n1. d4 Nf6 2. c4 e6 1/2-1/2\n";

fn one_line_book(dir: &Path) -> PathBuf {
    let mut builder = Builder::new(BuildOptions::default());
    builder
        .add_pgn(BOOK_GAME.as_bytes(), |e| panic!("{e}"))
        .unwrap();
    let path = dir.join("one-line.bin");
    builder.write(&path).unwrap();
    path
}

fn uci_move(pos: &Position, text: &str) -> Move {
    pos.parse_uci(text).unwrap()
}

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the UCI engine answers to the script.
fn uci_session(script: &str) -> String {
    let buf = Buffer::default();
    uci::run(script.as_bytes(), Output::new(buf.clone()));
    String::from_utf8(buf.0.lock().unwrap().clone()).unwrap()
}

/// The `kibitzer uci` binary's output for `lines`, up to its first `bestmove`.
fn uci_until_bestmove(lines: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        text.push_str(&line);
        text.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    text
}

fn best_moves(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn the_interface_the_uci_engine_and_annotate_play_the_same_book() {
    let dir = tempfile::tempdir().unwrap();
    let path = one_line_book(dir.path());
    let start = Position::startpos();

    // The interface: the engine has White and answers from the book without searching.
    let mut app = App::new(Config::default(), Instant::now());
    *app.policy_mut() = PlayPolicy::new(Some(Book::open(&path).unwrap()), None);
    start_play(
        &mut app,
        start.clone(),
        Color::Black,
        "5+3".parse().unwrap(),
        1,
    );
    settle(&mut app);
    assert_eq!(
        app.game().last_move().map(|(m, _)| m),
        Some(uci_move(&start, "d2d4"))
    );
    assert!(
        !app.effects()
            .iter()
            .any(|e| matches!(e, Effect::Engine(EngineCommand::Go { .. }))),
        "a book move is played without a search"
    );

    // The UCI engine, with the same file as its book.
    let book = path.display();
    let moves = best_moves(&uci_session(&format!(
        "uci\nsetoption name OwnBook value true\nsetoption name BookFile value {book}\n\
         position startpos\ngo wtime 1000 btime 1000\nisready\n\
         position startpos moves d2d4 g8f6\ngo wtime 1000 btime 1000\nisready\n"
    )));
    assert_eq!(moves, ["d2d4", "c2c4"]);

    // Annotate: the book's moves are book moves, the first other move leaves the book.
    let mut game = parse_all("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *\n")
        .remove(0)
        .game;
    let (engine, events) = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let policy = PlayPolicy::new(Some(Book::open(&path).unwrap()), None);
    let summary = Annotator::new(
        AnalysisEngine::Builtin(Box::new(engine)),
        events,
        SearchLimits::depth(3),
    )
    .annotate(&mut game, &policy, &AtomicBool::new(false));
    let book_moves: Vec<bool> = summary.moves.iter().map(|m| m.book).collect();
    assert_eq!(book_moves, [true, true, true, true, false, false]);
}

#[test]
fn the_uci_engine_and_annotate_search_with_the_tables() {
    let Some(syzygy) = common::shared_dir().map(|d| d.join("syzygy")) else {
        return;
    };
    // KRvK: a win whose mate no two-ply search sees.
    let fen = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let (tables, _) = Tablebases::open(syzygy.as_os_str()).unwrap();

    // The UCI engine with the tables: it plays a winning move, and its score is the tables'
    // win, in the band below the mates.
    let text = uci_until_bestmove(&[
        "uci",
        &format!("setoption name SyzygyPath value {}", syzygy.display()),
        &format!("position fen {fen}"),
        "go depth 2",
    ]);
    let best = best_moves(&text);
    assert_eq!(best.len(), 1, "{text}");
    let after = pos.play(uci_move(&pos, &best[0])).unwrap();
    assert_eq!(tables.probe_wdl(&after).unwrap(), TbWdl::Loss, "{text}");
    let last_score: i32 = text
        .lines()
        .rev()
        .filter_map(|l| l.split(" score cp ").nth(1))
        .find_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .expect("a centipawn score");
    assert!(last_score >= TABLEBASE_CP, "{text}");

    // Annotate with the same tables: the evaluation after the move is the tables' win.
    let mut game = parse_all(&format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n"))
        .remove(0)
        .game;
    let (engine, events) = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let summary = Annotator::new(
        AnalysisEngine::Builtin(Box::new(engine)),
        events,
        SearchLimits::depth(2),
    )
    .annotate(
        &mut game,
        &PlayPolicy::new(None, Some(tables)),
        &AtomicBool::new(false),
    );
    let eval = summary.moves[0].eval;
    assert!(eval.is_tablebase() && eval.as_cp() > 0, "{eval:?}");
}
