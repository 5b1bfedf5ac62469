//! Time management: turns limits into a soft limit (checked between iterations, scaled by
//! best-move stability and score drops) and a hard limit (checked inside the search), both
//! measured from the start of thinking and net of the move overhead.

use std::time::{Duration, Instant};

use crate::chess::Color;

use super::limits::{Limit, SearchLimits};
use super::params::*;
use super::score::MAX_PLY;

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    pub max_depth: i32,
    pub max_nodes: Option<u64>,
    /// Mate distance in moves that ends the search.
    pub mate: Option<u32>,
    /// A fixed move time and no clock: the time given is used, however stable the best move.
    fixed_time: bool,
    /// Best-move stability and last score, updated by the main thread after each iteration.
    stable_iterations: usize,
    last_score: Option<i32>,
}

/// What a fixed move time keeps back at most (the move overhead is for clocks).
const MOVETIME_MARGIN: Duration = Duration::from_millis(10);

/// Soft and hard budgets for one move from our clock. The moves still to come cost the overhead
/// (GUI and pipe latency) too, so the pool shared out is the clock plus the increments to come,
/// less the overhead of the next few moves.
fn clock_budget(
    time: Duration,
    inc: Duration,
    moves_to_go: Option<u32>,
    overhead: Duration,
) -> (Duration, Duration) {
    let mtg = moves_to_go
        .unwrap_or(TIME_DEFAULT_MOVES_TO_GO)
        .clamp(1, TIME_MAX_MOVES_TO_GO);
    let pool = (time + inc * (mtg - 1)).saturating_sub(overhead * mtg.min(TIME_OVERHEAD_MOVES));
    let ceiling = time.saturating_sub(overhead) * TIME_HARD_MAX_PERCENT as u32 / 100;
    let floor = Duration::from_millis(1);
    let soft = (pool / mtg).min(ceiling).max(floor);
    let hard = (soft * TIME_HARD_FACTOR as u32).min(ceiling).max(floor);
    (soft, hard)
}

impl TimeManager {
    pub fn new(
        limits: &SearchLimits,
        us: Color,
        overhead: Duration,
        start: Instant,
    ) -> TimeManager {
        let mut tm = TimeManager {
            start,
            soft: None,
            hard: None,
            max_depth: MAX_PLY as i32 - 1,
            max_nodes: None,
            mate: None,
            stable_iterations: 0,
            last_score: None,
            fixed_time: false,
        };
        let min = |a: Option<Duration>, b: Duration| Some(a.map_or(b, |a| a.min(b)));
        for limit in &limits.limits {
            match *limit {
                Limit::Depth(d) => {
                    let d = i32::try_from(d).unwrap_or(i32::MAX).max(1);
                    tm.max_depth = tm.max_depth.min(d);
                }
                Limit::Nodes(n) => tm.max_nodes = Some(tm.max_nodes.map_or(n, |m| m.min(n))),
                Limit::Mate(m) => tm.mate = Some(m),
                Limit::MoveTime(t) => {
                    // No clock to lose on: only a little is kept back for the reply to travel.
                    let margin = overhead.min(MOVETIME_MARGIN);
                    let t = t.saturating_sub(margin).max(Duration::from_millis(1));
                    tm.soft = min(tm.soft, t);
                    tm.hard = min(tm.hard, t);
                }
                Limit::Clock(clock) => {
                    let (soft, hard) =
                        clock_budget(clock.time[us], clock.inc[us], clock.moves_to_go, overhead);
                    tm.soft = min(tm.soft, soft);
                    tm.hard = min(tm.hard, hard);
                }
            }
        }
        let clock = limits.limits.iter().any(|l| matches!(l, Limit::Clock(_)));
        let movetime = limits
            .limits
            .iter()
            .any(|l| matches!(l, Limit::MoveTime(_)));
        tm.fixed_time = movetime && !clock;
        tm
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Restarts the clock (at `ponderhit`: our time starts running only then).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Whether the search must stop now (checked every few thousand nodes).
    pub fn hard_stop(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }

    /// Records an iteration's best move change and score.
    pub fn iteration_done(&mut self, best_changed: bool, score: i32) -> Duration {
        self.stable_iterations = if best_changed {
            0
        } else {
            self.stable_iterations + 1
        };
        let drop = self.last_score.map_or(0, |last| (last - score).max(0));
        self.last_score = Some(score);
        let Some(soft) = self.soft.filter(|_| !self.fixed_time) else {
            return Duration::MAX;
        };
        let stability = TIME_STABILITY_SCALE[self.stable_iterations.min(4)];
        let drop_extra = (drop as u64 / 10 * TIME_SCORE_DROP_PER_10CP).min(TIME_SCORE_DROP_MAX);
        let scaled = soft.as_micros() as u64 * stability / 100 * (100 + drop_extra) / 100;
        Duration::from_micros(scaled)
    }

    /// Whether to start no further iteration, given the scaled soft limit.
    pub fn soft_stop(&self, scaled_soft: Duration) -> bool {
        let hard = self.hard.unwrap_or(Duration::MAX);
        self.elapsed() >= scaled_soft.min(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::ByColor;
    use crate::engine::limits::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock_at(time: Duration, inc: u64) -> SearchLimits {
        SearchLimits::clock(Clock {
            time: ByColor {
                white: time,
                black: ms(1),
            },
            inc: ByColor {
                white: ms(inc),
                black: ms(0),
            },
            moves_to_go: None,
        })
    }

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> SearchLimits {
        SearchLimits::clock(Clock {
            time: ByColor {
                white: ms(time),
                black: ms(1),
            },
            inc: ByColor {
                white: ms(inc),
                black: ms(0),
            },
            moves_to_go: mtg,
        })
    }

    #[test]
    fn a_move_time_caps_a_clock_search_which_still_scales_by_stability() {
        let mut limits = clock(300_000, 3_000, None);
        limits.limits.push(Limit::MoveTime(ms(10_500)));
        let mut tm = TimeManager::new(&limits, Color::White, ms(50), Instant::now());
        let cap = ms(10_500 - 10);
        assert_eq!(tm.hard, Some(cap));
        assert!(tm.soft.unwrap() <= cap);
        // Not a fixed move time: a stable best move still stops early.
        for _ in 0..5 {
            tm.iteration_done(false, 0);
        }
        assert!(tm.iteration_done(false, 0) < cap);
    }

    #[test]
    fn budgets_stay_well_inside_the_clock() {
        for (time, inc, mtg) in [
            (10_000, 100, None),
            (1_000, 10, None),
            (50, 0, None),
            (5, 0, Some(1)),
            (60_000, 0, Some(1)),
            (300_000, 3_000, Some(40)),
        ] {
            let tm = TimeManager::new(&clock(time, inc, mtg), Color::White, ms(10), Instant::now());
            let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
            assert!(soft <= hard, "{time}+{inc}");
            let budget = ms(time).saturating_sub(ms(10)).max(ms(1));
            assert!(hard <= budget, "{time}+{inc}: hard {hard:?}");
            // Spending the soft budget every move never empties the clock.
            let mut clock = ms(time);
            for _ in 0..200 {
                let tm =
                    TimeManager::new(&clock_at(clock, inc), Color::White, ms(10), Instant::now());
                let spent = tm.soft.unwrap() + ms(10);
                clock = clock.saturating_sub(spent) + ms(inc);
                assert!(
                    clock > Duration::ZERO || inc == 0 || time < 100,
                    "{time}+{inc} ran out"
                );
            }
            assert!(hard > Duration::ZERO);
        }
        let tm = TimeManager::new(
            &clock(10_000, 100, None),
            Color::White,
            ms(10),
            Instant::now(),
        );
        assert!(tm.soft.unwrap() > ms(300) && tm.hard.unwrap() < ms(4_000));
    }

    #[test]
    fn movetime_depth_nodes_and_black_clock() {
        let mut limits = SearchLimits::move_time(ms(500));
        limits.limits.push(Limit::Depth(7));
        limits.limits.push(Limit::Nodes(1000));
        let tm = TimeManager::new(&limits, Color::White, ms(50), Instant::now());
        assert_eq!(tm.hard, Some(ms(490)));
        assert_eq!((tm.max_depth, tm.max_nodes), (7, Some(1000)));
        let tm = TimeManager::new(
            &clock(10_000, 0, None),
            Color::Black,
            ms(10),
            Instant::now(),
        );
        assert!(tm.hard.unwrap() <= ms(1), "black has 1 ms");
        let tm = TimeManager::new(
            &SearchLimits::infinite(),
            Color::White,
            ms(10),
            Instant::now(),
        );
        assert!(tm.hard.is_none() && !tm.hard_stop());
    }

    #[test]
    fn a_fixed_move_time_is_used_whatever_the_stability() {
        let mut tm = TimeManager::new(
            &SearchLimits::move_time(ms(500)),
            Color::White,
            ms(0),
            Instant::now(),
        );
        for _ in 0..10 {
            // The best move never changes: with a clock this would stop early.
            assert_eq!(tm.iteration_done(false, 30), Duration::MAX);
        }
        assert!(!tm.soft_stop(Duration::MAX));
        let mut clocked =
            TimeManager::new(&clock(10_000, 0, None), Color::White, ms(0), Instant::now());
        assert!(clocked.iteration_done(false, 30) < Duration::MAX);
    }

    #[test]
    fn unstable_best_move_and_score_drop_get_more_time() {
        let mut tm = TimeManager::new(&clock(10_000, 0, None), Color::White, ms(0), Instant::now());
        let unstable = tm.iteration_done(true, 0);
        let mut stable = unstable;
        for _ in 0..5 {
            stable = tm.iteration_done(false, 0);
        }
        assert!(stable < unstable);
        let dropped = tm.iteration_done(false, -100);
        assert!(dropped > stable);
    }
}
