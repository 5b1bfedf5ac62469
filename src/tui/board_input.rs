//! What the user is doing on the board: the square cursor, the piece picked up, a mouse drag,
//! the move being typed, and which way up the board stands.

use crate::chess::{Color, Square};

#[derive(Clone, Debug)]
pub struct BoardInput {
    /// Black at the bottom.
    flipped: bool,
    cursor: Square,
    selected: Option<Square>,
    /// Where a mouse drag started.
    drag_from: Option<Square>,
    /// A move being typed.
    typed: String,
    /// The typed move was refused: it stays shown for correction, and the next character typed
    /// starts a new one.
    refused: bool,
}

impl Default for BoardInput {
    fn default() -> BoardInput {
        BoardInput {
            flipped: false,
            cursor: Square::E2,
            selected: None,
            drag_from: None,
            typed: String::new(),
            refused: false,
        }
    }
}

impl BoardInput {
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    /// Turns the board so that `side` plays up it.
    pub fn face(&mut self, side: Color) {
        self.flipped = side == Color::Black;
    }

    pub fn cursor(&self) -> Square {
        self.cursor
    }

    pub fn set_cursor(&mut self, sq: Square) {
        self.cursor = sq;
    }

    /// Moves the cursor by files and ranks as the user sees them, stopping at the edges.
    pub fn move_cursor(&mut self, df: i8, dr: i8) {
        self.cursor = step(self.cursor, df, dr, self.flipped);
    }

    pub fn selected(&self) -> Option<Square> {
        self.selected
    }

    pub fn select(&mut self, sq: Option<Square>) {
        self.selected = sq;
    }

    /// A drag starts from the piece just picked up.
    pub fn start_drag(&mut self) {
        self.drag_from = self.selected;
    }

    /// Where the drag that ends now started, if its piece is still the one picked up.
    pub fn end_drag(&mut self) -> Option<Square> {
        self.drag_from
            .take()
            .filter(|&from| self.selected == Some(from))
    }

    pub fn typed(&self) -> &str {
        &self.typed
    }

    /// A character of a move: after a refused move it starts a new one.
    pub fn type_char(&mut self, c: char) {
        if std::mem::take(&mut self.refused) {
            self.typed.clear();
        }
        self.typed.push(c);
    }

    pub fn backspace(&mut self) {
        self.refused = false;
        self.typed.pop();
    }

    pub fn set_typed(&mut self, text: String) {
        self.refused = false;
        self.typed = text;
    }

    pub fn clear_typed(&mut self) {
        self.refused = false;
        self.typed.clear();
    }

    pub fn take_typed(&mut self) -> String {
        self.refused = false;
        std::mem::take(&mut self.typed)
    }

    /// The typed move was not played: it stays shown until the next character.
    pub fn refuse_typed(&mut self) {
        self.refused = true;
    }
}

/// The square `df` files and `dr` ranks from `sq` as seen on a board turned (`flipped`) or not,
/// stopping at the edges.
pub fn step(sq: Square, df: i8, dr: i8, flipped: bool) -> Square {
    let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
    let f = (sq.file().index() as i32 + i32::from(df)).clamp(0, 7);
    let r = (sq.rank().index() as i32 + i32::from(dr)).clamp(0, 7);
    Square::new((r * 8 + f) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_moves_as_seen_and_stops_at_the_edges() {
        let mut board = BoardInput::default();
        board.move_cursor(0, 1);
        assert_eq!(board.cursor(), Square::E3);
        board.flip();
        board.move_cursor(0, 1);
        assert_eq!(board.cursor(), Square::E2);
        board.set_cursor(Square::A1);
        board.move_cursor(1, 0);
        assert_eq!(
            board.cursor(),
            Square::A1,
            "left of a1 seen from Black's side"
        );
    }

    #[test]
    fn a_refused_move_is_replaced_by_the_next_character() {
        let mut board = BoardInput::default();
        board.type_char('e');
        board.type_char('9');
        board.refuse_typed();
        assert_eq!(board.typed(), "e9");
        board.type_char('e');
        assert_eq!(board.typed(), "e");
    }

    #[test]
    fn a_drag_ends_only_on_the_piece_still_held() {
        let mut board = BoardInput::default();
        board.select(Some(Square::E2));
        board.start_drag();
        assert_eq!(board.end_drag(), Some(Square::E2));
        board.start_drag();
        board.select(None);
        assert_eq!(board.end_drag(), None);
    }
}
