//! The modes of the interface and the state each keeps: playing, analysing, setting up a
//! position, the endgame trainer and the puzzles of learn mode (browse keeps its file in
//! `App::library`).

use crate::analysis::judgement::Judgement;
use crate::chess::{Bitboard, CastlingMode, Color, Move, Piece, Position, Setup, Square};
use crate::game::{NodeId, Score};
use crate::tablebase::{Grade, Material, Summary};

use super::clock::Clocks;

/// What the user is doing.
#[derive(Clone, Debug)]
pub enum Mode {
    Play(PlayState),
    Analyse(AnalyseState),
    Setup(SetupState),
    /// The game list of the open PGN file (`App::library`).
    Browse,
    Endgame(EndgameState),
    /// Puzzles from the mistakes of the game.
    Learn(LearnState),
}

/// Browse mode keeps its file in `App::library`.
#[derive(Clone, Copy, Debug)]
pub struct BrowseState;

#[derive(Clone, Debug)]
pub struct PlayState {
    pub human: Color,
    pub level: u8,
    pub clocks: Clocks,
    /// The finished game was written to the games file.
    pub recorded: bool,
    /// The player asked for a hint for the current position.
    pub hint_pending: bool,
    /// The engine's last move (the main-line node it made) and the reply it expects there:
    /// what it ponders on while the player thinks.
    pub expected: Option<(NodeId, Move)>,
    /// A move typed during the engine's turn, played (if legal then) once it has moved.
    pub premove: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct AnalyseState {
    /// Infinite analysis of the shown position is on.
    pub infinite: bool,
    /// Whole-game analysis in progress: the main-line node being analysed next.
    pub game_pass: Option<NodeId>,
}

#[derive(Clone, Debug)]
pub struct SetupState {
    pub setup: Setup,
    pub cursor: Square,
    /// Castling rights asked for: white king side, white queen side, black king side, black queen side.
    pub castling: [bool; 4],
    /// Why the current board is not a legal position (shown under the board).
    pub error: Option<String>,
}

/// Rook squares for each castling flag, standard chess.
const CASTLING_ROOKS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

impl SetupState {
    pub fn from_position(pos: &Position) -> SetupState {
        let setup = pos.to_setup();
        let castling = CASTLING_ROOKS.map(|sq| setup.castling_rooks.contains(sq));
        SetupState {
            setup,
            cursor: Square::E1,
            castling,
            error: None,
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.setup.board[sq.index()]
    }

    pub fn put(&mut self, piece: Option<Piece>) {
        self.setup.board[self.cursor.index()] = piece;
        self.error = None;
    }

    pub fn clear(&mut self) {
        self.setup.board = [None; 64];
        self.castling = [false; 4];
        self.error = None;
    }

    pub fn toggle_turn(&mut self) {
        self.setup.turn = !self.setup.turn;
        self.error = None;
    }

    pub fn toggle_castling(&mut self, i: usize) {
        self.castling[i] = !self.castling[i];
        self.error = None;
    }

    /// The edited position, or every reason it is not legal.
    pub fn build(&self) -> Result<Position, String> {
        let mut setup = self.setup.clone();
        setup.castling_rooks = CASTLING_ROOKS
            .iter()
            .zip(self.castling)
            .filter(|&(_, on)| on)
            .fold(Bitboard::EMPTY, |bb, (&sq, _)| bb.with(sq));
        setup.ep_square = None;
        // A position set up by hand starts a game of its own: move 1, no moves towards fifty.
        setup.halfmoves = 0;
        setup.fullmoves = 1;
        Position::from_setup(setup, CastlingMode::Standard).map_err(|e| e.to_string())
    }

    pub fn turn(&self) -> Color {
        self.setup.turn
    }
}

#[derive(Clone, Debug)]
pub struct EndgameState {
    pub user: Color,
    /// `KRvK`, or `FEN` for a given position: what `n` generates again.
    pub material: Option<Material>,
    /// The user's graded moves in order: ply, node, grade.
    pub grades: Vec<(usize, NodeId, Grade)>,
    /// Set once the game has ended.
    pub summary: Option<Summary>,
}

impl EndgameState {
    pub fn user_grades(&self) -> Vec<Grade> {
        self.grades.iter().map(|&(_, _, g)| g).collect()
    }
}

#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The node before the mistake, its position and the engine's evaluation of it (White's
    /// view).
    pub node: NodeId,
    pub position: Position,
    pub eval: Score,
    /// The mistake, as played in the game.
    pub played: Move,
    pub judgement: Judgement,
    /// What was better, from the engine's analysis or the variation beside the mistake.
    pub better: Vec<Move>,
}

/// How a puzzle went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    FirstTry,
    AfterRetry,
    /// The answer was shown, or the puzzle skipped.
    Missed,
}

/// How good a tried move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleGrade {
    /// The better move itself.
    Best,
    /// Costs less than an inaccuracy against the evaluation before the mistake.
    Good,
    /// Still loses that much.
    Still(Judgement),
    /// The move played in the game.
    GameMove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Waiting for the user's move.
    Thinking,
    /// The engine is looking at the position after this move.
    Grading(Move),
    Graded(Move, PuzzleGrade),
    /// The better line is shown.
    Shown,
}

#[derive(Clone, Debug)]
pub struct LearnState {
    pub side: Color,
    pub puzzles: Vec<Puzzle>,
    pub index: usize,
    pub attempt: Attempt,
    /// Wrong tries at the current puzzle.
    pub misses: u32,
    /// The engine's latest score (White's view) of the position after the graded move.
    pub grade_score: Option<Score>,
    /// One per puzzle finished.
    pub results: Vec<Solved>,
}

impl LearnState {
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzles[self.index]
    }

    /// Whether the user may try a move now.
    pub fn can_try(&self) -> bool {
        matches!(
            self.attempt,
            Attempt::Thinking | Attempt::Graded(_, PuzzleGrade::Still(_) | PuzzleGrade::GameMove)
        )
    }

    /// "3 puzzles: 1 solved at once, 1 after a retry, 1 not solved".
    pub fn summary(&self) -> String {
        let count = |s: Solved| self.results.iter().filter(|&&r| r == s).count();
        format!(
            "{} puzzle{}: {} solved at once, {} after a retry, {} not solved",
            self.results.len(),
            if self.results.len() == 1 { "" } else { "s" },
            count(Solved::FirstTry),
            count(Solved::AfterRetry),
            count(Solved::Missed)
        )
    }
}
