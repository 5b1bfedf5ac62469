//! Resolving SAN quickly: most moves in real games have one candidate piece that is not pinned,
//! and then the move is legal (given the check rules below) without generating every move.
//! Anything else (double check, pins, several candidates, castling, promotions, en passant)
//! goes to the full resolver in the chess module, which also produces its errors.

use crate::chess::attacks::{between, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, Move, MoveKind, Position, Rank, Role, San, SanError, Square};

/// The legal move `san` names in `pos`, or the chess module's error.
pub fn resolve_san(pos: &Position, san: &San) -> Result<Move, SanError> {
    fast(pos, san).map_or_else(|| san.to_move(pos), Ok)
}

fn fast(pos: &Position, san: &San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    } = *san
    else {
        return None;
    };
    let us = pos.turn();
    let target = pos.piece_at(to);
    if target.is_some_and(|p| p.color == us || p.role == Role::King) {
        return None;
    }
    let occupied = pos.occupied();
    if role == Role::King {
        // Legal when the destination is not attacked once the king has left its square.
        let from = pos.king(us);
        let legal = king_attacks(from).contains(to)
            && file.is_none_or(|f| f == from.file())
            && rank.is_none_or(|r| r == from.rank())
            && (target.is_some() || !capture)
            && !pos.is_attacked(to, !us, occupied.without(from));
        let kind = if target.is_some() {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        return legal.then_some(Move::new(from, to, kind));
    }
    if pos.in_check() {
        // With one checker, the move must capture it or block: anything else is left to the
        // full resolver (and its error message).
        let checkers = pos.checkers();
        let checker = checkers.first()?;
        if checkers.more_than_one() || !between(pos.king(us), checker).with(checker).contains(to) {
            return None;
        }
    }
    let (from, kind) = if role == Role::Pawn {
        pawn_origin(pos, us, file?, rank, capture, to, target.is_some())?
    } else {
        let reach = match role {
            Role::Knight => knight_attacks(to),
            Role::Bishop => bishop_attacks(to, occupied),
            Role::Rook => rook_attacks(to, occupied),
            Role::Queen => bishop_attacks(to, occupied) | rook_attacks(to, occupied),
            Role::Pawn | Role::King => return None,
        };
        let mut candidates = reach & pos.pieces(us, role);
        if let Some(f) = file {
            candidates &= Bitboard::from_file(f);
        }
        if let Some(r) = rank {
            candidates &= Bitboard::from_rank(r);
        }
        if candidates.count() != 1 || (capture && target.is_none()) {
            return None;
        }
        let kind = if target.is_some() {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        (candidates.first()?, kind)
    };
    if pos.blockers(us).contains(from) {
        return None;
    }
    Some(Move::new(from, to, kind))
}

/// Origin of a pawn move that is neither a promotion nor en passant. `file` is required for
/// captures and, for pushes, must be the destination file.
fn pawn_origin(
    pos: &Position,
    us: Color,
    file: crate::chess::File,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    target: bool,
) -> Option<(Square, MoveKind)> {
    let back = |sq: Square| sq.offset(us.fold(-8, 8));
    let ours = |sq: Square| pos.pieces(us, Role::Pawn).contains(sq);
    let last_rank = us.fold(Rank::Eighth, Rank::First);
    if to.rank() == last_rank {
        return None;
    }
    if file != to.file() || capture || target {
        // A capture: the pawn stands one rank back on `file`, one file away.
        if !target || file.index().abs_diff(to.file().index()) != 1 {
            return None;
        }
        let from = back(Square::from_coords(file, to.rank()))?;
        return (ours(from) && rank.is_none_or(|r| r == from.rank()))
            .then_some((from, MoveKind::Capture));
    }
    let one = back(to)?;
    if ours(one) {
        return rank
            .is_none_or(|r| r == one.rank())
            .then_some((one, MoveKind::Quiet));
    }
    let two = back(one)?;
    let double_rank = us.fold(Rank::Fourth, Rank::Fifth);
    (to.rank() == double_rank
        && ours(two)
        && !pos.occupied().contains(one)
        && rank.is_none_or(|r| r == two.rank()))
    .then_some((two, MoveKind::DoublePush))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path must agree with the full resolver on every legal move of many positions.
    #[test]
    fn agrees_with_the_full_resolver() {
        let fens = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "6k1/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
            "4k3/8/8/3q4/8/8/3R4/3K4 w - - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut positions = vec![Position::from_fen(fen).unwrap()];
            for pos in positions.clone() {
                for &m in pos.legal_moves().iter() {
                    positions.push(pos.play(m).unwrap());
                }
            }
            for pos in &positions {
                for &m in pos.legal_moves().iter() {
                    let san = San::from_move(pos, m);
                    assert_eq!(resolve_san(pos, &san), Ok(m), "{} {san}", pos.fen());
                    if let Some(fast) = fast(pos, &san) {
                        assert_eq!(fast, m);
                        checked += 1;
                    }
                    // Over-specified and wrongly specified forms behave like the full resolver.
                    if let San::Normal {
                        role,
                        capture,
                        to,
                        promotion,
                        ..
                    } = san
                    {
                        let full = San::Normal {
                            role,
                            file: Some(m.from().file()),
                            rank: Some(m.from().rank()),
                            capture,
                            to,
                            promotion,
                        };
                        assert_eq!(resolve_san(pos, &full), full.to_move(pos));
                        let flipped = San::Normal {
                            role,
                            file: None,
                            rank: None,
                            capture: !capture,
                            to,
                            promotion,
                        };
                        assert_eq!(resolve_san(pos, &flipped), flipped.to_move(pos));
                    }
                }
                // Moves to every square by every role, legal or not.
                for to in (0..64).map(Square::new) {
                    for role in Role::ALL {
                        for capture in [false, true] {
                            for file in [None, Some(to.file()), to.file().offset(1)] {
                                let san = San::Normal {
                                    role,
                                    file,
                                    rank: None,
                                    capture,
                                    to,
                                    promotion: None,
                                };
                                assert_eq!(
                                    resolve_san(pos, &san),
                                    san.to_move(pos),
                                    "{} {san}",
                                    pos.fen()
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
