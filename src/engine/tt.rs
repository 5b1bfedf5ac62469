//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an entry
//! only when `stored_key ^ data` gives back its own key, so a torn entry (two threads writing
//! the same slot at once: the race we accept) reads as a miss rather than as wrong data. Hash
//! collisions can still hand back another position's move; the move picker plays a TT move only
//! after finding it among the legal moves, so such a move is never played.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::chess::Move;

use super::score::{Bound, TB_BOUND};

const ENTRIES_PER_BUCKET: usize = 4;
const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

/// A table hit, with the value already made relative to the probing ply.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub value: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// Why a hash table of the size asked for was not made.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum HashSizeError {
    #[error("a {mb} MiB hash table is more than this machine's {memory_mb} MiB of memory")]
    MoreThanMemory { mb: usize, memory_mb: usize },
    #[error("the system refused {mb} MiB for the hash table")]
    AllocationFailed { mb: usize },
}

/// Refuses a hash table larger than the machine's physical memory, which could only be had by
/// swapping, or not at all (an allocation that fails aborts the process).
pub fn check_hash_size(mb: usize) -> Result<usize, HashSizeError> {
    match physical_memory_mb() {
        Some(memory_mb) if mb > memory_mb => Err(HashSizeError::MoreThanMemory { mb, memory_mb }),
        _ => Ok(mb),
    }
}

/// The machine's physical memory in MiB, where the system says.
#[cfg(unix)]
pub fn physical_memory_mb() -> Option<usize> {
    // SAFETY: sysconf only reads system configuration values.
    let (pages, page_size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && page_size > 0).then(|| ((pages as u128 * page_size as u128) >> 20) as usize)
}

#[cfg(not(unix))]
pub fn physical_memory_mb() -> Option<usize> {
    None
}

/// Packed entry: move 16 bits, value 16, eval 16, depth 8, bound 2, age 6.
#[derive(Clone, Copy)]
struct Packed(u64);

impl Packed {
    fn new(e: TtEntry, age: u8) -> Packed {
        let mv = e.mv.map_or(0, Move::to_u16) as u64;
        let value = e.value as i16 as u16 as u64;
        let eval = e.eval as i16 as u16 as u64;
        let depth = e.depth.clamp(0, 255) as u8 as u64;
        let bound = e.bound as u64;
        Packed(mv | value << 16 | eval << 32 | depth << 48 | bound << 56 | (age as u64) << 58)
    }
    fn mv(self) -> Option<Move> {
        Move::from_u16(self.0 as u16)
    }
    fn value(self) -> i32 {
        (self.0 >> 16) as u16 as i16 as i32
    }
    fn eval(self) -> i32 {
        (self.0 >> 32) as u16 as i16 as i32
    }
    fn depth(self) -> i32 {
        (self.0 >> 48) as u8 as i32
    }
    fn bound(self) -> Option<Bound> {
        match (self.0 >> 56) & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
    fn age(self) -> u8 {
        (self.0 >> 58) as u8 & AGE_MASK
    }
    /// The entry as stored (values relative to the node); `None` for an empty slot.
    fn entry(self) -> Option<TtEntry> {
        Some(TtEntry {
            mv: self.mv(),
            value: self.value(),
            eval: self.eval(),
            depth: self.depth(),
            bound: self.bound()?,
        })
    }
}

/// Asks Linux to back the table's still untouched memory with 2 MiB pages: probes land anywhere
/// in it, and with 4 KiB pages most of them also miss the TLB. Only advice: where transparent
/// huge pages are off, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &mut Vec<Bucket>) {
    const HUGE_PAGE: usize = 2 * 1024 * 1024;
    let start = buckets.as_mut_ptr() as usize;
    let end = start + buckets.capacity() * size_of::<Bucket>();
    // Only whole huge pages inside the allocation.
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if first < last {
        // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE changes
        // how pages are backed, never their contents or the mapping's access.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &mut Vec<Bucket>) {}

/// Mate and tablebase scores are stored relative to the node, not the root, so they stay right
/// when the same position is reached at another ply.
fn value_to_tt(value: i32, ply: usize) -> i32 {
    if value >= TB_BOUND {
        value + ply as i32
    } else if value <= -TB_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn value_from_tt(value: i32, ply: usize) -> i32 {
    if value >= TB_BOUND {
        value - ply as i32
    } else if value <= -TB_BOUND {
        value + ply as i32
    } else {
        value
    }
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket). Fails, rather than aborting the
    /// process, when the machine cannot hold it: more than its physical memory, or an allocation
    /// the system refuses.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashSizeError> {
        check_hash_size(mb)?;
        let count = (mb * 1024 * 1024 / size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| HashSizeError::AllocationFailed { mb })?;
        advise_huge_pages(&mut buckets);
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// A small table that any machine holds (tests and fallbacks).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("a small hash table fits in memory")
    }

    /// Empties every entry (needs no search running to be complete).
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for slot in &bucket.0 {
                slot.key.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe a little later does not
    /// wait on main memory (where the table is bigger than the caches, most probes would).
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        self.bucket(key).0.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed);
            let packed = Packed(data);
            if stored ^ data != key {
                return None;
            }
            let entry = packed.entry()?;
            Some(TtEntry {
                value: value_from_tt(entry.value, ply),
                ..entry
            })
        })
    }

    /// Stores `entry` for the node `ply` plies from the root (its value is relative to the root).
    /// The slot: the position's own, else the entry worth least (shallow, or from older searches).
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let age_of = |p: Packed| i32::from(generation.wrapping_sub(p.age()) & AGE_MASK);
        let new = TtEntry {
            value: value_to_tt(entry.value, ply),
            ..entry
        };
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let packed = Packed(data);
            if slot.key.load(Ordering::Relaxed) ^ data == key
                && let Some(old) = packed.entry()
            {
                let mv = new.mv.or(old.mv);
                // Same position: keep a deeper entry of this search unless the new one is exact,
                // but take the new best move.
                if new.bound != Bound::Exact
                    && new.depth + 4 <= old.depth
                    && packed.age() == generation
                {
                    if mv != old.mv {
                        Self::write(slot, key, TtEntry { mv, ..old }, generation);
                    }
                    return;
                }
                Self::write(slot, key, TtEntry { mv, ..new }, generation);
                return;
            }
            let worth = if packed.bound().is_none() {
                i32::MIN
            } else {
                packed.depth() - 8 * age_of(packed)
            };
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        Self::write(victim, key, new, generation);
    }

    fn write(slot: &Slot, key: u64, entry: TtEntry, age: u8) {
        let data = Packed::new(entry, age).0;
        slot.data.store(data, Ordering::Relaxed);
        slot.key.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(1000 / ENTRIES_PER_BUCKET);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|slot| {
                let p = Packed(slot.data.load(Ordering::Relaxed));
                p.bound().is_some() && p.age() == generation
            })
            .count();
        (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::engine::score::{mate_in, mated_in};

    fn entry(mv: Option<Move>, value: i32, eval: i32, depth: i32, bound: Bound) -> TtEntry {
        TtEntry {
            mv,
            value,
            eval,
            depth,
            bound,
        }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos();
        let mv = pos.legal_moves()[3];
        tt.store(pos.hash(), 0, entry(Some(mv), -123, 45, 7, Bound::Lower));
        let e = tt.probe(pos.hash(), 0).expect("hit");
        assert_eq!(e.mv, Some(mv));
        assert_eq!(
            (e.value, e.eval, e.depth, e.bound),
            (-123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(pos.hash() ^ 1, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Found at ply 5: mate in 3 plies from there is mate_in(8) from the root.
        tt.store(42, 5, entry(None, mate_in(8), 0, 3, Bound::Exact));
        assert_eq!(tt.probe(42, 5).unwrap().value, mate_in(8));
        assert_eq!(tt.probe(42, 1).unwrap().value, mate_in(4));
        tt.store(43, 2, entry(None, mated_in(6), 0, 3, Bound::Exact));
        assert_eq!(tt.probe(43, 10).unwrap().value, mated_in(14));
    }

    #[test]
    fn keeps_move_clear_and_hashfull() {
        let tt = TranspositionTable::new(1);
        let mv = Position::startpos().legal_moves()[0];
        tt.store(7, 0, entry(Some(mv), 10, 0, 4, Bound::Exact));
        tt.store(7, 0, entry(None, 20, 0, 6, Bound::Upper));
        let e = tt.probe(7, 0).unwrap();
        assert_eq!((e.mv, e.value, e.depth), (Some(mv), 20, 6));
        for key in 0..5000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                entry(None, 0, 0, 1, Bound::Exact),
            );
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert!(tt.probe(7, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn a_shallower_store_keeps_the_deeper_value_but_takes_the_new_move() {
        let tt = TranspositionTable::new(1);
        let moves = Position::startpos().legal_moves();
        tt.store(9, 0, entry(Some(moves[0]), 50, 7, 12, Bound::Lower));
        tt.store(9, 0, entry(Some(moves[1]), -30, 7, 3, Bound::Lower));
        let e = tt.probe(9, 0).unwrap();
        assert_eq!((e.mv, e.value, e.depth), (Some(moves[1]), 50, 12));
    }

    #[test]
    fn depth_preferred_replacement_in_a_full_bucket() {
        let tt = TranspositionTable::new(0);
        // One bucket: keys all collide. Fill with depths 10, 2, 8, 9 then add a fifth.
        for (key, depth) in [(1u64, 10), (2, 2), (3, 8), (4, 9)] {
            tt.store(key, 0, entry(None, 0, 0, depth, Bound::Exact));
        }
        tt.store(5, 0, entry(None, 0, 0, 5, Bound::Exact));
        assert!(tt.probe(2, 0).is_none(), "the shallowest entry goes");
        assert!(tt.probe(1, 0).is_some() && tt.probe(5, 0).is_some());
    }
}
