//! Differential test against shakmaty: positions reached by seeded random play from the start
//! position and from the Chess960 start positions of ../shared/epd/perft/frcperftsuite.epd must
//! agree on legal moves (UCI), check, SAN, FEN (X-FEN and Shredder-FEN), the Polyglot key and
//! the game-end rules.

mod common;

use kibitzer::chess::check::CheckSquares;
use kibitzer::chess::{CastlingMode, GenType, MoveList, Position, UciMove};
use shakmaty as sm;
use shakmaty::Position as _;

/// How many compared positions had each kind of special move or ending, so the test can show
/// that random play reached them.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    castling: usize,
    en_passant: usize,
    promotion: usize,
    checkmate: usize,
    stalemate: usize,
    insufficient: usize,
}

impl Seen {
    fn add(&mut self, pos: &Position) {
        let legal = pos.legal_moves();
        self.positions += 1;
        self.castling += legal.iter().any(|m| m.is_castle()) as usize;
        self.en_passant += legal.iter().any(|m| m.is_en_passant()) as usize;
        self.promotion += legal.iter().any(|m| m.is_promotion()) as usize;
        self.checkmate += pos.is_checkmate() as usize;
        self.stalemate += pos.is_stalemate() as usize;
        self.insufficient += pos.is_insufficient_material() as usize;
    }
}

/// Compares every observable of the two positions; returns a description of the first
/// disagreement.
fn compare(ours: &Position, theirs: &sm::Chess, mode: sm::CastlingMode) -> Result<(), String> {
    let theirs_fen =
        sm::fen::Fen::from_position(theirs, sm::EnPassantMode::PseudoLegal).to_string();
    let fen = ours.fen();
    if fen != theirs_fen {
        return Err(format!("FEN: ours {fen}, shakmaty {theirs_fen}"));
    }

    // FEN round trips in our own parser, in X-FEN and Shredder-FEN.
    let our_mode = ours.castling_mode();
    for text in [fen.clone(), ours.shredder_fen()] {
        match Position::from_fen_with_mode(&text, our_mode) {
            Ok(back) if back == *ours => {}
            other => return Err(format!("round trip of {text}: {other:?}")),
        }
    }
    // shakmaty reads our Shredder-FEN as the same position.
    let shredder: sm::fen::Fen = ours
        .shredder_fen()
        .parse()
        .map_err(|e| format!("shakmaty cannot read {}: {e}", ours.shredder_fen()))?;
    let reread: sm::Chess = shredder
        .into_position(sm::CastlingMode::Chess960)
        .map_err(|e| format!("shakmaty refuses {}: {e}", ours.shredder_fen()))?;
    let reread_fen = sm::fen::Fen::from_position(&reread, sm::EnPassantMode::PseudoLegal);
    if reread_fen.to_string() != fen {
        return Err(format!(
            "Shredder-FEN {} reads back as {reread_fen}",
            ours.shredder_fen()
        ));
    }

    let key = theirs
        .zobrist_hash::<sm::zobrist::Zobrist64>(sm::EnPassantMode::PseudoLegal)
        .0;
    if ours.hash() != key {
        return Err(format!(
            "key: ours {:016x}, shakmaty {key:016x}",
            ours.hash()
        ));
    }

    if ours.in_check() != theirs.is_check() {
        return Err(format!("in check: ours {}", ours.in_check()));
    }
    if ours.checkers().0 != u64::from(theirs.checkers()) {
        return Err("checkers differ".into());
    }
    for (what, a, b) in [
        ("checkmate", ours.is_checkmate(), theirs.is_checkmate()),
        ("stalemate", ours.is_stalemate(), theirs.is_stalemate()),
        (
            "insufficient material",
            ours.is_insufficient_material(),
            theirs.is_insufficient_material(),
        ),
    ] {
        if a != b {
            return Err(format!("{what}: ours {a}, shakmaty {b}"));
        }
    }

    // Legal moves as UCI in both castling notations, with their SAN.
    let legal = ours.legal_moves();
    let mut our_moves: Vec<(String, String, String)> = legal
        .iter()
        .map(|&m| {
            (
                UciMove::from_move(m, CastlingMode::Chess960).to_string(),
                ours.uci(m),
                ours.san(m),
            )
        })
        .collect();
    let mut their_moves: Vec<(String, String, String)> = theirs
        .legal_moves()
        .iter()
        .map(|m| {
            (
                m.to_uci(sm::CastlingMode::Chess960).to_string(),
                m.to_uci(mode).to_string(),
                sm::san::SanPlus::from_move(theirs.clone(), *m).to_string(),
            )
        })
        .collect();
    our_moves.sort();
    their_moves.sort();
    if our_moves != their_moves {
        return Err(format!(
            "moves:\n ours     {our_moves:?}\n shakmaty {their_moves:?}"
        ));
    }
    if ours.count_legal_moves() != legal.len() {
        return Err("count_legal_moves disagrees with legal_moves".into());
    }

    // The search's stages partition the legal moves.
    let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
    ours.generate(GenType::Noisy, &mut noisy);
    ours.generate(GenType::Quiet, &mut quiet);
    if noisy.len() + quiet.len() != legal.len()
        || !noisy.iter().chain(quiet.iter()).all(|&m| legal.contains(m))
        || !noisy.iter().all(|m| m.is_noisy())
        || quiet.iter().any(|m| m.is_noisy())
    {
        return Err(format!("stages: noisy {noisy:?}, quiet {quiet:?}"));
    }

    // Per move: SAN and UCI parse back to it, and gives_check predicts check.
    let check_squares = CheckSquares::new(ours);
    for &m in legal.iter() {
        let san = ours.san(m);
        if ours.parse_san(&san) != Ok(m) {
            return Err(format!("SAN {san} parses as {:?}", ours.parse_san(&san)));
        }
        let uci = ours.uci(m);
        if ours.parse_uci(&uci) != Ok(m) {
            return Err(format!("UCI {uci} parses as {:?}", ours.parse_uci(&uci)));
        }
        let child = ours.play(m).map_err(|e| format!("{e}"))?;
        if ours.gives_check(m) != child.in_check() {
            return Err(format!("gives_check({san}) = {}", ours.gives_check(m)));
        }
        if check_squares.gives_check(ours, m) != child.in_check() {
            return Err(format!("CheckSquares: gives_check({san}) wrong"));
        }
    }
    Ok(())
}

/// Plays a seeded random game from `fen`, comparing at the sampled plies.
fn random_game(fen: &str, rng: &mut common::Rng, max_plies: usize, every: usize, seen: &mut Seen) {
    let mut ours = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mode = match ours.castling_mode() {
        CastlingMode::Standard => sm::CastlingMode::Standard,
        CastlingMode::Chess960 => sm::CastlingMode::Chess960,
    };
    let mut theirs: sm::Chess = fen
        .parse::<sm::fen::Fen>()
        .unwrap()
        .into_position(mode)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut moves_played = Vec::new();
    for ply in 0..max_plies {
        if ply % every == 0 || ours.in_check() || ours.ep_square().is_some() {
            seen.add(&ours);
            if let Err(e) = compare(&ours, &theirs, mode) {
                panic!(
                    "from {fen} after {moves_played:?}\n ours: {}\n {e}",
                    ours.fen()
                );
            }
        }
        let legal = ours.legal_moves();
        if legal.is_empty() || ours.halfmoves() >= 100 || ours.is_insufficient_material() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        let uci = UciMove::from_move(m, CastlingMode::Chess960).to_string();
        let their_move = uci
            .parse::<sm::uci::UciMove>()
            .unwrap()
            .to_move(&theirs)
            .unwrap_or_else(|e| panic!("shakmaty refuses {uci} in {}: {e}", ours.fen()));
        ours.play_unchecked(m);
        theirs.play_unchecked(their_move);
        moves_played.push(uci);
    }
}

#[test]
fn random_games_from_the_start_position() {
    let mut rng = common::Rng::new(0x6b69_6269_747a);
    let mut seen = Seen::default();
    for _ in 0..60 {
        random_game(kibitzer::chess::STARTPOS, &mut rng, 400, 3, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.positions > 3_000 && seen.castling > 0 && seen.en_passant > 0);
    assert!(seen.promotion > 0 && seen.checkmate > 0 && seen.insufficient > 0);
}

#[test]
fn random_games_from_chess960_start_positions() {
    let Some(text) = common::read_shared("epd/perft/frcperftsuite.epd") else {
        return;
    };
    let mut rng = common::Rng::new(0x0960_0960);
    let mut seen = Seen::default();
    for (i, line) in text.lines().enumerate() {
        let Some(fen) = line
            .split(';')
            .next()
            .map(str::trim)
            .filter(|f| !f.is_empty())
        else {
            continue;
        };
        // Every start position briefly (castling is the point); every 16th played out.
        let max_plies = if i % 16 == 0 { 400 } else { 12 };
        random_game(fen, &mut rng, max_plies, 3, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.positions > 3_000 && seen.castling > 500 && seen.en_passant > 0);
}
