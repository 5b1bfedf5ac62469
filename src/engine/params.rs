//! Every search and time-management tunable, in one place under one naming scheme
//! (`<TECHNIQUE>_<WHAT>`). Depths are in plies, margins in centipawns, times in milliseconds.
//! The margins and divisors that SPSA can tune are in [`tunables!`] at the end, read through
//! functions: constants in a normal build, UCI options in a build with the `tune` feature.

/// Aspiration windows: the iteration from which they are used (`asp_window` is the first
/// half-width).
pub const ASP_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: eval - margin * depth >= beta.
pub const RFP_MAX_DEPTH: i32 = 8;

/// Razoring: drop into quiescence when eval + margin * depth is below alpha.
pub const RAZOR_MAX_DEPTH: i32 = 3;

/// Null-move pruning: R = BASE + depth / DEPTH_DIV + min((eval - beta) / `nmp_eval_div`, EVAL_MAX).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DEPTH_DIV: i32 = 3;
pub const NMP_EVAL_MAX: i32 = 3;
/// From this depth a null-move cutoff is verified by a reduced search without null moves.
pub const NMP_VERIFY_DEPTH: i32 = 14;

/// Internal iterative reduction when there is no TT move.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move pruning up to this depth (how many quiets first: `lmp_base`).
pub const LMP_MAX_DEPTH: i32 = 8;

/// Futility pruning of quiet moves up to this reduced depth (`fp_base`, `fp_margin`).
pub const FP_MAX_DEPTH: i32 = 8;

/// SEE pruning up to this depth (`see_quiet_margin`, `see_noisy_margin`).
pub const SEE_MAX_DEPTH: i32 = 8;

/// Late-move reductions from this depth (the amounts: `lmr_base`, `lmr_div`, `lmr_hist_div`).
pub const LMR_MIN_DEPTH: i32 = 3;

/// Singular extensions.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MAX_DOUBLE: i32 = 6;

/// History tables: values kept within +-LIMIT (the bonus: `hist_bonus_*`).
pub const HIST_LIMIT: i32 = 16384;

/// Time management (clock games).
pub const TIME_DEFAULT_MOVES_TO_GO: u32 = 30;
pub const TIME_MAX_MOVES_TO_GO: u32 = 50;
/// How many future moves' overhead is held back from the clock.
pub const TIME_OVERHEAD_MOVES: u32 = 15;
/// The hard limit is at most this many soft limits and this percent of the remaining clock.
pub const TIME_HARD_FACTOR: u64 = 4;
pub const TIME_HARD_MAX_PERCENT: u64 = 40;
/// Soft-limit scale (percent) by how many iterations the best move has not changed (0..=4+).
pub const TIME_STABILITY_SCALE: [u64; 5] = [160, 120, 90, 80, 70];
/// Extra soft time (percent per 10 cp) when the score dropped from the previous iteration.
pub const TIME_SCORE_DROP_PER_10CP: u64 = 6;
pub const TIME_SCORE_DROP_MAX: u64 = 100;
/// The main thread checks the clock every this many nodes.
pub const TIME_CHECK_NODES: u64 = 1024;

/// Tablebase results are stored this much deeper than the node, being exact to any depth.
pub const TB_DEPTH_BONUS: i32 = 6;

/// One tunable: its UCI option name (in a `tune` build), value and range.
#[derive(Debug)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    #[cfg(feature = "tune")]
    value: &'static std::sync::atomic::AtomicI32,
}

#[cfg(feature = "tune")]
impl Tunable {
    /// Sets the value the search reads from now on; refused outside the range.
    pub fn set(&self, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!(
                "option {}: {value} is outside {}..{}",
                self.name, self.min, self.max
            ));
        }
        self.value
            .store(value, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
}

/// Declares each tunable as a function (`name / OPTION = default, min..=max;`), and lists
/// them all in [`TUNABLES`]. A normal build returns the default as a constant; a build with
/// the `tune` feature reads a value that [`Tunable::set`] changes, for SPSA.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $f:ident / $name:ident = $default:literal, $min:literal..=$max:literal;)*) => {
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod values {
            use std::sync::atomic::AtomicI32;
            $(pub static $f: AtomicI32 = AtomicI32::new($default);)*
        }

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $f() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline]
            pub fn $f() -> i32 {
                values::$f.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// Every tunable, in declaration order.
        pub static TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            #[cfg(feature = "tune")]
            value: &values::$f,
        }),*];
    };
}

tunables! {
    /// Aspiration windows: first half-width.
    asp_window / ASP_WINDOW = 20, 5..=60;
    /// Reverse futility pruning: eval - margin * depth >= beta.
    rfp_margin / RFP_MARGIN = 64, 30..=150;
    /// Razoring: drop into quiescence when eval + margin * depth is below alpha.
    razor_margin / RAZOR_MARGIN = 250, 100..=500;
    /// Null-move pruning's R grows by (eval - beta) / this (up to NMP_EVAL_MAX).
    nmp_eval_div / NMP_EVAL_DIV = 185, 80..=400;
    /// Late-move pruning: quiet moves searched before the rest are skipped,
    /// (this + d^2) / (2 - improving).
    lmp_base / LMP_BASE = 4, 0..=12;
    /// Futility pruning of quiet moves: static eval + base + margin * reduced depth <= alpha.
    fp_base / FP_BASE = 103, 20..=200;
    fp_margin / FP_MARGIN = 108, 40..=200;
    /// SEE pruning thresholds: quiet -QUIET * d^2, noisy -NOISY * d.
    see_quiet_margin / SEE_QUIET_MARGIN = 37, 10..=100;
    see_noisy_margin / SEE_NOISY_MARGIN = 90, 30..=200;
    /// Late-move reductions: r = BASE + ln(depth) * ln(moves) / DIV (both in hundredths), minus
    /// history / HIST_DIV.
    lmr_base / LMR_BASE = 106, 0..=200;
    lmr_div / LMR_DIV = 234, 100..=400;
    lmr_hist_div / LMR_HIST_DIV = 8192, 2048..=16384;
    /// A reduced move that beats the best score by DEEPER + 2 * depth is searched again a ply
    /// deeper; by less than SHALLOWER, a ply shallower.
    lmr_deeper_margin / LMR_DEEPER_MARGIN = 40, 10..=100;
    lmr_shallower_margin / LMR_SHALLOWER_MARGIN = 10, 0..=40;
    /// Singular extensions: a second ply when the other moves score this far below the
    /// singular bound.
    se_double_margin / SE_DOUBLE_MARGIN = 20, 5..=60;
    /// Quiescence: delta (futility) pruning margin over the captured piece's value.
    qs_delta_margin / QS_DELTA_MARGIN = 150, 50..=300;
    /// History bonus: min(MULT * d^2 + ADD * d, MAX).
    hist_bonus_mult / HIST_BONUS_MULT = 16, 4..=40;
    hist_bonus_add / HIST_BONUS_ADD = 32, 0..=100;
    hist_bonus_max / HIST_BONUS_MAX = 1200, 400..=3000;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_inside_its_range_and_every_name_is_distinct() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
        }
        let mut names: Vec<_> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len());
        assert_eq!(TUNABLES[1].name, "RFP_MARGIN");
        if !cfg!(feature = "tune") {
            assert_eq!(rfp_margin(), TUNABLES[1].default);
        }
    }
}
