//! Our Polyglot reader against python-chess's chess.polyglot on the shared books: the fixture
//! (scripts/gen_polyglot_fixture.py) lists, for positions from real games, every entry that
//! python-chess finds, in file order.

mod common;

use std::collections::HashMap;
use std::path::Path;

use kibitzer::book::Book;
use kibitzer::chess::Position;

const FIXTURE: &str = include_str!("fixtures/polyglot_probes.txt");

#[test]
fn probes_match_python_chess() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut books: HashMap<&str, Book> = HashMap::new();
    let (mut positions, mut moves) = (0, 0);
    for (n, line) in FIXTURE.lines().enumerate() {
        let mut fields = line.split('\t');
        let (name, fen, expected) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap_or(""),
        );
        let book = books.entry(name).or_insert_with(|| {
            Book::open(&Path::new(&shared).join("books").join(name)).expect("shared book opens")
        });
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {fen}: {e}", n + 1));
        let probe = book.probe_report(&pos);
        assert!(probe.illegal.is_empty(), "line {}: illegal entries", n + 1);
        let got: Vec<String> = probe
            .moves
            .iter()
            .map(|m| format!("{}:{}:{}", pos.uci(m.mv), m.weight, m.learn))
            .collect();
        assert_eq!(got.join(" "), expected, "line {}: {name} {fen}", n + 1);
        positions += 1;
        moves += got.len();
    }
    assert!(positions >= 1000, "fixture has {positions} positions");
    assert!(moves > 1000, "fixture has only {moves} book moves");
}

#[test]
fn lasker_trap_ends_in_knight_underpromotion() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let book = Book::open(&shared.join("books/lasker-trap.bin")).unwrap();
    let mut pos = Position::startpos();
    for san in "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2".split(' ') {
        pos = pos.play(pos.parse_san(san).unwrap()).unwrap();
    }
    let best = book.best(&pos).expect("book move");
    assert_eq!(pos.san(best.mv), "fxg1=N+");
}
