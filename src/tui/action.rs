//! What the interface reacts to: the user's keys and clicks as actions, and the reports of the
//! engines, the tables and background work.

use crate::chess::Position;
use crate::engines::service::{EngineEvent, SearchId};

use super::dialog::{Pending, PromptKind};
use super::explorer::worker::Reply;
use super::keymap::Command;
use super::library::LibraryEvent;
use super::tablebase;

/// Keys given to a dialog, a prompt or the typed-move line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EditKey {
    Char(char),
    Backspace,
    Tab,
    Enter,
    Esc,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Delete,
    /// A letter with ctrl (the prompt's line editing).
    Ctrl(char),
}

impl EditKey {
    /// Where a list's chosen row goes for this key (up/down, page up/down, home/end), from
    /// `selected` in rows 0 to `last`, `page` rows a page; `None` for the other keys.
    pub fn moved(self, selected: usize, last: usize, page: usize) -> Option<usize> {
        Some(match self {
            EditKey::Up => selected.saturating_sub(1),
            EditKey::Down => (selected + 1).min(last),
            EditKey::PageUp => selected.saturating_sub(page),
            EditKey::PageDown => (selected + page).min(last),
            EditKey::Home => 0,
            EditKey::End => last,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub enum Action {
    Command(Command),
    /// Move the board cursor by files and ranks (from White's view).
    Cursor(i8, i8),
    /// Enter on the board: select the piece under the cursor, or move the selected one there.
    PickSquare,
    Cancel,
    TypeMove(EditKey),
    Prompt(EditKey),
    Overlay(EditKey),
    Setup(EditKey),
    /// A key in browse mode (filter, list movement).
    Browse(EditKey),
    /// A key while the explorer panel has the focus.
    ExplorerKey(EditKey),
    /// A question answered yes, or an action that needed no question: carry it out.
    Confirmed(Pending),
    /// The prompt's text, entered.
    Submit(PromptKind, String),
    /// Background work on a PGN file finished a step.
    Library(LibraryEvent),
    MouseDown(u16, u16),
    MouseUp(u16, u16),
    Resize(u16, u16),
    Engine(SearchId, EngineEvent),
    /// Time passed (clocks).
    Tick,
    /// A background write finished: a message to show, or an error.
    JobDone(Result<String, String>),
    /// The tables answered for a position.
    Tablebase(Box<Position>, tablebase::Answer),
    /// The explorer's thread answered.
    Explorer(Reply),
}

impl Action {
    /// Actions from the keyboard or mouse (which clear the last message).
    pub fn is_user(&self) -> bool {
        !matches!(
            self,
            Action::Engine(..)
                | Action::Tick
                | Action::JobDone(_)
                | Action::Resize(..)
                | Action::Library(LibraryEvent::Checked { .. })
                | Action::Tablebase(..)
                | Action::Explorer(_)
        )
    }
}
