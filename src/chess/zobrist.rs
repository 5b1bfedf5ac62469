//! Zobrist hashing with the Polyglot Random64 keys, so that a position's hash is its book key.

use super::polyglot_keys::RANDOM64;
use super::position::Position;
use super::types::{ByColor, CastlingSide, Color, File, Piece, Square};

const CASTLE_OFFSET: usize = 768;
const EN_PASSANT_OFFSET: usize = 772;

/// Xored in when White is to move.
pub const TURN: u64 = RANDOM64[780];

#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    RANDOM64[64 * piece.polyglot_kind() + sq.index()]
}

#[inline]
pub fn en_passant(file: File) -> u64 {
    RANDOM64[EN_PASSANT_OFFSET + file.index()]
}

/// Key of one castling right: white short, white long, black short, black long.
#[inline]
pub fn castling_right(color: Color, side: CastlingSide) -> u64 {
    RANDOM64[CASTLE_OFFSET + 2 * color.index() + side.index()]
}

/// Castling part of the key: one entry per right held, by colour and side.
pub fn castling(rights: &ByColor<[Option<Square>; 2]>) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if rights[color][side.index()].is_some() {
                key ^= castling_right(color, side);
            }
        }
    }
    key
}

/// A multiplicative key of up to six words (bitboards, squares) for the engine's small caches of
/// pawn structures and piece placements, which the position keeps no Zobrist key for. Take the
/// top bits for an index.
pub fn mix(words: &[u64]) -> u64 {
    const MULTIPLIERS: [u64; 6] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
        0xFF51_AFD7_ED55_8CCD,
    ];
    debug_assert!(words.len() <= MULTIPLIERS.len());
    words
        .iter()
        .zip(MULTIPLIERS)
        .fold(0, |key, (w, m)| key ^ w.wrapping_mul(m))
}

/// The full key, computed from scratch.
pub fn hash(pos: &Position) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            key ^= piece(p, sq);
        }
    }
    key ^= castling(pos.castling_rights());
    if let Some(ep) = pos.ep_square() {
        key ^= en_passant(ep.file());
    }
    if pos.turn() == Color::White {
        key ^= TURN;
    }
    key
}
