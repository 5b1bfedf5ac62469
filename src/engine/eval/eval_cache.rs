//! A search thread's cache of whole static evaluations. The table keeps the evaluation of the
//! nodes it stores, but a node cut by reverse futility or the null move, or a quiescence node
//! that stands pat, stores nothing, and the search comes back to many of them by transposition:
//! one evaluation in six at `bench`'s depth 11 (one in eight at depth 16) is of a position
//! evaluated shortly before. The search is the same with or without the cache; only the time
//! differs.

use crate::chess::Position;

const INDEX_BITS: u32 = 16;
const ENTRIES: usize = 1 << INDEX_BITS;

#[derive(Clone, Copy)]
struct Entry {
    /// The position's Zobrist key and its fifty-move count (the hand-crafted evaluation
    /// shrinks towards that draw), which together are all that the evaluation reads.
    key: u64,
    halfmoves: u32,
    value: i32,
}

/// A fifty-move count no position reaches: no position matches an empty entry.
const EMPTY: Entry = Entry {
    key: 0,
    halfmoves: u32::MAX,
    value: 0,
};

pub struct EvalCache(Box<[Entry]>);

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache(vec![EMPTY; ENTRIES].into_boxed_slice())
    }
}

impl EvalCache {
    /// Starts loading the entry of the position with `key`, which is about to be evaluated.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        super::super::prefetch::prefetch(&self.0[Self::index(key)]);
    }

    fn index(key: u64) -> usize {
        (key >> (64 - INDEX_BITS)) as usize
    }

    /// `pos`'s evaluation from the cache, or from `compute`, which is then kept.
    #[inline]
    pub(super) fn get_or_insert_with(
        &mut self,
        pos: &Position,
        compute: impl FnOnce() -> i32,
    ) -> i32 {
        let (key, halfmoves) = (pos.hash(), pos.halfmoves());
        let entry = &mut self.0[Self::index(key)];
        if entry.key != key || entry.halfmoves != halfmoves {
            *entry = Entry {
                key,
                halfmoves,
                value: compute(),
            };
        }
        entry.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_evaluated_once_per_fifty_move_count() {
        let mut cache = EvalCache::default();
        let computed = std::cell::Cell::new(0);
        let mut get = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            cache.get_or_insert_with(&pos, || {
                computed.set(computed.get() + 1);
                computed.get()
            })
        };
        let knight_out = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
        assert_eq!(get(knight_out), 1);
        assert_eq!(get(knight_out), 1);
        // The same placement, later in the fifty-move count: evaluated again.
        assert_eq!(
            get("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3"),
            2
        );
        assert_eq!(get(crate::chess::STARTPOS), 3);
        assert_eq!(computed.get(), 3);
    }
}
