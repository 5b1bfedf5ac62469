//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared test data folder: `$KIBITZER_SHARED`, or `../shared` beside the checkout.
/// Returns `None` (and says so) only when the folder is genuinely absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("KIBITZER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: shared test data not found at {}", dir.display());
        None
    }
}

/// Reads a shared file as text, with NUL bytes (some suites put one before each newline) removed.
pub fn read_shared(relative: &str) -> Option<String> {
    let path = shared_dir()?.join(relative);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(String::from_utf8_lossy(&bytes).replace('\0', ""))
}

/// A small seeded generator (xorshift64*): tests stay deterministic without extra crates.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform-enough in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
