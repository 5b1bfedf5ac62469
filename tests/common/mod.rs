//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};
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

/// The crate's seeded generator: tests stay deterministic without extra crates.
pub use kibitzer::chess::Rng;

pub mod tmux;

/// How many inputs each fuzz target tries: `$KIBITZER_FUZZ_ITERATIONS`, or `default` (the
/// short run of the default suite; `scripts/fuzz-long.sh` runs a million).
pub fn fuzz_iterations(default: usize) -> usize {
    std::env::var("KIBITZER_FUZZ_ITERATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Characters that parsers react to, so mutations reach deep into them.
const ALPHABET: &[u8] = b"pnbrqkPNBRQKabcdefghABCDEFGH012345678/ -=+#x:()O!?;\"\tw";

/// One random edit of `s`: replace, insert, delete, duplicate, truncate or swap.
pub fn mutate(rng: &mut Rng, s: &[u8]) -> Vec<u8> {
    let mut v = s.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = v.len();
        let byte = if rng.below(8) == 0 {
            rng.next_u64() as u8
        } else {
            ALPHABET[rng.below(ALPHABET.len())]
        };
        match rng.below(6) {
            0 if len > 0 => v[rng.below(len)] = byte,
            1 => v.insert(rng.below(len + 1), byte),
            2 if len > 0 => {
                v.remove(rng.below(len));
            }
            3 if len > 0 => {
                let start = rng.below(len);
                let end = start + rng.below(len - start + 1);
                let chunk = v[start..end].to_vec();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, chunk);
            }
            4 => v.truncate(rng.below(len + 1)),
            _ if len > 1 => {
                let (a, b) = (rng.below(len), rng.below(len));
                v.swap(a, b);
            }
            _ => v.push(byte),
        }
    }
    v
}

pub fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(100)).map(|_| rng.next_u64() as u8).collect()
}

/// Runs `f` on `input`, failing with the input named if it panics.
pub fn no_panic(what: &str, input: &str, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        panic!("{what} panicked on {input:?}");
    }
}

/// Runs the `kibitzer` binary with `args` in `dir`.
pub fn kibitzer(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("kibitzer runs")
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
