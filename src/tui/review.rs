//! The per-side summary of a whole-game pass, from the judgements of the shown game's moves
//! (`game::judge_move`, with the grading `annotate` uses).

use crate::analysis::judgement::{SideStats, winning_chances};
use crate::game::NodeId;

use super::game::{Record, graded};

pub use super::game::judge_move;
pub use crate::analysis::judgement::Judgement;

/// Totals per side (White, Black) over the main line's moves with known evaluations.
pub fn summary(game: &Record) -> (SideStats, SideStats) {
    let (mut white, mut black) = (SideStats::default(), SideStats::default());
    for id in game.line_through(NodeId::ROOT).into_iter().skip(1) {
        if let Some((mover, before, after)) = graded(game, id) {
            let judgement = Judgement::from_drop(winning_chances(before) - winning_chances(after));
            mover
                .fold(&mut white, &mut black)
                .add(before, after, judgement);
        }
    }
    (white, black)
}

/// The summary as `annotate` writes it at the top of the game.
pub fn summary_text(game: &Record) -> String {
    let (white, black) = summary(game);
    crate::analysis::annotate::summary_text(&white, &black, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::game::Score;

    #[test]
    fn moves_are_judged_by_the_movers_lost_chances() {
        let mut game = Record::new(Position::startpos());
        let e4 = game.position(NodeId::ROOT).parse_san("e4").unwrap();
        let a = game.play(e4);
        let e5 = game.position(a).parse_san("e5").unwrap();
        let b = game.play(e5);
        game.set_eval(NodeId::ROOT, Score::Cp(20));
        game.set_eval(a, Score::Cp(-40));
        game.set_eval(b, Score::Cp(300));
        // White lost 60 centipawns: an inaccuracy on lichess's curve; Black lost 340.
        assert_eq!(judge_move(&game, a), Some(Judgement::Inaccuracy));
        assert_eq!(judge_move(&game, b), Some(Judgement::Blunder));
        let (white, black) = summary(&game);
        assert_eq!((white.inaccuracies, black.blunders), (1, 1));
        assert_eq!(black.acpl(), 340);
        // The engine's own choice is not judged, however the next look disagrees.
        game.set_line(a, vec![e5]);
        assert_eq!(judge_move(&game, b), None);
        assert!(summary_text(&game).contains("White: accuracy"));
    }
}
