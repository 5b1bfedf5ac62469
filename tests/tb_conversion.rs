//! Converting won endgames: our engine, given the tables as a user gives them (it keeps only the
//! root moves that win inside the fifty-move rule and probes WDL in the search), plays random won
//! positions against a tablebase defender and must mate within the fifty-move rule.
//! Slow (hundreds of games), so run on demand:
//! `KIBITZER_CONVERSIONS=100 cargo test --release --test tb_conversion -- --ignored --nocapture`.

mod common;

use kibitzer::chess::TbWdl;
use kibitzer::chess::{CastlingMode, Color, Piece, Position, Role, Setup, Square};
use kibitzer::engine::{Engine, EngineOptions, SearchEvent, SearchLimits, TablebaseConfig};
use kibitzer::tablebase::Tablebases;

use common::Rng;

/// A random legal position with White to move holding `white` against `black`, won for White.
fn random_win(tables: &Tablebases, white: &[Role], black: &[Role], rng: &mut Rng) -> Position {
    loop {
        let mut setup = Setup::empty();
        let mut place = |piece: Piece, setup: &mut Setup| loop {
            let sq = Square::try_new((rng.next_u64() % 64) as u32).unwrap();
            let back_rank = matches!(sq.rank().index(), 0 | 7);
            if setup.board[sq.index()].is_none() && !(piece.role == Role::Pawn && back_rank) {
                setup.board[sq.index()] = Some(piece);
                return;
            }
        };
        for (color, roles) in [(Color::White, white), (Color::Black, black)] {
            for &role in roles {
                place(Piece { color, role }, &mut setup);
            }
        }
        setup.turn = Color::White;
        setup.fullmoves = 1;
        let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        if !pos.legal_moves().is_empty() && tables.probe_wdl(&pos).ok() == Some(TbWdl::Win) {
            return pos;
        }
    }
}

/// Plays one game; returns the plies to mate, or a description of the failure.
fn convert(
    tables: &Tablebases,
    engine: &mut Engine,
    events: &std::sync::mpsc::Receiver<SearchEvent>,
    start: &Position,
) -> Result<usize, String> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    while moves.len() < 400 {
        if pos.is_checkmate() {
            return Ok(moves.len());
        }
        if pos.is_stalemate() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
            return Err(format!("draw after {} plies at {}", moves.len(), pos.fen()));
        }
        let mv = if pos.turn() == Color::White {
            engine
                .set_position(start.clone(), &moves)
                .map_err(|e| format!("{e:?}"))?;
            engine.go(SearchLimits::nodes(3000));
            loop {
                if let SearchEvent::BestMove { best, .. } = events.recv().unwrap() {
                    break best.ok_or("no best move")?;
                }
            }
        } else {
            // The defender holds out longest.
            let ranking = tables.rank_root(&pos, true).map_err(|e| e.to_string())?;
            ranking.moves[0].mv
        };
        pos = pos.play(mv).map_err(|e| format!("{e:?}"))?;
        moves.push(mv);
    }
    Err(format!("no mate in 400 plies from {}", start.fen()))
}

#[test]
#[ignore]
fn engine_converts_won_endgames_within_fifty_moves() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let (tables, _) = Tablebases::open(shared.join("syzygy").as_os_str()).unwrap();
    let per_material: usize = std::env::var("KIBITZER_CONVERSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let (mut engine, events) = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        ..EngineOptions::default()
    });
    engine.set_tablebases(Some(TablebaseConfig {
        tables: std::sync::Arc::new(tables.clone()),
        probe_depth: 1,
        rule50: true,
    }));
    use Role::*;
    let materials: [(&str, &[Role], &[Role]); 4] = [
        ("KRvK", &[King, Rook], &[King]),
        ("KQvKR", &[King, Queen], &[King, Rook]),
        ("KBNvK", &[King, Bishop, Knight], &[King]),
        ("KRPvKR", &[King, Rook, Pawn], &[King, Rook]),
    ];
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    for (name, white, black) in materials {
        let mut longest = 0;
        for _ in 0..per_material {
            let start = random_win(&tables, white, black, &mut rng);
            engine.new_game();
            match convert(&tables, &mut engine, &events, &start) {
                Ok(plies) => longest = longest.max(plies),
                Err(e) => failures.push(format!("{name} {}: {e}", start.fen())),
            }
        }
        println!("{name}: {per_material} games, longest mate {longest} plies");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
