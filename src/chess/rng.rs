//! The one small seeded generator of the crate and its tests (xorshift64*): the same stream from
//! the same seed, no dependency. For shuffling, random openings, strength noise and test inputs;
//! never for anything secret.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Any seed works (0, the generator's fixed point, is moved off it).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Seeded from the clock, so that runs differ (book picks, Chess960 starts).
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Rng::new(nanos)
    }

    /// Uniform enough in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_from_a_seed_and_cover_the_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        let mut zero = Rng::new(0);
        assert_ne!(zero.next_u64(), 0);
        let mut seen = [false; 10];
        for _ in 0..1000 {
            seen[a.below(10)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let mut items: Vec<u32> = (0..50).collect();
        a.shuffle(&mut items);
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<u32>>());
    }
}
