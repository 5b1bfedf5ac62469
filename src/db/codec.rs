//! The compact forms the database stores: a move in about a byte (the moving piece's number and
//! where it goes), LEB128 varints, a position's postings (which games reached it, with what
//! result and rating, and which move they played next) and the material signature that rules
//! games out of a scan.

use crate::chess::attacks::{KING_STEPS, KNIGHT_STEPS};
use crate::chess::{CastlingSide, Color, Move, MoveKind, Position, Role, Square};
use crate::game::{GameMove, GameResult};

/// The "next move" of a game that ended in the position (no move is zero).
pub const GAME_ENDS: u16 = 0;

/// The "next move" of a game that passed (a null move, `--`): no move has this code.
pub const NULL_NEXT: u16 = u16::MAX;

/// A king's code that no king move has: a null move (`--` in PGN).
const NULL_CODE: u8 = 15;

const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Appends a legal move in about one byte, with no move generation either way: the high nibble
/// numbers the moving piece among the mover's pieces in square order, the low nibble says
/// where it goes for its kind of piece (a pawn's step or capture and promotion, a knight's
/// jump, a king's step or castling, a rook's rank or file, a bishop's file and diagonal). A
/// queen moves like a rook in one byte; diagonally its code is the impossible "to its own
/// rank" and a second byte names the square. A null move is the king's number with a code no
/// king move has.
pub fn encode_move(pos: &Position, mv: GameMove, out: &mut Vec<u8>) {
    let us = pos.turn();
    let mine = pos.by_color(us).0;
    let number = |sq: Square| (mine & ((1u64 << sq as u64) - 1)).count_ones() as u8;
    let m = match mv {
        GameMove::Move(m) => m,
        GameMove::Null => {
            out.push(number(pos.king(us)) << 4 | NULL_CODE);
            return;
        }
    };
    let from = m.from();
    let to = m.to();
    let piece = number(from);
    let (ff, fr) = (from.file().index() as i32, from.rank().index() as i32);
    let (tf, tr) = (to.file().index() as i32, to.rank().index() as i32);
    let (df, dr) = (tf - ff, tr - fr);
    let straight = |file_move: bool| if file_move { tr as u8 } else { 8 + tf as u8 };
    let code = match pos.role_at(from) {
        Some(Role::Pawn) => match m.promotion_role() {
            Some(role) => {
                let index = PROMOTIONS.iter().position(|&r| r == role).unwrap_or(3) as u8;
                4 + 3 * index + (df + 1) as u8
            }
            None if df == 0 => u8::from(dr.abs() == 2),
            None if df < 0 => 2,
            None => 3,
        },
        Some(Role::Knight) => KNIGHT_STEPS
            .iter()
            .position(|&j| j == (df, dr))
            .unwrap_or(0) as u8,
        Some(Role::King) => match m.castling_side() {
            Some(CastlingSide::King) => 8,
            Some(CastlingSide::Queen) => 9,
            None => KING_STEPS
                .iter()
                .position(|&s| s == (df.signum(), dr.signum()))
                .unwrap_or(0) as u8,
        },
        Some(Role::Bishop) => tf as u8 + if df == dr { 0 } else { 8 },
        Some(Role::Rook) => straight(df == 0),
        Some(Role::Queen) if df == 0 || dr == 0 => straight(df == 0),
        Some(Role::Queen) => {
            out.push(piece << 4 | fr as u8);
            out.push(to as u8);
            return;
        }
        None => 0,
    };
    out.push(piece << 4 | code);
}

/// Reads a move written by [`encode_move`] at `*at`, moving past it. `None` for bytes that make
/// no move of the mover's pieces here (a damaged record).
pub fn decode_move(pos: &Position, bytes: &[u8], at: &mut usize) -> Option<GameMove> {
    match read_move(pos, bytes, at)? {
        GameMove::Move(m) if !plausible(pos, m) => None,
        mv => Some(mv),
    }
}

/// What every move [`encode_move`] wrote satisfies, checked without generating moves (which
/// would cost more than the rest of a replay): it takes no piece of its own side and no king,
/// and a pawn pushes onto an empty square, captures something, starts a double step from its
/// first rank through an empty one, and promotes exactly on the last rank. A damaged record
/// thus reads as damaged instead of as a move that breaks the position.
fn plausible(pos: &Position, m: Move) -> bool {
    if m.is_castle() {
        return true;
    }
    let us = pos.turn();
    let target = pos.piece_at(m.to());
    if target.is_some_and(|p| p.color == us || p.role == Role::King) {
        return false;
    }
    if pos.role_at(m.from()) != Some(Role::Pawn) {
        return true;
    }
    let rank = |sq: Square| sq.relative(us).rank().index();
    let last = rank(m.to()) == 7;
    let kind_fits = match m.kind() {
        MoveKind::DoublePush => {
            let middle = Square::new((m.from() as u32 + m.to() as u32) / 2);
            rank(m.from()) == 1 && target.is_none() && pos.piece_at(middle).is_none()
        }
        MoveKind::EnPassant => true,
        MoveKind::Quiet | MoveKind::Promotion => target.is_none(),
        MoveKind::Capture | MoveKind::PromotionCapture => target.is_some(),
        MoveKind::Castle => false,
    };
    kind_fits && last == m.is_promotion()
}

/// Reads the move [`encode_move`] wrote, unchecked.
fn read_move(pos: &Position, bytes: &[u8], at: &mut usize) -> Option<GameMove> {
    let byte = *bytes.get(*at)?;
    *at += 1;
    let us = pos.turn();
    let mut mine = pos.by_color(us).0;
    for _ in 0..byte >> 4 {
        mine &= mine.wrapping_sub(1);
    }
    if mine == 0 {
        return None;
    }
    let from = Square::new(mine.trailing_zeros());
    let code = i32::from(byte & 15);
    let (ff, fr) = (from.file().index() as i32, from.rank().index() as i32);
    let square = |f: i32, r: i32| {
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::new((r * 8 + f) as u32))
    };
    let straight = || {
        if code < 8 {
            square(ff, code)
        } else {
            square(code - 8, fr)
        }
    };
    let to = match pos.role_at(from)? {
        Role::Pawn => {
            let forward = if us == Color::White { 1 } else { -1 };
            let (df, steps, promotion) = match code {
                0 => (0, 1, None),
                1 => (0, 2, None),
                2 => (-1, 1, None),
                3 => (1, 1, None),
                _ => (
                    (code - 4) % 3 - 1,
                    1,
                    Some(PROMOTIONS[((code - 4) / 3) as usize]),
                ),
            };
            let to = square(ff + df, fr + forward * steps)?;
            let capture = df != 0;
            return Some(GameMove::Move(match promotion {
                Some(role) => Move::promotion(from, to, role, capture),
                None if code == 1 => Move::new(from, to, MoveKind::DoublePush),
                None if capture && pos.ep_square() == Some(to) => {
                    Move::new(from, to, MoveKind::EnPassant)
                }
                None => plain(pos, from, to),
            }));
        }
        Role::Knight => {
            let (df, dr) = *KNIGHT_STEPS.get(code as usize)?;
            square(ff + df, fr + dr)?
        }
        Role::King if code == i32::from(NULL_CODE) => return Some(GameMove::Null),
        Role::King if code >= 8 => {
            let side = if code == 8 {
                CastlingSide::King
            } else {
                CastlingSide::Queen
            };
            let rook = pos.castling_rook(us, side)?;
            return Some(GameMove::Move(Move::new(from, rook, MoveKind::Castle)));
        }
        Role::King => {
            let (df, dr) = *KING_STEPS.get(code as usize)?;
            square(ff + df, fr + dr)?
        }
        Role::Bishop => {
            let file = code & 7;
            let dr = if code < 8 { file - ff } else { ff - file };
            square(file, fr + dr)?
        }
        Role::Rook => straight()?,
        Role::Queen if code == fr => {
            Square::try_new(u32::from(*bytes.get(*at)?)).inspect(|_| *at += 1)?
        }
        Role::Queen => straight()?,
    };
    Some(GameMove::Move(plain(pos, from, to)))
}

/// A move that is neither a pawn's special move nor castling: a capture or a quiet move.
fn plain(pos: &Position, from: Square, to: Square) -> Move {
    let kind = if pos.piece_at(to).is_some() {
        MoveKind::Capture
    } else {
        MoveKind::Quiet
    };
    Move::new(from, to, kind)
}

pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a varint at `*at`, moving past it; `None` at the end or on a truncated one.
#[inline]
pub fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let first = *bytes.get(*at)?;
    *at += 1;
    // Most postings' numbers fit in one byte: no loop for them.
    if first < 0x80 {
        return Some(u64::from(first));
    }
    let mut v = u64::from(first & 0x7f);
    for shift in (7..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// A result in two bits, as postings store it.
pub fn result_bits(result: GameResult) -> u64 {
    match result {
        GameResult::Unknown => 0,
        GameResult::WhiteWins => 1,
        GameResult::Draw => 2,
        GameResult::BlackWins => 3,
    }
}

fn result_from_bits(bits: u64) -> GameResult {
    match bits & 3 {
        1 => GameResult::WhiteWins,
        2 => GameResult::Draw,
        3 => GameResult::BlackWins,
        _ => GameResult::Unknown,
    }
}

/// The players' mean rating as postings keep it: 0 unless both have one.
pub fn mean_rating(white: Option<u16>, black: Option<u16>) -> u16 {
    match (white, black) {
        (Some(w), Some(b)) => ((u32::from(w) + u32::from(b)) / 2) as u16,
        _ => 0,
    }
}

/// One game at one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Posting {
    pub game: u64,
    pub result: GameResult,
    /// The move played next ([`Move::to_u16`]), or [`GAME_ENDS`].
    pub next: u16,
    /// The players' mean rating, 0 when either has none.
    pub rating: u16,
}

/// A run of postings in increasing game order, as one import appends them to a position:
/// a 0 byte, then for each game the varint `(game - previous) << 2 | result`, the next move's
/// two bytes and the varint rating. Game numbers start at 1, so only a run's start reads 0.
#[derive(Default, Debug)]
pub struct Run {
    pub bytes: Vec<u8>,
    last: u64,
}

impl Run {
    pub fn push(&mut self, p: Posting) {
        if self.bytes.is_empty() {
            self.bytes.push(0);
        }
        debug_assert!(p.game > self.last, "postings go in game order");
        put_posting(&mut self.bytes, &p, self.last);
        self.last = p.game;
    }
}

/// Appends a posting with its game numbered from `base` (less than it): the varint
/// `(game - base) << 2 | result`, the next move's two bytes, the varint rating.
pub fn put_posting(out: &mut Vec<u8>, p: &Posting, base: u64) {
    put_varint(out, (p.game - base) << 2 | result_bits(p.result));
    out.extend_from_slice(&p.next.to_le_bytes());
    put_varint(out, u64::from(p.rating));
}

/// Reads a posting written by [`put_posting`] from `base`; `None` at the end, at a damaged
/// byte, or at a 0 where the game would be (a run's start).
pub fn get_posting(bytes: &[u8], at: &mut usize, base: u64) -> Option<Posting> {
    let head = get_varint(bytes, at)?;
    if head >> 2 == 0 {
        return None;
    }
    let next = u16::from_le_bytes([*bytes.get(*at)?, *bytes.get(*at + 1)?]);
    *at += 2;
    let rating = get_varint(bytes, at)?;
    Some(Posting {
        game: base + (head >> 2),
        result: result_from_bits(head),
        next,
        rating: u16::try_from(rating).unwrap_or(0),
    })
}

/// Every posting of a stored position, runs one after another; stops at a damaged byte.
pub fn postings(bytes: &[u8]) -> Postings<'_> {
    Postings {
        bytes,
        at: 0,
        last: 0,
    }
}

/// The iterator of [`postings`]: the explorer's inner loop (a million postings for the most
/// popular positions), so its `next` is marked for inlining wherever it is called.
pub struct Postings<'a> {
    bytes: &'a [u8],
    at: usize,
    last: u64,
}

impl Iterator for Postings<'_> {
    type Item = Posting;

    #[inline]
    fn next(&mut self) -> Option<Posting> {
        let bytes = self.bytes;
        loop {
            let head = get_varint(bytes, &mut self.at)?;
            if head == 0 {
                self.last = 0;
                continue;
            }
            let at = self.at;
            let next = u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]);
            self.at += 2;
            let rating = get_varint(bytes, &mut self.at)?;
            self.last += head >> 2;
            return Some(Posting {
                game: self.last,
                result: result_from_bits(head),
                next,
                rating: u16::try_from(rating).unwrap_or(0),
            });
        }
    }
}

/// What a position holds that can only go down as a game goes on: for each side the number of
/// pieces, of pawns, and the pawns still on their first square. A game whose signature at some
/// ply does not "cover" a position's never reaches that position later.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Signature(pub u64);

impl Signature {
    /// Bits 0-7 White's home pawns (a2-h2), 8-15 Black's (a7-h7); from bit 16 four 6-bit
    /// fields, each with a guard bit on top: White's pieces, White's pawns, Black's pieces,
    /// Black's pawns.
    pub fn of(pos: &Position) -> Signature {
        let rank = |color: Color, index: u32| {
            let pawns = pos.pieces(color, Role::Pawn);
            (0..8).fold(0u64, |bits, file| {
                let sq = Square::new(index * 8 + file);
                bits | u64::from(pawns.contains(sq)) << file
            })
        };
        let mut sig = rank(Color::White, 1) | rank(Color::Black, 6) << 8;
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let pieces = u64::from(pos.by_color(color).count());
            let pawns = u64::from(pos.pieces(color, Role::Pawn).count());
            sig |= pieces << (16 + 12 * i) | pawns << (22 + 12 * i);
        }
        Signature(sig)
    }

    /// A signature that covers whatever `self` or `other` covers: home pawns of either, the
    /// larger of each count.
    pub fn widest(self, other: Signature) -> Signature {
        self.combine(other, |a, b| a | b, u64::max)
    }

    /// A signature covered by whatever covers `self` or `other`: home pawns of both, the
    /// smaller of each count.
    pub fn narrowest(self, other: Signature) -> Signature {
        self.combine(other, |a, b| a & b, u64::min)
    }

    fn combine(
        self,
        other: Signature,
        home: fn(u64, u64) -> u64,
        count: fn(u64, u64) -> u64,
    ) -> Signature {
        let mut sig = home(self.0, other.0) & 0xffff;
        for field in 0..4 {
            let shift = 16 + 6 * field;
            let get = |s: Signature| s.0 >> shift & 0x1f;
            sig |= count(get(self), get(other)) << shift;
        }
        Signature(sig)
    }

    /// Whether a game at `self` may still reach `later`: every home pawn of `later` is home
    /// here, and neither side has fewer pieces or pawns here.
    pub fn covers(self, later: Signature) -> bool {
        const HOME: u64 = 0xffff;
        const GUARDS: u64 = 0b100000_100000_100000_100000 << 16;
        let home_ok = later.0 & HOME & !self.0 == 0;
        // Each 6-bit field holds at most 32 < 2^5, so the guard bit survives the subtraction
        // exactly when this field is at least `later`'s.
        let counts = |s: Signature| s.0 >> 16 << 16 & !GUARDS;
        let counts_ok = ((counts(self) | GUARDS) - counts(later)) & GUARDS == GUARDS;
        home_ok && counts_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    fn after(moves: &str) -> Position {
        Position::startpos().play_sans(moves).unwrap()
    }

    /// Every legal move of `pos`, written and read back; returns the bytes they took.
    fn round_trip_all(pos: &Position) -> usize {
        let mut bytes = 0;
        for &m in pos.legal_moves().iter() {
            let mut out = Vec::new();
            encode_move(pos, GameMove::Move(m), &mut out);
            let mut at = 0;
            assert_eq!(
                decode_move(pos, &out, &mut at),
                Some(GameMove::Move(m)),
                "{m:?} in {}",
                pos.fen()
            );
            assert_eq!(at, out.len());
            bytes += out.len();
        }
        bytes
    }

    #[test]
    fn every_legal_move_round_trips_in_about_a_byte() {
        let fens = [
            crate::chess::STARTPOS,
            // Castling both ways, en passant, promotions with and without capture.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
            "4k3/8/8/8/8/8/8/Q3K2Q w - - 0 1",
        ];
        let (mut moves, mut bytes) = (0, 0);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            moves += pos.legal_moves().len();
            bytes += round_trip_all(&pos);
        }
        // Chess960: castling where the king and rook start elsewhere.
        let frc = Position::from_fen_with_mode(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            crate::chess::CastlingMode::Chess960,
        )
        .unwrap();
        round_trip_all(&frc);
        assert!(bytes < moves * 13 / 10, "{bytes} bytes for {moves} moves");
        let pos = Position::startpos();
        let mut out = Vec::new();
        encode_move(&pos, GameMove::Null, &mut out);
        assert_eq!(decode_move(&pos, &out, &mut 0), Some(GameMove::Null));
        assert_eq!(decode_move(&pos, &[], &mut 0), None);
        // Bytes no legal move was written as read as damage, not as moves.
        let damaged = [
            0x00, // the a1 rook to its own square
            0x95, // the b2 pawn promoting on b3
            0x11, // the b1 knight onto its own d2 pawn
            0x80, // fine: a2-a3
        ];
        let read: Vec<_> = damaged
            .iter()
            .map(|&b| decode_move(&pos, &[b], &mut 0))
            .collect();
        assert_eq!(read[..3], [None, None, None]);
        assert_eq!(
            read[3],
            Some(GameMove::Move(pos.parse_uci("a2a3").unwrap()))
        );
    }

    #[test]
    fn postings_read_back_across_runs() {
        let first = [
            (3, GameResult::WhiteWins, 7, 2400),
            (9, GameResult::Draw, GAME_ENDS, 0),
        ];
        let second = [
            (10, GameResult::BlackWins, 0, 1234),
            (300_000, GameResult::Unknown, 19, 65535),
        ];
        let mut bytes = Vec::new();
        for run in [&first[..], &second[..]] {
            let mut r = Run::default();
            for &(game, result, next, rating) in run {
                r.push(Posting {
                    game,
                    result,
                    next,
                    rating,
                });
            }
            bytes.extend_from_slice(&r.bytes);
        }
        let read: Vec<_> = postings(&bytes)
            .map(|p| (p.game, p.result, p.next, p.rating))
            .collect();
        assert_eq!(read, [first, second].concat());
        // A cut-off tail ends the list without inventing a posting.
        assert_eq!(postings(&bytes[..bytes.len() - 1]).count(), 3);
    }

    #[test]
    fn a_signature_covers_what_a_game_can_still_reach() {
        let start = Signature::of(&Position::startpos());
        let open = Signature::of(&after("e4 d5 exd5 Qxd5"));
        let closed = Signature::of(&after("d4 d5 c4 e6"));
        assert!(start.covers(open) && start.covers(closed) && open.covers(open));
        assert!(!open.covers(start), "a capture cannot be undone");
        assert!(
            !closed.covers(open),
            "the e-pawns left home in one and not the other"
        );
        assert!(!open.covers(closed), "fewer pawns than d4 d5 c4 e6 has");
        // A block's summaries keep every game that may reach a position, and rule out others.
        let wide = open.widest(closed);
        assert!(wide.covers(open) && wide.covers(closed) && !wide.covers(start));
        let narrow = open.narrowest(closed);
        assert!(open.covers(narrow) && closed.covers(narrow) && start.covers(narrow));
        assert!(!narrow.covers(open));
        let mut varint = Vec::new();
        put_varint(&mut varint, u64::MAX);
        assert_eq!(get_varint(&varint, &mut 0), Some(u64::MAX));
    }
}
