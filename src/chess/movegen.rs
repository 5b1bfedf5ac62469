//! Legal move generation with pin and check masks, in stages the search can ask for separately.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::types::{CastlingSide, Rank, Role, Square};

/// Which moves to generate. `Noisy` and `Quiet` together make `All`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    All,
    /// Captures (en passant included) and every promotion.
    Noisy,
    /// Everything else: quiet piece moves, pushes that do not promote, castling.
    Quiet,
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// Appends the legal moves of the requested kind to `list`.
    pub fn generate(&self, gen_type: GenType, list: &mut MoveList) {
        match gen_type {
            GenType::All => self.generate_into::<true, true>(list),
            GenType::Noisy => self.generate_into::<true, false>(list),
            GenType::Quiet => self.generate_into::<false, true>(list),
        }
    }

    #[inline(always)]
    fn generate_into<const NOISY: bool, const QUIET: bool>(&self, list: &mut MoveList) {
        let us = self.turn();
        let them = !us;
        let king = self.king(us);
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = self.occupied();
        let checkers = self.checkers();

        // King moves: never onto an attacked square, looking through the king itself.
        let without_king = occupied - king;
        let mut king_targets = king_attacks(king) - ours;
        if !NOISY {
            king_targets = king_targets - theirs;
        }
        if !QUIET {
            king_targets &= theirs;
        }
        for to in king_targets {
            if !self.is_attacked(to, them, without_king) {
                let kind = if theirs.contains(to) {
                    MoveKind::Capture
                } else {
                    MoveKind::Quiet
                };
                list.push(Move::new(king, to, kind));
            }
        }
        if checkers.more_than_one() {
            return;
        }

        // Squares that answer a single check: capture the checker or block.
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let pinned = self.blockers(us) & ours;
        let mut targets = Bitboard::EMPTY;
        if NOISY {
            targets |= theirs;
        }
        if QUIET {
            targets |= !occupied;
        }
        targets &= check_mask;

        for (role, attacks_fn) in [
            (Role::Knight, PieceAttacks::Knight),
            (Role::Bishop, PieceAttacks::Bishop),
            (Role::Rook, PieceAttacks::Rook),
            (Role::Queen, PieceAttacks::Queen),
        ] {
            let mut pieces = self.pieces(us, role);
            if role == Role::Knight {
                // A pinned knight can never move.
                pieces = pieces - pinned;
            }
            for from in pieces {
                let mut to_set = attacks_fn.attacks(from, occupied) & targets;
                if pinned.contains(from) {
                    to_set &= line(king, from);
                }
                for to in to_set {
                    let kind = if theirs.contains(to) {
                        MoveKind::Capture
                    } else {
                        MoveKind::Quiet
                    };
                    list.push(Move::new(from, to, kind));
                }
            }
        }

        self.generate_pawn_moves::<NOISY, QUIET>(list, check_mask, pinned);

        if QUIET && checkers.is_empty() {
            self.generate_castling(list);
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<const NOISY: bool, const QUIET: bool>(
        &self,
        list: &mut MoveList,
        check_mask: Bitboard,
        pinned: Bitboard,
    ) {
        let us = self.turn();
        let them = !us;
        let king = self.king(us);
        let occupied = self.occupied();
        let theirs = self.by_color(them);
        let promotion_rank = Bitboard::relative_rank(us, Rank::Eighth);
        let double_rank = Bitboard::relative_rank(us, Rank::Fourth);
        let forward: i32 = us.fold(8, -8);

        for from in self.pieces(us, Role::Pawn) {
            let allowed = if pinned.contains(from) {
                line(king, from) & check_mask
            } else {
                check_mask
            };

            if NOISY {
                for to in pawn_attacks(us, from) & theirs & allowed {
                    if promotion_rank.contains(to) {
                        for role in Role::PROMOTIONS {
                            list.push(Move::promotion(from, to, role, true));
                        }
                    } else {
                        list.push(Move::new(from, to, MoveKind::Capture));
                    }
                }
            }

            let single = Square::new((from as i32 + forward) as u32);
            if occupied.contains(single) {
                continue;
            }
            if promotion_rank.contains(single) {
                if NOISY && allowed.contains(single) {
                    for role in Role::PROMOTIONS {
                        list.push(Move::promotion(from, single, role, false));
                    }
                }
                continue;
            }
            if QUIET {
                if allowed.contains(single) {
                    list.push(Move::new(from, single, MoveKind::Quiet));
                }
                let double = Square::new((single as i32 + forward) as u32);
                if double_rank.contains(double)
                    && !occupied.contains(double)
                    && allowed.contains(double)
                {
                    list.push(Move::new(from, double, MoveKind::DoublePush));
                }
            }
        }

        if NOISY && let Some(ep) = self.ep_square() {
            for from in self.en_passant_capturers() {
                list.push(Move::new(from, ep, MoveKind::EnPassant));
            }
        }
    }

    /// Pawns that can legally take en passant.
    pub(crate) fn en_passant_capturers(&self) -> Bitboard {
        let Some(ep) = self.ep_square() else {
            return Bitboard::EMPTY;
        };
        let us = self.turn();
        let king = self.king(us);
        let captured = Square::new((ep as i32 - us.fold(8, -8)) as u32);
        let mut legal = Bitboard::EMPTY;
        for from in pawn_attacks(!us, ep) & self.pieces(us, Role::Pawn) {
            // Played out on the occupancy: covers pins, the captured checker and the rank-wide
            // discovered check where both pawns leave the king's rank.
            let after = (self.occupied() - from - captured) | ep;
            if (self.attackers_by(!us, king, after) & after).is_empty() {
                legal = legal.with(from);
            }
        }
        legal
    }

    fn generate_castling(&self, list: &mut MoveList) {
        for side in CastlingSide::ALL {
            if let Some(m) = self.castling_move(side) {
                list.push(m);
            }
        }
    }

    /// The castling move towards `side`, if it is legal (the caller checks for check).
    pub(crate) fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let us = self.turn();
        let rook = self.castling_rook(us, side)?;
        let king = self.king(us);
        let rank = us.back_rank();
        let king_to = Square::from_coords(side.king_to_file(), rank);
        let rook_to = Square::from_coords(side.rook_to_file(), rank);
        let must_be_empty = (between(king, king_to).with(king_to)
            | between(rook, rook_to).with(rook_to))
            - king
            - rook;
        if (self.occupied() & must_be_empty).any() {
            return None;
        }
        // With both castling pieces lifted, no square the king crosses or lands on may be
        // attacked (this also catches a slider that the rook used to block).
        let lifted = self.occupied() - king - rook;
        let path = between(king, king_to).with(king_to);
        path.into_iter()
            .all(|sq| !self.is_attacked(sq, !us, lifted))
            .then(|| Move::new(king, rook, MoveKind::Castle))
    }
}

/// The non-pawn, non-king movers.
#[derive(Clone, Copy)]
enum PieceAttacks {
    Knight,
    Bishop,
    Rook,
    Queen,
}

impl PieceAttacks {
    #[inline(always)]
    fn attacks(self, from: Square, occupied: Bitboard) -> Bitboard {
        match self {
            PieceAttacks::Knight => knight_attacks(from),
            PieceAttacks::Bishop => bishop_attacks(from, occupied),
            PieceAttacks::Rook => rook_attacks(from, occupied),
            PieceAttacks::Queen => queen_attacks(from, occupied),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(fen: &str) -> usize {
        Position::from_fen(fen).unwrap().legal_moves().len()
    }

    #[test]
    fn stages_partition_all_moves() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
            pos.generate(GenType::Noisy, &mut noisy);
            pos.generate(GenType::Quiet, &mut quiet);
            assert!(noisy.iter().all(|m| m.is_noisy()));
            assert!(quiet.iter().all(|m| !m.is_noisy()));
            assert_eq!(noisy.len() + quiet.len(), pos.legal_moves().len());
        }
    }

    #[test]
    fn special_cases() {
        // En passant would expose the king along the rank.
        assert_eq!(count("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"), 6);
        assert_eq!(
            count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            20
        );
    }
}
