//! One Polyglot book entry: 16 bytes, big-endian key (8), move (2), weight (2), learn (4).

use crate::chess::{CastlingMode, CastlingSide, Move, Position, Role};

pub const ENTRY_SIZE: usize = 16;

/// A raw book entry, as stored on disk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    pub fn from_bytes(b: &[u8; ENTRY_SIZE]) -> Entry {
        Entry {
            key: u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }

    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut b = [0; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }
}

/// Polyglot promotion field: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen.
fn promotion_code(role: Option<Role>) -> u16 {
    match role {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    }
}

/// The Polyglot move bits of one of our moves. Castling is king-takes-rook in both encodings.
pub fn encode_move(m: Move) -> u16 {
    m.to() as u16 | (m.from() as u16) << 6 | promotion_code(m.promotion_role()) << 12
}

/// The legal move of `pos` that `raw` stands for, or `None` if there is none.
///
/// Besides the standard king-takes-rook castling, the king-two-squares form (e1g1) is accepted in
/// standard chess, as python-chess does, since some book writers emit it.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = (raw & 63) as usize;
    let from = (raw >> 6 & 63) as usize;
    let promotion = raw >> 12 & 7;
    let legal = pos.legal_moves();
    let exact = legal.iter().copied().find(|m| {
        m.from().index() == from
            && m.to().index() == to
            && promotion_code(m.promotion_role()) == promotion
    });
    if exact.is_some() || promotion != 0 || pos.castling_mode() != CastlingMode::Standard {
        return exact;
    }
    let side = match (from % 8, to % 8) {
        (4, 6) => CastlingSide::King,
        (4, 2) => CastlingSide::Queen,
        _ => return None,
    };
    legal.iter().copied().find(|m| {
        m.is_castle()
            && m.from().index() == from
            && pos.castling_rook(pos.turn(), side) == Some(m.to())
            && from / 8 == to / 8
    })
}
