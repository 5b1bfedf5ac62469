//! Grading moves by what they cost: winning chances on lichess's logistic curve, the
//! inaccuracy / mistake / blunder thresholds, centipawn loss and per-move accuracy.

use crate::engine::Score;
use crate::game::Nag;

/// Centipawns beyond which a score counts as decided (for loss and chance arithmetic).
const CP_CEILING: i32 = 1_000;

/// A mate in `n` as the centipawn value the curves use: closer mates count more.
fn mate_as_cp(n: i32) -> i32 {
    let sign = if n > 0 { 1 } else { -1 };
    sign * (21 - n.abs().min(10)) * 100
}

/// A score as bounded centipawns, for losses and winning chances.
pub fn bounded_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        // Mate(0): the side to move is already mated.
        Score::Mate(0) => -mate_as_cp(1),
        Score::Mate(n) => mate_as_cp(n),
    }
}

/// Winning chances in [-1, 1] for the side the score is from (lichess's curve).
pub fn winning_chances(score: Score) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * f64::from(bounded_cp(score))).exp()) - 1.0
}

/// How bad a move was.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// By the drop in the mover's winning chances: 0.1, 0.2 and 0.3 (lichess's thresholds).
    pub fn from_drop(drop: f64) -> Option<Judgement> {
        if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    pub fn nag(self) -> Nag {
        match self {
            Judgement::Inaccuracy => Nag(6),
            Judgement::Mistake => Nag(2),
            Judgement::Blunder => Nag(4),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// Per-move accuracy in percent from the mover's win percentage before and after (lichess's
/// formula).
pub fn move_accuracy(before: Score, after: Score) -> f64 {
    let win_percent = |s: Score| 50.0 + 50.0 * winning_chances(s);
    let drop = (win_percent(before) - win_percent(after)).max(0.0);
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// One side's totals over a game.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct SideStats {
    pub moves: u32,
    pub centipawn_loss: u64,
    pub accuracy_sum: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

impl SideStats {
    /// Records one graded move; scores are from the mover's side.
    pub fn add(&mut self, before: Score, after: Score, judgement: Option<Judgement>) {
        self.moves += 1;
        self.centipawn_loss += (bounded_cp(before) - bounded_cp(after)).max(0) as u64;
        self.accuracy_sum += move_accuracy(before, after);
        match judgement {
            Some(Judgement::Inaccuracy) => self.inaccuracies += 1,
            Some(Judgement::Mistake) => self.mistakes += 1,
            Some(Judgement::Blunder) => self.blunders += 1,
            None => {}
        }
    }

    /// Average centipawn loss.
    pub fn acpl(&self) -> u32 {
        (self.centipawn_loss / u64::from(self.moves.max(1))) as u32
    }

    /// Mean per-move accuracy in percent (100 with no graded move).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            self.accuracy_sum / f64::from(self.moves)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_curve() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-12);
        assert!((winning_chances(Score::Cp(100)) - 0.1820).abs() < 1e-3);
        assert!(winning_chances(Score::Mate(3)) > winning_chances(Score::Cp(1000)));
        assert!(winning_chances(Score::Mate(-2)) < -0.95);
        let drop = |a: i32, b: i32| winning_chances(Score::Cp(a)) - winning_chances(Score::Cp(b));
        assert_eq!(Judgement::from_drop(drop(0, -50)), None);
        assert_eq!(
            Judgement::from_drop(drop(0, -70)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            Judgement::from_drop(drop(50, -80)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            Judgement::from_drop(drop(200, -300)),
            Some(Judgement::Blunder)
        );
        // Already lost: a further drop barely matters.
        assert_eq!(Judgement::from_drop(drop(-900, -1000)), None);
    }

    #[test]
    fn accuracy_and_loss() {
        assert!((move_accuracy(Score::Cp(30), Score::Cp(30)) - 100.0).abs() < 0.01);
        assert!(move_accuracy(Score::Cp(300), Score::Cp(-300)) < 30.0);
        let mut stats = SideStats::default();
        stats.add(Score::Cp(50), Score::Cp(20), None);
        stats.add(Score::Cp(20), Score::Cp(-480), Some(Judgement::Blunder));
        assert_eq!(stats.acpl(), 265);
        assert_eq!(stats.blunders, 1);
        assert!(stats.accuracy() < 90.0);
    }
}
