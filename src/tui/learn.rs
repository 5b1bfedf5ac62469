//! Learning from mistakes: the positions before one side's mistakes and blunders in an
//! analysed game (by kibitzer's whole-game analysis, or a file `annotate` wrote), as puzzles.
//! The user looks for a better move; the engine grades it against the evaluation before the
//! mistake; `u` retries, `t` shows the better line, `n` goes on, and the end sums up.

use std::time::Duration;

use crate::analysis::judgement::winning_chances;
use crate::chess::{Color, Move};
use crate::game::{GameMove, Nag, NodeId};

use super::app::Purpose;
use super::app::{App, Mode};
use super::component::{Component, Wanted};
use super::keymap::Command;
use super::mode::{Attempt, LearnState, Puzzle, PuzzleGrade, Solved};
use super::review::{Judgement, judge_move};
use crate::engines::score::side_score;
use crate::engines::service::GoLimits;
use crate::game::Score;

/// How long the engine looks at the position after the user's move.
pub const GRADE_TIME: Duration = Duration::from_secs(1);

/// The side learning by default: the player of a game against the engine, else White.
fn default_side(app: &App) -> Color {
    let headers = app.game().headers();
    match (headers.get("White"), headers.get("Black")) {
        (Some(w), Some(b)) if b == "Player" && w != "Player" => Color::Black,
        _ => Color::White,
    }
}

/// The mistakes and blunders of `side` on the main line that have a better line to show.
pub fn puzzles(app: &App, side: Color) -> Vec<Puzzle> {
    let game = app.game();
    let tree = game.tree();
    let mut found = Vec::new();
    for id in game.line_through(NodeId::ROOT).into_iter().skip(1) {
        let parent = tree.previous(id).expect("a move has a parent");
        let Some(GameMove::Move(played)) = tree.node(id).game_move() else {
            continue;
        };
        let position = game.position(parent);
        let Some(eval) = game.eval(parent).filter(|_| position.turn() == side) else {
            continue;
        };
        let marked = tree.node(id).nags.iter().find_map(|&n| match n {
            Nag::MISTAKE => Some(Judgement::Mistake),
            Nag::BLUNDER => Some(Judgement::Blunder),
            _ => None,
        });
        let judgement = marked.or_else(|| judge_move(game, id));
        let Some(judgement) = judgement.filter(|&j| j >= Judgement::Mistake) else {
            continue;
        };
        if let Some(better) = game.better_line(id).filter(|l| !l.is_empty()) {
            found.push(Puzzle {
                node: parent,
                position: position.clone(),
                eval,
                played,
                judgement,
                better,
            });
        }
    }
    found
}

/// `:learn [white|black]`: starts the puzzles of one side's mistakes.
pub fn start(app: &mut App, side: Option<Color>) {
    if !matches!(app.mode(), Mode::Analyse(_) | Mode::Play(_))
        || matches!(app.mode(), Mode::Play(_)) && app.game().end().is_none()
    {
        return app.error("learning from mistakes starts from a finished or analysed game");
    }
    let side = side.unwrap_or_else(|| default_side(app));
    let found = puzzles(app, side);
    if found.is_empty() {
        let name = side.fold("White", "Black");
        return app.info(format!(
            "no mistakes or blunders by {name} with a better line to learn from (ctrl-a analyses the game)"
        ));
    }
    app.set_mode(Mode::Learn(LearnState {
        side,
        puzzles: found,
        index: 0,
        attempt: Attempt::Thinking,
        misses: 0,
        grade_score: None,
        results: Vec::new(),
    }));
    app.board_mut().face(side);
    show_puzzle(app);
}

fn show_puzzle(app: &mut App) {
    let Mode::Learn(l) = app.mode() else {
        return;
    };
    let p = l.puzzle();
    let (node, total, index) = (p.node, l.puzzles.len(), l.index);
    let pos = app.game().position(node).clone();
    let glyph = p.judgement.nag().glyph().unwrap_or_default();
    let text = format!(
        "puzzle {} of {total}: {} played {}{glyph} here; find a better move (t: show, n: next)",
        index + 1,
        pos.turn().fold("White", "Black"),
        pos.san(p.played),
    );
    app.game_mut().goto(node);
    app.clear_marks();
    app.info(text);
}

/// A move the user made on the board at the puzzle.
pub fn attempt(app: &mut App, m: Move) {
    app.board_mut().select(None);
    let Mode::Learn(l) = app.mode_mut() else {
        return;
    };
    if !l.can_try() {
        let why = match l.attempt {
            Attempt::Grading(_) => "wait for the grade",
            _ => "n: next puzzle",
        };
        return app.info(why);
    }
    let p = l.puzzle().clone();
    let san = p.position.san(m);
    if m == p.played {
        l.misses += 1;
        l.attempt = Attempt::Graded(m, PuzzleGrade::GameMove);
        return app.info(format!(
            "{san} is the game's move: try another (t shows the answer)"
        ));
    }
    if p.better.first() == Some(&m) {
        return solved(app, m, PuzzleGrade::Best);
    }
    l.attempt = Attempt::Grading(m);
    l.grade_score = None;
    app.info(format!("{san}: the engine is looking..."));
}

/// The engine's report on the position after the graded move.
pub fn note_score(app: &mut App, score: Score) {
    if let Mode::Learn(l) = app.mode_mut() {
        l.grade_score = Some(score);
    }
}

/// The grading search ended: compares the score after the tried move with the one before the
/// mistake, from the mover's side.
pub fn graded(app: &mut App) {
    let Mode::Learn(l) = app.mode_mut() else {
        return;
    };
    let Attempt::Grading(m) = l.attempt else {
        return;
    };
    let before = l.puzzle().eval;
    let Some(after) = l.grade_score else {
        l.attempt = Attempt::Thinking;
        return app.error("the engine gave no score; try the move again");
    };
    let mover = l.side;
    let drop =
        winning_chances(side_score(before, mover)) - winning_chances(side_score(after, mover));
    match Judgement::from_drop(drop) {
        None => solved(app, m, PuzzleGrade::Good),
        Some(j) => {
            l.misses += 1;
            l.attempt = Attempt::Graded(m, PuzzleGrade::Still(j));
            let san = l.puzzle().position.san(m);
            app.info(format!(
                "{san} is still {} ({}): u tries again, t shows the answer",
                article(j),
                after.label()
            ));
        }
    }
}

fn article(j: Judgement) -> String {
    let name = j.name().to_lowercase();
    if name.starts_with('i') {
        format!("an {name}")
    } else {
        format!("a {name}")
    }
}

fn solved(app: &mut App, m: Move, grade: PuzzleGrade) {
    let Mode::Learn(l) = app.mode_mut() else {
        return;
    };
    l.attempt = Attempt::Graded(m, grade);
    l.results.push(if l.misses == 0 {
        Solved::FirstTry
    } else {
        Solved::AfterRetry
    });
    let p = l.puzzle();
    let pos = &p.position;
    let san = pos.san(m);
    let text = match grade {
        PuzzleGrade::Best => format!("{san} is best! n: next puzzle"),
        _ => format!(
            "{san} is good (best was {}); n: next puzzle",
            pos.san(p.better[0])
        ),
    };
    app.set_hint(Some(m));
    app.info(text);
}

/// Shows the better line and marks its first move; the puzzle counts as not solved.
fn show(app: &mut App) {
    let Mode::Learn(l) = app.mode_mut() else {
        return;
    };
    if matches!(l.attempt, Attempt::Grading(_)) {
        return app.info("wait for the grade");
    }
    let solved_already = matches!(
        l.attempt,
        Attempt::Graded(_, PuzzleGrade::Best | PuzzleGrade::Good)
    );
    if !solved_already && l.attempt != Attempt::Shown {
        l.results.push(Solved::Missed);
    }
    if !solved_already {
        l.attempt = Attempt::Shown;
    }
    let p = l.puzzle().clone();
    let line = super::view::engine::pv_san(app.game().position(p.node), &p.better, 10);
    app.set_hint(p.better.first().copied());
    app.info(format!("better was {line}; n: next puzzle"));
}

/// The next puzzle (the one left counts as not solved), or the summary after the last.
fn next(app: &mut App) {
    let Mode::Learn(l) = app.mode_mut() else {
        return;
    };
    if matches!(
        l.attempt,
        Attempt::Thinking
            | Attempt::Grading(_)
            | Attempt::Graded(_, PuzzleGrade::Still(_) | PuzzleGrade::GameMove)
    ) {
        l.results.push(Solved::Missed);
    }
    if l.index + 1 == l.puzzles.len() {
        return finish(app);
    }
    l.index += 1;
    l.attempt = Attempt::Thinking;
    l.misses = 0;
    show_puzzle(app);
}

/// Back to analysing the game, with the summary.
fn finish(app: &mut App) {
    let Mode::Learn(l) = app.mode() else {
        return;
    };
    let text = format!("done: {}", l.summary());
    app.set_mode(Mode::Analyse(Default::default()));
    app.set_hint(None);
    app.info(text);
}

/// The side named by `:learn`'s argument.
pub fn parse_side(arg: Option<&str>) -> Result<Option<Color>, String> {
    match arg {
        None => Ok(None),
        Some("white" | "w") => Ok(Some(Color::White)),
        Some("black" | "b") => Ok(Some(Color::Black)),
        Some(other) => Err(format!("learn takes white or black, not '{other}'")),
    }
}

impl Component for LearnState {
    fn name(&self) -> &'static str {
        "LEARN"
    }

    /// Moving through the game would give the answers away.
    fn takes(&self, command: Command) -> bool {
        use Command::*;
        matches!(
            command,
            Flip | Save | WriteGame | CopyFen | CopyPgn | Takeback | Hint | NewGame
        )
    }

    fn command_help(&self, command: Command) -> Option<&'static str> {
        match command {
            Command::Takeback => Some("try again after a wrong move"),
            Command::Hint => Some("show the better line"),
            Command::NewGame => Some("next puzzle"),
            Command::ModeAnalyse => Some("stop: back to analysing the game"),
            _ => None,
        }
    }

    fn suggested(&self) -> &'static [(Command, &'static str)] {
        &[
            (Command::Hint, "show"),
            (Command::Takeback, "retry"),
            (Command::NewGame, "next"),
            (Command::ModeAnalyse, "stop"),
        ]
    }

    fn can_move(&self, app: &App) -> bool {
        self.can_try() && app.game().current_node() == self.puzzle().node
    }

    /// The keys that mean something else while solving: `u` retries, `t` shows, `n` goes on, F2
    /// leaves; moving through or editing the game would give answers away. Returns whether the
    /// command was taken.
    fn command(app: &mut App, c: Command) -> bool {
        let Mode::Learn(l) = app.mode_mut() else {
            return false;
        };
        match c {
            Command::Takeback | Command::Undo => {
                if l.can_try() {
                    l.attempt = Attempt::Thinking;
                    app.info("try again");
                }
            }
            Command::Hint => show(app),
            Command::NewGame | Command::NextMarked => next(app),
            Command::ModeAnalyse => finish(app),
            Command::Quit
            | Command::Help
            | Command::Flip
            | Command::CommandLine
            | Command::CopyFen
            | Command::CopyPgn
            | Command::Save
            | Command::WriteGame
            | Command::ModePlay
            | Command::ModeBrowse
            | Command::ModeEndgame
            | Command::Open
            | Command::Setup => return false,
            _ => app.info("solving: make a move, u retries, t shows the answer, n next, f2 stops"),
        }
        true
    }

    /// The position after a tried move, to grade it.
    fn wanted_search(&self, _app: &App) -> Option<Wanted> {
        match self.attempt {
            Attempt::Grading(m) => Some((
                Purpose::Grade(m),
                self.puzzle().node,
                GoLimits::MoveTime(GRADE_TIME),
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
