//! Which moves give check, from facts about the enemy king worked out once per position: the
//! search asks it of nearly every move it tries, and [`Position::gives_check`] recomputes the
//! slider attacks on the king each time.

use super::attacks::{bishop_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use super::{Bitboard, Move, MoveKind, Position, Square};

/// The squares from which each of our roles would attack the enemy king, and our pieces that
/// alone block one of our sliders from it.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    king: Square,
    by_role: [Bitboard; 6],
    discoverers: Bitboard,
}

impl CheckSquares {
    pub fn new(pos: &Position) -> CheckSquares {
        let them = !pos.turn();
        let king = pos.king(them);
        let occupied = pos.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let orthogonal = rook_attacks(king, occupied);
        CheckSquares {
            king,
            // By role index: pawn, knight, bishop, rook, queen, king (never a direct check).
            by_role: [
                pawn_attacks(them, king),
                knight_attacks(king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            discoverers: pos.blockers(them) & pos.by_color(pos.turn()),
        }
    }

    /// Whether `m`, legal in `pos` (the position these squares were made for), gives check: the
    /// same answer as [`Position::gives_check`]. Moving a piece off a line to the king cannot
    /// open that line for itself (the king would have been in check on our move), so the
    /// squares seen with the mover still on `from` are the ones it attacks from `to`.
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        match m.kind() {
            MoveKind::Quiet | MoveKind::DoublePush | MoveKind::Capture => {
                let Some(role) = pos.role_at(m.from()) else {
                    return false;
                };
                self.by_role[role.index()].contains(m.to())
                    || (self.discoverers.contains(m.from())
                        && !line(m.from(), self.king).contains(m.to()))
            }
            // Castling, en passant and promotions change more than one square's piece.
            _ => pos.gives_check(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Agrees with making the move, on every legal move of positions full of pins, discovered
    /// and double checks, promotions, en passant and castling.
    #[test]
    fn agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1",
            "4k3/4r3/8/4N3/8/8/4R3/4K3 w - - 0 1",
            "3k4/8/8/1B6/3N4/8/8/3RK3 w - - 0 1",
            "k7/8/8/4q3/8/8/1B6/K2R4 b - - 0 1",
            "k7/6P1/8/8/8/8/8/K7 w - - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let squares = CheckSquares::new(&pos);
            for &m in pos.legal_moves().iter() {
                let in_check = pos.play(m).unwrap().in_check();
                assert_eq!(
                    squares.gives_check(&pos, m),
                    in_check,
                    "{fen} {}",
                    pos.uci(m)
                );
                checks += usize::from(in_check);
            }
        }
        assert!(
            checks >= 10,
            "only {checks} checking moves: the positions test too little"
        );
    }
}
