//! The game being played or analysed in the interface: a start position, the moves of the main
//! line, and how the game ended when it ended off the board (resignation, flag, agreement).
//! Side to move, check and the rules' verdict are derived from the positions, never stored.

use std::fmt;

use crate::chess::{Color, Move, Outcome, Position, Square};

use super::engine_link::Score;

/// Why a game is over. Board results come from the position; the others are events.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEnd {
    Rules(Outcome),
    Resignation {
        winner: Color,
    },
    Flag {
        winner: Color,
    },
    /// A flag fell but the winner has no mating material.
    FlagDraw,
    Agreement,
}

impl GameEnd {
    /// PGN result token.
    pub fn result(self) -> &'static str {
        match self {
            GameEnd::Rules(o) => o.result(),
            GameEnd::Resignation { winner } | GameEnd::Flag { winner } => winner.fold("1-0", "0-1"),
            GameEnd::FlagDraw | GameEnd::Agreement => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: Color| c.fold("White", "Black");
        match *self {
            GameEnd::Rules(o) => write!(f, "{o}"),
            GameEnd::Resignation { winner } => write!(f, "{} resigns", name(!winner)),
            GameEnd::Flag { winner } => write!(f, "{} wins on time", name(winner)),
            GameEnd::FlagDraw => f.write_str("Draw: flag fell, no mating material"),
            GameEnd::Agreement => f.write_str("Draw by agreement"),
        }
    }
}

/// A linear game: `positions[i]` is the position after `i` moves; `cursor` is the ply shown.
#[derive(Clone, Debug)]
pub struct GameLine {
    positions: Vec<Position>,
    moves: Vec<Move>,
    sans: Vec<String>,
    /// Engine evaluation of each position (White's view), when known.
    evals: Vec<Option<Score>>,
    cursor: usize,
    /// Set when the game ended off the board; cleared by takeback.
    adjudication: Option<GameEnd>,
}

impl GameLine {
    pub fn new(start: Position) -> GameLine {
        GameLine {
            positions: vec![start],
            moves: Vec::new(),
            sans: Vec::new(),
            evals: vec![None],
            cursor: 0,
            adjudication: None,
        }
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position at the end of the line (where play continues).
    pub fn last(&self) -> &Position {
        self.positions.last().expect("a line has a start position")
    }

    /// The position being shown.
    pub fn current(&self) -> &Position {
        &self.positions[self.cursor]
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    pub fn position(&self, ply: usize) -> &Position {
        &self.positions[ply]
    }

    /// The move that led to the shown position.
    pub fn last_move(&self) -> Option<(Move, &Position)> {
        (self.cursor > 0).then(|| {
            (
                self.moves[self.cursor - 1],
                &self.positions[self.cursor - 1],
            )
        })
    }

    /// Full-move number and side of ply `i` (0-based index into `moves`).
    pub fn move_number(&self, i: usize) -> (u32, Color) {
        let pos = &self.positions[i];
        (pos.fullmoves(), pos.turn())
    }

    pub fn set_cursor(&mut self, ply: usize) {
        self.cursor = ply.min(self.moves.len());
    }

    /// Plays `m` (already legal in the current position). At the end of the line it extends
    /// the line; elsewhere it replaces the moves after the cursor.
    pub fn play(&mut self, m: Move) {
        let pos = self.current();
        debug_assert!(pos.is_legal(m));
        let san = pos.san(m);
        let mut next = pos.clone();
        next.play_unchecked(m);
        self.positions.truncate(self.cursor + 1);
        self.moves.truncate(self.cursor);
        self.sans.truncate(self.cursor);
        self.evals.truncate(self.cursor + 1);
        self.evals.push(None);
        self.positions.push(next);
        self.moves.push(m);
        self.sans.push(san);
        self.cursor += 1;
        self.adjudication = None;
    }

    /// Removes the last move of the line.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.sans.pop();
        self.evals.pop();
        self.positions.pop();
        self.cursor = self.cursor.min(self.moves.len());
        self.adjudication = None;
        Some(m)
    }

    /// Keys of the positions before the end of the line, oldest first.
    pub fn history_keys(&self) -> Vec<u64> {
        self.positions[..self.positions.len() - 1]
            .iter()
            .map(Position::hash)
            .collect()
    }

    pub fn eval(&self, ply: usize) -> Option<Score> {
        self.evals.get(ply).copied().flatten()
    }

    pub fn evals(&self) -> &[Option<Score>] {
        &self.evals
    }

    pub fn set_eval(&mut self, ply: usize, score: Score) {
        if let Some(e) = self.evals.get_mut(ply) {
            *e = Some(score);
        }
    }

    pub fn adjudicate(&mut self, end: GameEnd) {
        self.adjudication = Some(end);
    }

    /// How the game ended, if it did: an off-board event, or the rules at the end of the line.
    pub fn end(&self) -> Option<GameEnd> {
        self.adjudication.or_else(|| {
            self.last()
                .outcome(&self.history_keys())
                .map(GameEnd::Rules)
        })
    }
}

/// Where the king lands for a castling move (which is encoded king-takes-rook).
pub fn king_target(m: Move) -> Square {
    if m.is_castle() {
        let file = if m.to() > m.from() { 6 } else { 2 };
        Square::from_coords(crate::chess::File::new(file), m.from().rank())
    } else {
        m.to()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(ucis: &[&str]) -> GameLine {
        let mut g = GameLine::new(Position::startpos());
        for u in ucis {
            let m = g.current().parse_uci(u).unwrap();
            g.play(m);
        }
        g
    }

    #[test]
    fn play_pop_and_navigate() {
        let mut g = line(&["e2e4", "e7e5", "g1f3"]);
        assert_eq!(g.sans(), ["e4", "e5", "Nf3"]);
        assert_eq!(g.current().turn(), Color::Black);
        g.set_cursor(1);
        assert_eq!(g.last_move().unwrap().0, g.moves()[0]);
        let m = g.current().parse_uci("c7c5").unwrap();
        g.play(m);
        assert_eq!(g.sans(), ["e4", "c5"]);
        assert_eq!(g.pop(), Some(m));
        assert_eq!(g.len(), 1);
        assert!(g.at_end());
    }

    #[test]
    fn end_by_rules_and_by_event() {
        let mut g = line(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            g.end(),
            Some(GameEnd::Rules(Outcome::Checkmate {
                winner: Color::Black
            }))
        );
        assert_eq!(g.end().unwrap().result(), "0-1");
        g.pop();
        assert_eq!(g.end(), None);
        g.adjudicate(GameEnd::Resignation {
            winner: Color::White,
        });
        assert_eq!(g.end().unwrap().to_string(), "Black resigns");
    }

    #[test]
    fn castling_target_is_king_square() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = pos.parse_uci("e1g1").unwrap();
        assert_eq!(king_target(m), Square::G1);
        let m = pos.parse_uci("e1c1").unwrap();
        assert_eq!(king_target(m), Square::C1);
    }
}
