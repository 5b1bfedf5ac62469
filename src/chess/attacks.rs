//! Attack tables: leapers computed by `const fn`, sliders by magic bitboards whose magics and
//! tables `build.rs` finds and writes at build time.

use super::bitboard::Bitboard;
use super::types::{Color, Piece, Role, Square};

pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

/// Byte blobs reinterpreted as `u64` arrays. `build.rs` wrote them in the target's byte order.
macro_rules! u64_table {
    ($file:literal, $len:expr) => {{
        const BYTES: [u8; $len * 8] = *include_bytes!(concat!(env!("OUT_DIR"), "/", $file));
        // SAFETY: same size, every bit pattern is a valid u64, and the value is copied, so the
        // byte array's alignment does not matter.
        unsafe { std::mem::transmute::<[u8; $len * 8], [u64; $len]>(BYTES) }
    }};
}

static SLIDER_TABLE: [u64; SLIDER_TABLE_LEN] = u64_table!("slider_attacks.bin", SLIDER_TABLE_LEN);
static BETWEEN: [u64; 64 * 64] = u64_table!("between.bin", 64 * 64);
static LINE: [u64; 64 * 64] = u64_table!("line.bin", 64 * 64);

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// A knight's jumps and a king's steps as (file, rank) offsets, clockwise from up-right and
/// from up; also how the game database numbers them.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [u64; 64] = leaper_table(&KING_STEPS);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Slider attacks on an empty board, by walking `dirs` from every square.
const fn ray_table(dirs: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < dirs.len() {
            let (mut f, mut r) = ((sq % 8) as i32 + dirs[i].0, (sq / 8) as i32 + dirs[i].1);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
                f += dirs[i].0;
                r += dirs[i].1;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = ray_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
static BISHOP_RAYS: [u64; 64] = ray_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// Rook attacks from `sq` on an empty board (a cheap test before a magic lookup).
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Bishop attacks from `sq` on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares any of `pawns`, all of `color`, attacks.
#[inline]
pub fn pawn_attacks_all(pawns: Bitboard, color: Color) -> Bitboard {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p << 7) & !FILE_H) | ((p << 9) & !FILE_A),
        Color::Black => ((p >> 9) & !FILE_H) | ((p >> 7) & !FILE_A),
    })
}

#[inline]
fn magic_lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    // SAFETY: the index is below 2^(64 - shift), the size of this square's slice of the table,
    // which build.rs laid out at `offset`.
    Bitboard(unsafe { *SLIDER_TABLE.get_unchecked(magic.offset + index) })
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares attacked by `piece` standing on `sq`.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` on a line, or empty if they share none.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_slider(sq: Square, occupied: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut result = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file() as i32, sq.rank() as i32);
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    break;
                }
                let s = Square::new((r * 8 + f) as u32);
                result = result.with(s);
                if occupied.contains(s) {
                    break;
                }
            }
        }
        result
    }

    #[test]
    fn magic_lookups_match_ray_walking() {
        let mut rng = super::super::Rng::new(0x1234_5678_9abc_def0);
        for _ in 0..20_000 {
            let seed = rng.next_u64();
            let occupied = Bitboard(seed & seed.rotate_left(23));
            for sq in Square::ALL {
                let rook = slow_slider(sq, occupied, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
                let bishop = slow_slider(sq, occupied, &[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
                assert_eq!(rook_attacks(sq, occupied), rook);
                assert_eq!(bishop_attacks(sq, occupied), bishop);
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::D4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Square::F5
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A7),
            Bitboard::from_square(Square::B6)
        );
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2) | Square::C3
        );
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert!(aligned(Square::A1, Square::H8, Square::E5));
        for sq in Square::ALL {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
        }
        assert!(!aligned(Square::A1, Square::H8, Square::E4));
    }

    #[test]
    fn a_sides_attacked_squares_are_those_it_attacks_one_by_one() {
        use crate::chess::testing::random_game;
        use crate::chess::{Rng, STARTPOS};
        let mut rng = Rng::new(11);
        for _ in 0..20 {
            for (pos, _) in random_game(STARTPOS, 120, &mut rng) {
                for color in [Color::White, Color::Black] {
                    let one_by_one: Bitboard = Square::ALL
                        .into_iter()
                        .filter(|&sq| pos.is_attacked(sq, color, pos.occupied()))
                        .collect();
                    assert_eq!(pos.attacked_squares(color), one_by_one, "{pos}");
                }
            }
        }
    }
}
