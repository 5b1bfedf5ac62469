//! Judging moves from the evaluations before and after them: inaccuracy, mistake, blunder.

use super::engine_link::Score;
use crate::game::NodeId;

use super::game::Record;

/// Centipawn losses (mover's view, scores clamped to ±CLAMP) at which a move is marked.
const INACCURACY_CP: i32 = 50;
const MISTAKE_CP: i32 = 100;
const BLUNDER_CP: i32 = 300;
/// Beyond this the game is decided; differences there are not judged.
const CLAMP_CP: i32 = 1000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The NAG `annotate` writes for it: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> crate::game::Nag {
        crate::game::Nag(match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// Judges the move from `before` to `after` (White's-view scores) played by White if `white`.
pub fn judge(before: Score, after: Score, white: bool) -> Option<Judgement> {
    let clamp = |s: Score| s.as_cp().clamp(-CLAMP_CP, CLAMP_CP);
    let sign = if white { 1 } else { -1 };
    let loss = (clamp(before) - clamp(after)) * sign;
    match loss {
        l if l >= BLUNDER_CP => Some(Judgement::Blunder),
        l if l >= MISTAKE_CP => Some(Judgement::Mistake),
        l if l >= INACCURACY_CP => Some(Judgement::Inaccuracy),
        _ => None,
    }
}

/// The judgement of the move leading to `id`, when the evaluations before and after it are
/// known.
pub fn judge_move(game: &Record, id: NodeId) -> Option<Judgement> {
    let parent = game.tree().previous(id)?;
    let before = game.eval(parent)?;
    let after = game.eval(id)?;
    let white = game.position(parent).turn() == crate::chess::Color::White;
    judge(before, after, white)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_from_the_movers_view() {
        assert_eq!(
            judge(Score::Cp(20), Score::Cp(-40), true),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(judge(Score::Cp(20), Score::Cp(-40), false), None);
        assert_eq!(
            judge(Score::Cp(-20), Score::Cp(150), false),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Score::Mate(3), Score::Cp(0), true),
            Some(Judgement::Blunder)
        );
        // Already lost either way: not judged.
        assert_eq!(judge(Score::Cp(-2000), Score::Mate(-5), true), None);
    }
}
