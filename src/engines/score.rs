//! The one crossing between the engine's scores (from the side to move's view) and the scores of
//! games and screens (`game::Score`, from White's view).

use crate::chess::Color;
use crate::engine;
use crate::game::Score;

/// The engine's score in a position with `turn` to move, from White's view.
pub fn white_score(score: engine::Score, turn: Color) -> Score {
    let score = match turn {
        Color::White => score,
        Color::Black => score.for_other_side(),
    };
    match score {
        engine::Score::Cp(cp) => Score::Cp(cp),
        engine::Score::Mate(n) => Score::Mate(n),
    }
}

/// A White's-view score as `side` sees it, in the engine's terms (what move grading takes).
pub fn side_score(score: Score, side: Color) -> engine::Score {
    let score = match score {
        Score::Cp(cp) => engine::Score::Cp(cp),
        Score::Mate(n) => engine::Score::Mate(n),
    };
    match side {
        Color::White => score,
        Color::Black => score.for_other_side(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_to_move_scores_turn_round() {
        assert_eq!(
            white_score(engine::Score::Cp(40), Color::Black),
            Score::Cp(-40)
        );
        assert_eq!(
            white_score(engine::Score::Mate(3), Color::Black),
            Score::Mate(-3)
        );
        assert_eq!(
            white_score(engine::Score::Cp(40), Color::White),
            Score::Cp(40)
        );
        for score in [Score::Cp(-75), Score::Mate(2), Score::Mate(-4)] {
            for side in [Color::White, Color::Black] {
                assert_eq!(white_score(side_score(score, side), side), score);
            }
        }
    }

    #[test]
    fn the_tablebase_band_is_the_engines() {
        let lowest = crate::game::TABLEBASE_CP;
        assert!(engine::Score::Cp(lowest).is_tablebase());
        assert!(!engine::Score::Cp(lowest - 1).is_tablebase());
        let tb_win = white_score(engine::Score::Cp(30_850), Color::White);
        assert!(tb_win.is_tablebase());
        assert_eq!(tb_win.label(), "TB win");
        assert_eq!(
            white_score(engine::Score::Cp(30_850), Color::Black).label(),
            "TB loss"
        );
        assert!(Score::Cp(2_000).as_cp() < tb_win.as_cp());
        assert!(tb_win.as_cp() < Score::Mate(20).as_cp());
    }
}
