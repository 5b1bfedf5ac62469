//! Every search and time-management tunable, in one place under one naming scheme
//! (`<TECHNIQUE>_<WHAT>`). Depths are in plies, margins in centipawns, times in milliseconds.

/// Aspiration windows: first half-width, and the iteration from which they are used.
pub const ASP_WINDOW: i32 = 20;
pub const ASP_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: eval - margin * depth >= beta.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 75;

/// Razoring: drop into quiescence when eval + margin * depth is below alpha.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 250;

/// Null-move pruning: R = BASE + depth / DEPTH_DIV + min((eval - beta) / EVAL_DIV, EVAL_MAX).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DEPTH_DIV: i32 = 3;
pub const NMP_EVAL_DIV: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;
/// From this depth a null-move cutoff is verified by a reduced search without null moves.
pub const NMP_VERIFY_DEPTH: i32 = 14;

/// Internal iterative reduction when there is no TT move.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late-move pruning: quiet moves searched before the rest are skipped, (BASE + d^2) / (2 - improving).
pub const LMP_BASE: i32 = 3;
pub const LMP_MAX_DEPTH: i32 = 8;

/// Futility pruning of quiet moves at shallow reduced depth.
pub const FP_MAX_DEPTH: i32 = 8;
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 100;

/// SEE pruning thresholds: quiet -QUIET * d^2, noisy -NOISY * d.
pub const SEE_QUIET_MARGIN: i32 = 40;
pub const SEE_NOISY_MARGIN: i32 = 90;
pub const SEE_MAX_DEPTH: i32 = 8;

/// Late-move reductions: r = BASE + ln(depth) * ln(moves) / DIV, minus history / HIST_DIV.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIV: f64 = 2.25;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_HIST_DIV: i32 = 8192;
/// A reduced move that beats the best score by DEEPER + 2 * depth is searched again a ply
/// deeper; by less than SHALLOWER, a ply shallower.
pub const LMR_DEEPER_MARGIN: i32 = 40;
pub const LMR_SHALLOWER_MARGIN: i32 = 10;

/// Singular extensions.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_DOUBLE_MARGIN: i32 = 20;
pub const SE_MAX_DOUBLE: i32 = 6;

/// Quiescence: delta (futility) pruning margin over the captured piece's value.
pub const QS_DELTA_MARGIN: i32 = 150;

/// History tables: bonus = min(MULT * d^2 + ADD * d, MAX), values kept within +-LIMIT.
pub const HIST_BONUS_MULT: i32 = 16;
pub const HIST_BONUS_ADD: i32 = 32;
pub const HIST_BONUS_MAX: i32 = 1200;
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
