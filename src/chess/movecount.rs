//! Counting legal moves without listing them, for perft's bulk counting: the same pin and check
//! masks as the generator, but whole sets of destinations are counted with popcounts and pawns
//! move as one bitboard.

use super::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, rook_attacks};
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{CastlingSide, Color, File, Rank, Role};

impl Position {
    /// Number of legal moves (each promotion counts once per piece it can become).
    pub fn count_legal_moves(&self) -> usize {
        let us = self.turn();
        let them = !us;
        let king = self.king(us);
        let ours = self.by_color(us);
        let occupied = self.occupied();
        let checkers = self.checkers();

        let without_king = occupied - king;
        let mut count = 0;
        for to in king_attacks(king) - ours {
            count += !self.is_attacked(to, them, without_king) as u32;
        }
        if checkers.more_than_one() {
            return count as usize;
        }

        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let targets = check_mask - ours;
        let pinned = self.blockers(us) & ours;

        // A pinned knight never moves; other pinned pieces stay on the line through the king.
        for from in self.pieces(us, Role::Knight) - pinned {
            count += (knight_attacks(from) & targets).count();
        }
        let queens = self.pieces(us, Role::Queen);
        for from in self.pieces(us, Role::Bishop) | queens {
            let mut to = bishop_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            count += to.count();
        }
        for from in self.pieces(us, Role::Rook) | queens {
            let mut to = rook_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            count += to.count();
        }

        let pawns = self.pieces(us, Role::Pawn);
        count += self.count_pawn_moves(pawns - pinned, check_mask, Bitboard::FULL);
        for from in pawns & pinned {
            count += self.count_pawn_moves(from.into(), check_mask, line(king, from));
        }
        count += self.en_passant_capturers().count();

        if checkers.is_empty() {
            for side in CastlingSide::ALL {
                count += self.castling_move(side).is_some() as u32;
            }
        }
        count as usize
    }

    /// Pushes and captures (not en passant) of `pawns`, all restricted to `pin_line`.
    #[inline]
    fn count_pawn_moves(&self, pawns: Bitboard, check_mask: Bitboard, pin_line: Bitboard) -> u32 {
        let us = self.turn();
        let empty = !self.occupied();
        let allowed = check_mask & pin_line;
        let promotion_rank = Bitboard::relative_rank(us, Rank::Eighth);
        let single = pawns.shift_forward(us) & empty;
        let double = (single & Bitboard::relative_rank(us, Rank::Third)).shift_forward(us) & empty;
        let theirs = self.by_color(!us);
        let not_a = pawns - Bitboard::from_file(File::A);
        let not_h = pawns - Bitboard::from_file(File::H);
        let (west, east) = match us {
            Color::White => (not_a.0 << 7, not_h.0 << 9),
            Color::Black => (not_a.0 >> 9, not_h.0 >> 7),
        };
        let west = Bitboard(west) & theirs & allowed;
        let east = Bitboard(east) & theirs & allowed;
        let single = single & allowed;
        let moves_to =
            |to: Bitboard| (to - promotion_rank).count() + 4 * (to & promotion_rank).count();
        moves_to(single) + moves_to(west) + moves_to(east) + (double & allowed).count()
    }
}
