//! A search thread's cache of the hand-crafted evaluation's pawn and king terms. Pawns and
//! kings change in few of the moves a search plays, so most positions find their shelter,
//! pawn structure and passers here instead of walking every pawn again.

use crate::chess::{Bitboard, Color, Position, Role, zobrist};

use super::S;

const INDEX_BITS: u32 = 13;
const ENTRIES: usize = 1 << INDEX_BITS;

#[derive(Clone, Copy)]
struct Entry {
    /// White's and Black's pawns and the two kings' squares: the whole input, so a hit is
    /// exact, never a hash collision.
    pawns: [u64; 2],
    kings: [u8; 2],
    total: S,
    passers: [Bitboard; 2],
}

/// Two kings on one square: no position matches an empty entry.
const EMPTY: Entry = Entry {
    pawns: [0; 2],
    kings: [0; 2],
    total: S::ZERO,
    passers: [Bitboard::EMPTY; 2],
};

pub struct PawnCache(Box<[Entry]>);

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache(vec![EMPTY; ENTRIES].into_boxed_slice())
    }
}

impl PawnCache {
    /// The pawn and king terms' total (White's view) and each side's passed pawns for `pos`,
    /// from the cache or from `compute`, which is then kept.
    #[inline]
    pub(super) fn get_or_insert_with(
        &mut self,
        pos: &Position,
        compute: impl FnOnce() -> (S, [Bitboard; 2]),
    ) -> (S, [Bitboard; 2]) {
        let pawns = [Color::White, Color::Black].map(|c| pos.pieces(c, Role::Pawn).0);
        let kings = [Color::White, Color::Black].map(|c| pos.king(c).index() as u8);
        let key = zobrist::mix(&[
            pawns[0],
            pawns[1],
            u64::from(kings[0]) << 6 | u64::from(kings[1]),
        ]);
        let entry = &mut self.0[(key >> (64 - INDEX_BITS)) as usize];
        if entry.pawns != pawns || entry.kings != kings {
            let (total, passers) = compute();
            *entry = Entry {
                pawns,
                kings,
                total,
                passers,
            };
        }
        (entry.total, entry.passers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::testing::random_game;
    use crate::engine::eval::{HandCrafted, hce};

    #[test]
    fn cached_evaluation_equals_evaluation_from_scratch() {
        // One cache through every game: hits, misses and replaced entries all occur.
        let mut cache = PawnCache::default();
        let mut rng = crate::chess::Rng::new(11);
        let starts = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for _game in 0..20 {
            for fen in starts {
                for (mut pos, m) in random_game(fen, 300, &mut rng) {
                    pos.play_unchecked(m);
                    assert_eq!(
                        HandCrafted.evaluate_cached(&pos, &mut cache, hce::piece_square_sum(&pos)),
                        HandCrafted.evaluate(&pos),
                        "{}",
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn the_same_pawns_and_kings_are_computed_once() {
        let mut cache = PawnCache::default();
        let computed = std::cell::Cell::new(0);
        let mut get = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            cache.get_or_insert_with(&pos, || {
                computed.set(computed.get() + 1);
                (S(1, 2), [Bitboard::EMPTY; 2])
            })
        };
        get(crate::chess::STARTPOS);
        // A knight moved: the same pawns and kings.
        let again = get("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!((again.0, computed.get()), (S(1, 2), 1));
        // A pawn moved.
        get("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(computed.get(), 2);
    }
}
