//! Set-up mode: edit a board square by square, side to move and castling; errors in place.

use crate::chess::{Piece, Position};

use super::action::EditKey;
use super::app::{App, Mode, PromptKind};
use super::board_input::step;
use super::component::Component;
use super::dialog::Pending;
use super::keymap::Command;
use super::mode::SetupState;
use super::prompt::open_prompt;
use super::start::enter_analyse;

pub fn enter(app: &mut App) {
    app.set_mode(Mode::Setup(SetupState::from_position(app.position())));
    app.board_mut().select(None);
}

/// What a key of set-up mode asks of the rest of the interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupRequest {
    /// Type the position as FEN at the prompt.
    TypeFen,
    /// Analyse this position (asking first if work would be lost).
    Done(Box<Position>),
    Cancel,
}

impl SetupState {
    /// A key of set-up mode, on a board seen from Black's side when `flipped`: edits the
    /// position here, or says what the rest of the interface should do.
    pub fn key(&mut self, key: EditKey, flipped: bool) -> Option<SetupRequest> {
        match key {
            EditKey::Left => self.cursor = step(self.cursor, -1, 0, flipped),
            EditKey::Right => self.cursor = step(self.cursor, 1, 0, flipped),
            EditKey::Up => self.cursor = step(self.cursor, 0, 1, flipped),
            EditKey::Down => self.cursor = step(self.cursor, 0, -1, flipped),
            EditKey::Char(' ' | 'x') | EditKey::Backspace => self.put(None),
            EditKey::Char(
                c @ ('p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K'),
            ) => self.put(Piece::from_char(c)),
            EditKey::Tab | EditKey::Char('w') => self.toggle_turn(),
            EditKey::Char(c @ '1'..='4') => self.toggle_castling(c as usize - '1' as usize),
            EditKey::Char('c') => self.clear(),
            EditKey::Char('s') => *self = SetupState::from_position(&Position::startpos()),
            EditKey::Char('f') => return Some(SetupRequest::TypeFen),
            EditKey::Enter => match self.build() {
                Ok(pos) => return Some(SetupRequest::Done(Box::new(pos))),
                Err(e) => self.error = Some(e),
            },
            EditKey::Esc => return Some(SetupRequest::Cancel),
            _ => {}
        }
        None
    }
}

pub fn key(app: &mut App, key: EditKey) {
    let flipped = app.board().flipped();
    let Mode::Setup(s) = app.mode_mut() else {
        return;
    };
    match s.key(key, flipped) {
        None => {}
        Some(SetupRequest::TypeFen) => open_prompt(app, PromptKind::Fen),
        Some(SetupRequest::Done(pos)) => app.ask_or_do(Pending::Position(
            pos,
            "position set up; space starts the engine, n plays it",
        )),
        Some(SetupRequest::Cancel) => enter_analyse(app),
    }
}

impl Component for SetupState {
    fn name(&self) -> &'static str {
        "SET UP"
    }

    /// Its own keys do the work (listed below the commands).
    fn takes(&self, _command: Command) -> bool {
        false
    }

    fn own_keys(&self) -> &'static [&'static str] {
        &[
            "PNBRQK/pnbrqk  put a piece on the cursor's square",
            "  x/space/bs  clear the square",
            "      arrows  move the cursor",
            "       tab/w  side to move",
            "         1-4  castling rights K Q k q",
            "           c  empty board;  s  start position",
            "           f  type a FEN",
            "       enter  done: analyse the position;  esc  cancel",
        ]
    }

    fn can_move(&self, _app: &App) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;
    use crate::chess::{Role, Square};

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

    #[test]
    fn keys_edit_the_board_and_ask_for_the_rest() {
        let mut s = SetupState::from_position(&Position::startpos());
        assert_eq!(s.key(EditKey::Char('c'), false), None);
        assert_eq!(s.key(EditKey::Char('K'), false), None);
        assert_eq!(
            s.piece_at(Square::E1),
            Some(Piece::new(Color::White, Role::King))
        );
        assert_eq!(s.key(EditKey::Enter, false), None);
        assert!(s.error.is_some(), "no black king yet");
        s.key(EditKey::Down, true);
        assert_eq!(
            s.cursor,
            Square::E2,
            "down on a turned board goes up the ranks"
        );
        s.cursor = Square::E8;
        s.key(EditKey::Char('k'), false);
        let Some(SetupRequest::Done(pos)) = s.key(EditKey::Enter, false) else {
            panic!("{:?}", s.error);
        };
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            s.key(EditKey::Char('f'), false),
            Some(SetupRequest::TypeFen)
        );
        assert_eq!(s.key(EditKey::Esc, false), Some(SetupRequest::Cancel));
    }
}
