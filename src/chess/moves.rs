//! Moves packed in 16 bits, and a fixed-capacity move list.

use std::fmt;
use std::num::NonZeroU16;

use super::types::{CastlingSide, Role, Square};

/// What a move does besides going from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveKind {
    Quiet = 0,
    DoublePush = 1,
    /// Stored as the king capturing its own rook: `from` is the king, `to` the rook.
    Castle = 2,
    EnPassant = 3,
    Capture = 4,
    Promotion = 8,
    PromotionCapture = 12,
}

/// A move: from (6 bits), to (6 bits), flags (4 bits). Never zero, so `Option<Move>` is 2 bytes.
///
/// The flag nibble is a [`MoveKind`], and for promotions its low two bits hold the role
/// (knight, bishop, rook, queen).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, flags: u16) -> Move {
        let raw = from as u16 | (to as u16) << 6 | flags << 12;
        match NonZeroU16::new(raw) {
            Some(v) => Move(v),
            // from == to == a1 with no flags: no generator makes it.
            None => panic!("null move"),
        }
    }

    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move::pack(from, to, kind as u16)
    }

    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role, capture: bool) -> Move {
        let base = if capture {
            MoveKind::PromotionCapture
        } else {
            MoveKind::Promotion
        };
        Move::pack(from, to, base as u16 | (role as u16 - 1))
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0.get() & 63) as u32)
    }

    /// Destination; for castling, the rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0.get() >> 6 & 63) as u32)
    }

    #[inline]
    const fn flags(self) -> u16 {
        self.0.get() >> 12
    }

    pub const fn kind(self) -> MoveKind {
        match self.flags() {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::Castle,
            3 => MoveKind::EnPassant,
            4 => MoveKind::Capture,
            8..=11 => MoveKind::Promotion,
            _ => MoveKind::PromotionCapture,
        }
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        matches!(self.flags(), 3 | 4 | 12..=15)
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.flags() >= 8
    }

    /// Captures and promotions: what quiescence search looks at.
    #[inline]
    pub const fn is_noisy(self) -> bool {
        self.is_capture() || self.is_promotion()
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.flags() == MoveKind::Castle as u16
    }

    /// The side a castling move castles towards (the rook's side of the king); `None` for other
    /// moves.
    #[inline]
    pub fn castling_side(self) -> Option<CastlingSide> {
        self.is_castle().then(|| {
            if self.to().file() > self.from().file() {
                CastlingSide::King
            } else {
                CastlingSide::Queen
            }
        })
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags() == MoveKind::EnPassant as u16
    }

    #[inline]
    pub fn promotion_role(self) -> Option<Role> {
        self.is_promotion()
            .then(|| Role::from_index((self.flags() & 3) as usize + 1))
    }

    /// The raw 16 bits, for compact storage (transposition table, datagen records).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::to_u16`]; `None` for zero.
    #[inline]
    pub const fn from_u16(raw: u16) -> Option<Move> {
        match NonZeroU16::new(raw) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        Ok(())
    }
}

/// Enough for any legal position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A move list on the stack: no allocation per node.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::B1, MoveKind::Quiet); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // The generator never exceeds 218 moves; the bound keeps a bad position from overflowing.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (no-op if there are fewer).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[n] = self.moves[i];
                n += 1;
            }
        }
        self.len = n;
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        let m = Move::promotion(Square::B7, Square::A8, Role::Knight, true);
        assert_eq!(m.from(), Square::B7);
        assert_eq!(m.to(), Square::A8);
        assert_eq!(m.promotion_role(), Some(Role::Knight));
        assert!(m.is_capture() && m.is_promotion());
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        let q = Move::promotion(Square::E7, Square::E8, Role::Queen, false);
        assert_eq!(q.promotion_role(), Some(Role::Queen));
        assert!(!q.is_capture());
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }
}
