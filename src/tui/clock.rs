//! Chess clocks: a time control, and two clocks of which at most one runs.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::chess::{ByColor, Color};

/// Base time and increment per move, or no clock at all.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimeControl {
    Untimed,
    Fischer { base: Duration, increment: Duration },
}

const fn fischer(minutes: u64, increment_s: u64) -> TimeControl {
    TimeControl::Fischer {
        base: Duration::from_secs(minutes * 60),
        increment: Duration::from_secs(increment_s),
    }
}

/// Presets offered in the new-game dialog.
pub const PRESETS: [TimeControl; 7] = [
    fischer(1, 0),
    fischer(3, 2),
    fischer(5, 3),
    fischer(10, 5),
    fischer(15, 10),
    fischer(30, 0),
    TimeControl::Untimed,
];
/// The length of game a human shares the clock over: see `TimeControl::human_pace`.
const PACE_MOVES: u32 = 40;

impl TimeControl {
    /// The most the interface's opponent thinks on one move: a human's average move at this time
    /// control (the base shared over a 40-move game, plus the increment; 10.5 s at 5+3). The
    /// engine's own budget is larger early on (its first moves out of book took 17-21 s at 5+3),
    /// which a player across the board feels as a hang.
    pub fn human_pace(self) -> Option<Duration> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Fischer { base, increment } => Some(base / PACE_MOVES + increment),
        }
    }
}

/// 5+3, when the configured time control is not a preset.
pub const DEFAULT_PRESET: usize = 2;

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TimeControlError {
    #[error("'{0}' is not a time control (examples: 5+3, 10, 0.5+1, untimed)")]
    Syntax(String),
    /// With no time at the start, the first move would already be late.
    #[error(
        "'{0}' starts the clocks with less than a second, so the first move would lose on time; \
         give some minutes (0.5+1 is 30 seconds and 1 a move)"
    )]
    NoBase(String),
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `MINUTES[+SECONDS]`, minutes may be fractional; `untimed` or `-` for no clock.
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let err = || TimeControlError::Syntax(s.to_owned());
        let s = s.trim();
        if s.eq_ignore_ascii_case("untimed") || s == "-" {
            return Ok(TimeControl::Untimed);
        }
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let minutes: f64 = base.trim().parse().map_err(|_| err())?;
        let seconds: f64 = inc.trim().parse().map_err(|_| err())?;
        let ok = |v: f64| v.is_finite() && (0.0..=10_000.0).contains(&v);
        if !ok(minutes) || !ok(seconds) {
            return Err(err());
        }
        if minutes * 60.0 < 1.0 {
            return Err(TimeControlError::NoBase(s.to_owned()));
        }
        Ok(TimeControl::Fischer {
            base: Duration::from_secs_f64(minutes * 60.0),
            increment: Duration::from_secs_f64(seconds),
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => f.write_str("untimed"),
            TimeControl::Fischer { base, increment } => {
                let minutes = base.as_secs_f64() / 60.0;
                write!(f, "{minutes}+{}", increment.as_secs_f64())
            }
        }
    }
}

/// Both clocks. Time is charged to the running side when it stops or is read.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    remaining: ByColor<Duration>,
    running: Option<(Color, Instant)>,
}

impl Clocks {
    pub fn new(control: TimeControl) -> Clocks {
        let base = match control {
            TimeControl::Untimed => Duration::ZERO,
            TimeControl::Fischer { base, .. } => base,
        };
        Clocks {
            control,
            remaining: ByColor {
                white: base,
                black: base,
            },
            running: None,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    pub fn is_timed(&self) -> bool {
        self.control != TimeControl::Untimed
    }

    pub fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Untimed => Duration::ZERO,
            TimeControl::Fischer { increment, .. } => increment,
        }
    }

    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// Time left for `color` at `now`.
    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let left = self.remaining[color];
        match self.running {
            Some((c, since)) if c == color => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    pub fn set_remaining(&mut self, remaining: ByColor<Duration>) {
        self.remaining = remaining;
    }

    /// Starts `color`'s clock (stopping the other without increment).
    pub fn start(&mut self, color: Color, now: Instant) {
        self.stop(now);
        if self.is_timed() {
            self.running = Some((color, now));
        }
    }

    /// Stops the running clock, charging the time used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.remaining[c] = self.remaining(c, now);
            self.running = None;
        }
    }

    /// The mover finished a move: charge its time, add the increment, start the other clock.
    pub fn press(&mut self, mover: Color, now: Instant) {
        self.stop(now);
        if self.is_timed() {
            let inc = self.increment();
            self.remaining[mover] += inc;
            self.running = Some((!mover, now));
        }
    }

    /// The side whose flag has fallen, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let (c, _) = self.running?;
        (self.remaining(c, now).is_zero()).then_some(c)
    }

    /// How long until the shown time of the running clock changes (for the redraw timer).
    pub fn next_change(&self, now: Instant) -> Option<Duration> {
        let (c, _) = self.running?;
        let left = self.remaining(c, now);
        // Tenths are shown under 20 seconds, whole seconds above.
        let unit = if left < Duration::from_secs(20) {
            100
        } else {
            1000
        };
        let ms = left.as_millis() as u64 % unit;
        Some(Duration::from_millis(ms.max(1) + 1))
    }
}

/// `m:ss`, `h:mm:ss`, or `s.t` under 20 seconds.
pub fn format_clock(d: Duration) -> String {
    let ms = d.as_millis() as u64;
    if ms < 20_000 {
        return format!("{}.{}", ms / 1000, ms / 100 % 10);
    }
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_human_pace_is_the_average_move_of_a_40_move_game() {
        let pace = |tc: &str| tc.parse::<TimeControl>().unwrap().human_pace();
        assert_eq!(pace("5+3"), Some(Duration::from_millis(10_500)));
        assert_eq!(pace("1+0"), Some(Duration::from_millis(1_500)));
        assert_eq!(pace("15+10"), Some(Duration::from_millis(32_500)));
        assert_eq!(pace("untimed"), None);
    }

    #[test]
    fn parses_time_controls() {
        let tc: TimeControl = "5+3".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl::Fischer {
                base: Duration::from_secs(300),
                increment: Duration::from_secs(3)
            }
        );
        assert_eq!(
            "untimed".parse::<TimeControl>().unwrap(),
            TimeControl::Untimed
        );
        assert_eq!(
            "0.5".parse::<TimeControl>().unwrap(),
            TimeControl::Fischer {
                base: Duration::from_secs(30),
                increment: Duration::ZERO
            }
        );
        for bad in ["", "x", "5+", "-3+2", "0+0", "1e9", "nan"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        // No time at the start cannot be played: said why.
        let e = "0+1".parse::<TimeControl>().unwrap_err();
        assert!(e.to_string().contains("lose on time"), "{e}");
        for p in PRESETS {
            assert_eq!(p.to_string().parse::<TimeControl>(), Ok(p), "{p}");
        }
    }

    #[test]
    fn clocks_charge_and_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new("1+2".parse().unwrap());
        c.start(Color::White, t0);
        let t1 = t0 + Duration::from_secs(10);
        assert_eq!(c.remaining(Color::White, t1), Duration::from_secs(50));
        c.press(Color::White, t1);
        assert_eq!(c.remaining(Color::White, t1), Duration::from_secs(52));
        assert_eq!(c.running(), Some(Color::Black));
        let t2 = t1 + Duration::from_secs(61);
        assert_eq!(c.flagged(t2), Some(Color::Black));
        assert_eq!(format_clock(Duration::from_millis(65_000)), "1:05");
        assert_eq!(format_clock(Duration::from_millis(9_870)), "9.8");
        assert_eq!(format_clock(Duration::from_secs(3725)), "1:02:05");
    }

    #[test]
    fn untimed_never_runs() {
        let mut c = Clocks::new(TimeControl::Untimed);
        c.start(Color::White, Instant::now());
        assert_eq!(c.running(), None);
        assert_eq!(c.flagged(Instant::now()), None);
    }
}
