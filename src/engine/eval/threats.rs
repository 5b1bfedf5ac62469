//! Terms that weigh one side's attacks against the other's: pieces attacked by lesser ones,
//! hanging pieces, pawn pushes that would attack, and checks the enemy cannot answer by taking
//! the checker. [`AttackMap`] gathers a side's attacks while its mobility is counted.

use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks_all, rook_attacks,
};
use crate::chess::{Bitboard, Color, Position, Rank, Role};

use super::hce::{Sum, Trace};
use super::terms as p;

/// Where one side's pieces attack.
pub(super) struct AttackMap {
    /// By the attacking role.
    pub by_role: [Bitboard; 6],
    pub all: Bitboard,
    /// Squares two or more of our pieces attack (two pawns on one square count once).
    pub twice: Bitboard,
}

impl AttackMap {
    /// Starts with the pawns and the king.
    pub fn new(pos: &Position, color: Color) -> AttackMap {
        let pawns = pawn_attacks_all(pos.pieces(color, Role::Pawn), color);
        let king = king_attacks(pos.king(color));
        let mut by_role = [Bitboard::EMPTY; 6];
        by_role[Role::Pawn.index()] = pawns;
        by_role[Role::King.index()] = king;
        AttackMap {
            by_role,
            all: pawns | king,
            twice: pawns & king,
        }
    }

    pub fn add(&mut self, role: Role, attacks: Bitboard) {
        self.twice |= self.all & attacks;
        self.all |= attacks;
        self.by_role[role.index()] |= attacks;
    }
}

/// `us` threatening the other side; `ours` and `theirs` are the two sides' attacks.
pub(super) fn threat_terms<T: Trace>(
    sum: &mut Sum<'_, T>,
    pos: &Position,
    us: Color,
    ours: &AttackMap,
    theirs: &AttackMap,
) {
    let them = !us;
    let enemies = pos.by_color(them) - pos.pieces(them, Role::King);
    let pieces = enemies - pos.pieces(them, Role::Pawn);
    let role_of = |sq| pos.role_at(sq).map_or(0, Role::index);

    for sq in pieces & ours.by_role[Role::Pawn.index()] {
        sum.add(us, p::THREAT_BY_PAWN + role_of(sq) - 1, 1);
    }
    // A piece is safe from lesser attackers if a pawn guards it, or more of theirs guard it
    // than of ours attack it.
    let protected = theirs.by_role[Role::Pawn.index()] | (theirs.twice - ours.twice);
    let weak = (enemies - protected) & ours.all;
    let minors = ours.by_role[Role::Knight.index()] | ours.by_role[Role::Bishop.index()];
    for sq in ((pieces & protected) | weak) & minors {
        sum.add(us, p::THREAT_BY_MINOR + role_of(sq), 1);
    }
    for sq in weak & ours.by_role[Role::Rook.index()] {
        sum.add(us, p::THREAT_BY_ROOK + role_of(sq), 1);
    }
    let by_king = weak & ours.by_role[Role::King.index()];
    sum.add(us, p::THREAT_BY_KING, by_king.count() as i32);
    let hanging = weak & (!theirs.all | (pieces & ours.twice));
    sum.add(us, p::HANGING, hanging.count() as i32);

    let empty = !pos.occupied();
    let single = pos.pieces(us, Role::Pawn).shift_forward(us) & empty;
    let double = (single & Bitboard::relative_rank(us, Rank::Third)).shift_forward(us) & empty;
    let safe = (!theirs.all | ours.all) - theirs.by_role[Role::Pawn.index()];
    let pushes = (single | double) & safe;
    let push_threats = pawn_attacks_all(pushes, us) & pieces;
    sum.add(us, p::PAWN_PUSH_THREAT, push_threats.count() as i32);

    let king = pos.king(them);
    let occ = pos.occupied();
    let safe = !(pos.by_color(us) | theirs.all);
    let rook_lines = rook_attacks(king, occ) & safe;
    let bishop_lines = bishop_attacks(king, occ) & safe;
    let checks = [
        knight_attacks(king) & safe & ours.by_role[Role::Knight.index()],
        bishop_lines & ours.by_role[Role::Bishop.index()],
        rook_lines & ours.by_role[Role::Rook.index()],
        (rook_lines | bishop_lines) & ours.by_role[Role::Queen.index()],
    ];
    for (i, squares) in checks.into_iter().enumerate() {
        sum.add(us, p::SAFE_CHECK + i, squares.count() as i32);
    }
    // Squares by their king that only their king or queen guard, and not twice.
    let guards = theirs.by_role[Role::Pawn.index()]
        | theirs.by_role[Role::Knight.index()]
        | theirs.by_role[Role::Bishop.index()]
        | theirs.by_role[Role::Rook.index()];
    let weak_zone = king_attacks(king) & (ours.all - guards - theirs.twice);
    sum.add(us, p::KING_ZONE_WEAK, weak_zone.count() as i32);
}
