//! The book builder: the committed default book is exactly what the builder makes of
//! books/openings.pgn, and books built from real games read back cleanly.

mod common;

use std::borrow::Cow;
use std::path::Path;

use kibitzer::book::{Book, BuildOptions, Builder, ColorFilter, WeightScheme};
use kibitzer::chess::Position;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The options of `kibitzer book build books/openings.pgn -o books/kibitzer.bin --max-ply 16
/// --weights count` (README, "Opening books").
fn default_book_options() -> BuildOptions {
    BuildOptions {
        max_ply: 16,
        min_games: 1,
        color: ColorFilter::Both,
        weights: WeightScheme::Count,
    }
}

fn build(files: &[&Path], options: BuildOptions) -> (Vec<u8>, Vec<String>) {
    let mut builder = Builder::new(options);
    let mut warnings = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).unwrap();
        builder
            .add_pgn(std::io::BufReader::new(file), |error| {
                warnings.push(format!("{}, {error}", path.display()))
            })
            .unwrap();
    }
    let bytes = builder
        .entries()
        .iter()
        .flat_map(|e| e.to_bytes())
        .collect();
    (bytes, warnings)
}

#[test]
fn default_book_rebuilds_byte_for_byte() {
    let pgn = Path::new(ROOT).join("books/openings.pgn");
    let (bytes, warnings) = build(&[&pgn], default_book_options());
    assert!(
        warnings.is_empty(),
        "every repertoire line must be legal: {warnings:?}"
    );
    let committed = std::fs::read(Path::new(ROOT).join("books/kibitzer.bin")).unwrap();
    assert!(
        bytes == committed,
        "books/kibitzer.bin is stale: rebuild it with `kibitzer book build books/openings.pgn \
         -o books/kibitzer.bin --max-ply 16 --weights count`"
    );
}

#[test]
fn default_book_covers_the_main_openings() {
    let book = Book::embedded();
    let start = Position::startpos();
    let ucis: Vec<String> = book.probe(&start).iter().map(|m| start.uci(m.mv)).collect();
    for first in ["e2e4", "d2d4", "c2c4", "g1f3"] {
        assert!(
            ucis.contains(&first.to_string()),
            "{first} missing: {ucis:?}"
        );
    }
    // Every line keeps a book move for 16 plies: walk a Najdorf.
    let mut pos = start;
    for san in "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6".split(' ') {
        assert!(
            book.probe(&pos).iter().any(|m| pos.san(m.mv) == san),
            "{san}"
        );
        pos = pos.play(pos.parse_san(san).unwrap()).unwrap();
    }
    assert!(!book.probe(&pos).is_empty());
}

#[test]
fn books_from_real_games_read_back() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let files = [
        shared.join("pgn/pgn-reader/legal.pgn"),
        shared.join("pgn/pgn-reader/illegal.pgn"),
        shared.join("pgn/python-chess/kasparov-deep-blue-1997.pgn"),
    ];
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let options = BuildOptions {
        max_ply: 12,
        ..BuildOptions::default()
    };
    let (bytes, warnings) = build(&paths, options);
    // Illegal games are skipped with a reason naming the game and line; the rest still counts.
    assert!(!warnings.is_empty());
    assert!(warnings.iter().all(|w| w.contains("line")), "{warnings:?}");
    let book = Book::from_bytes(Cow::Owned(bytes), "built").unwrap();
    assert!(book.len() > 500);
    let start = Position::startpos();
    let moves = book.probe(&start);
    assert!(moves.iter().all(|m| m.weight > 0));
    assert!(book.probe_report(&start).illegal.is_empty());
}
