//! Set-up mode: edit a board square by square, side to move and castling; errors in place.

use crate::chess::{Bitboard, CastlingMode, Color, Piece, Position, Setup, Square};

use super::app::{App, Mode, PromptKind};
use super::confirm::{self, Pending};
use super::input::EditKey;
use super::start::enter_analyse;
use super::update::open_prompt;

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

pub fn enter(app: &mut App) {
    app.mode = Mode::Setup(SetupState::from_position(app.position()));
    app.selected = None;
}

pub fn key(app: &mut App, key: EditKey) {
    let Mode::Setup(s) = &mut app.mode else {
        return;
    };
    let flip = app.flipped;
    let step = |sq: Square, df: i32, dr: i32| {
        let (df, dr) = if flip { (-df, -dr) } else { (df, dr) };
        let f = (sq.file().index() as i32 + df).clamp(0, 7);
        let r = (sq.rank().index() as i32 + dr).clamp(0, 7);
        Square::new((r * 8 + f) as u32)
    };
    match key {
        EditKey::Left => s.cursor = step(s.cursor, -1, 0),
        EditKey::Right => s.cursor = step(s.cursor, 1, 0),
        EditKey::Up => s.cursor = step(s.cursor, 0, 1),
        EditKey::Down => s.cursor = step(s.cursor, 0, -1),
        EditKey::Char(' ' | 'x') | EditKey::Backspace => s.put(None),
        EditKey::Char(
            c @ ('p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K'),
        ) => {
            s.put(Piece::from_char(c));
        }
        EditKey::Tab | EditKey::Char('w') => s.toggle_turn(),
        EditKey::Char(c @ '1'..='4') => s.toggle_castling(c as usize - '1' as usize),
        EditKey::Char('c') => s.clear(),
        EditKey::Char('s') => *s = SetupState::from_position(&Position::startpos()),
        EditKey::Char('f') => open_prompt(app, PromptKind::Fen),
        EditKey::Enter => match s.build() {
            Ok(pos) => confirm::ask_or_do(
                app,
                Pending::Position(
                    Box::new(pos),
                    "position set up; space starts the engine, n plays it",
                ),
            ),
            Err(e) => s.error = Some(e),
        },
        EditKey::Esc => enter_analyse(app),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Role;

    #[test]
    fn edits_and_reports_errors() {
        let mut s = SetupState::from_position(&Position::startpos());
        assert!(s.castling.iter().all(|&c| c));
        assert_eq!(s.build().unwrap(), Position::startpos());
        let later = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 37 60").unwrap();
        let from_later = SetupState::from_position(&later).build().unwrap();
        assert_eq!(from_later.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        s.clear();
        assert!(s.build().unwrap_err().contains("no king"));
        s.cursor = Square::E1;
        s.put(Some(Piece::new(Color::White, Role::King)));
        s.cursor = Square::E8;
        s.put(Some(Piece::new(Color::Black, Role::King)));
        s.cursor = Square::A1;
        s.put(Some(Piece::new(Color::White, Role::Rook)));
        s.toggle_castling(1);
        let pos = s.build().unwrap();
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        s.toggle_castling(0);
        assert!(s.build().unwrap_err().contains("castling"));
    }
}
