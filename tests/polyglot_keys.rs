//! The position hash is the Polyglot book key: the test positions published in the Polyglot
//! specification (../shared/spec/polyglot_book_format.html) hash to their published keys, both
//! when read from FEN and when reached by playing the moves.

mod common;

use kibitzer::chess::Position;

/// The `FEN=` / `key=` pairs of the specification's test data, in order.
fn published_keys() -> Option<Vec<(String, u64)>> {
    let text = common::read_shared("spec/polyglot_book_format.html")?;
    let mut pairs = Vec::new();
    let mut fen = None;
    for line in text.lines().map(str::trim) {
        if let Some(f) = line.strip_prefix("FEN=") {
            fen = Some(f.to_owned());
        } else if let Some(k) = line.strip_prefix("key=")
            && let Ok(key) = u64::from_str_radix(k, 16)
        {
            let fen = fen.take().expect("a key line follows its FEN line");
            pairs.push((fen, key));
        }
    }
    Some(pairs)
}

#[test]
fn test_positions_hash_to_published_keys() {
    let Some(pairs) = published_keys() else {
        return;
    };
    assert_eq!(pairs.len(), 9, "the specification lists 9 test positions");
    for (fen, key) in &pairs {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.hash(), *key, "{fen}: got {:016x}", pos.hash());
    }
}

#[test]
fn keys_agree_when_reached_by_moves() {
    let Some(pairs) = published_keys() else {
        return;
    };
    let by_fen = |i: usize| pairs[i].1;
    let lines: [(&[&str], usize); 8] = [
        (&["e2e4"], 1),
        (&["e2e4", "d7d5"], 2),
        (&["e2e4", "d7d5", "e4e5"], 3),
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 4),
        (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"], 5),
        (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"], 6),
        (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"], 7),
        (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"], 8),
    ];
    assert_eq!(Position::startpos().hash(), by_fen(0));
    for (moves, index) in lines {
        let mut pos = Position::startpos();
        for uci in moves {
            let m = pos.parse_uci(uci).unwrap();
            pos = pos.play(m).unwrap();
        }
        assert_eq!(pos.hash(), by_fen(index), "after {moves:?}");
        let published = Position::from_fen(&pairs[index].0).unwrap();
        // The specification's FENs keep the halfmove clock at 0 after king moves: compare EPDs.
        assert_eq!(pos.epd(), published.epd(), "after {moves:?}");
    }
}
