//! Terminal events become actions. Reads the state (which dialog is open, whether a move is
//! being typed) but never changes it.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::action::{Action, EditKey};
use super::app::{App, Mode};
use super::keymap::{Command, Key, starts_move};

fn edit_key(ev: &KeyEvent) -> Option<EditKey> {
    Some(match ev.code {
        KeyCode::Char(c) if ev.modifiers.contains(KeyModifiers::CONTROL) => {
            EditKey::Ctrl(c.to_ascii_lowercase())
        }
        KeyCode::Char(c) => EditKey::Char(c),
        KeyCode::Backspace => EditKey::Backspace,
        KeyCode::Tab => EditKey::Tab,
        KeyCode::Enter => EditKey::Enter,
        KeyCode::Esc => EditKey::Esc,
        KeyCode::Up => EditKey::Up,
        KeyCode::Down => EditKey::Down,
        KeyCode::Left => EditKey::Left,
        KeyCode::Right => EditKey::Right,
        KeyCode::PageUp => EditKey::PageUp,
        KeyCode::PageDown => EditKey::PageDown,
        KeyCode::Home => EditKey::Home,
        KeyCode::End => EditKey::End,
        KeyCode::Delete => EditKey::Delete,
        _ => return None,
    })
}

pub fn action_for(app: &App, event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(app, key),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => Some(Action::MouseDown(m.column, m.row)),
            MouseEventKind::Up(MouseButton::Left) => Some(Action::MouseUp(m.column, m.row)),
            MouseEventKind::ScrollUp => Some(Action::Command(Command::PrevMove)),
            MouseEventKind::ScrollDown => Some(Action::Command(Command::NextMove)),
            _ => None,
        },
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

/// During a game against the engine, on the player's turn, `n` (a key: new game) starts a
/// typed knight move when there is one (`nf3`); alone, Enter then does what the key does. The
/// other keys that are piece letters (r flip, q quit, k previous move) keep their meaning, as
/// quitting or flipping must not wait for an Enter.
fn piece_letter_starts_move(app: &App, key: Key) -> bool {
    if key.code != KeyCode::Char('n')
        || key.ctrl
        || key.alt
        || !matches!(app.mode(), Mode::Play(_))
        || !app.mode().component().can_move(app)
    {
        return false;
    }
    let pos = app.position();
    pos.legal_moves()
        .iter()
        .any(|&m| pos.san(m).starts_with('N'))
}

/// The keys the explorer panel takes while it has the focus; the others keep their meaning.
fn explorer_key(ev: &KeyEvent) -> bool {
    !ev.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        && matches!(
            ev.code,
            KeyCode::Up
                | KeyCode::Down
                | KeyCode::Left
                | KeyCode::Right
                | KeyCode::PageUp
                | KeyCode::PageDown
                | KeyCode::Home
                | KeyCode::End
                | KeyCode::Enter
                | KeyCode::Esc
                | KeyCode::Tab
                | KeyCode::Char('g' | 'm' | '1'..='9')
        )
}

fn key_action(app: &App, ev: &KeyEvent) -> Option<Action> {
    let key = Key::from_event(ev);
    // Ctrl-C always quits, whatever has the focus.
    if key.ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Command(Command::Quit));
    }
    if app.overlay().is_some() {
        return edit_key(ev).map(Action::Overlay);
    }
    if app.prompt().current().is_some() {
        return edit_key(ev).map(Action::Prompt);
    }
    if let Mode::Setup(_) = app.mode() {
        // Letters place pieces here; only help and the command line keep their keys.
        if let Some(c) = app
            .config()
            .keys
            .command(key)
            .filter(|c| matches!(c, Command::Help | Command::CommandLine))
        {
            return Some(Action::Command(c));
        }
        return edit_key(ev).map(Action::Setup);
    }
    if let Mode::Browse = app.mode() {
        // Plain characters filter the list; commands need ctrl, alt or a function key.
        let plain = !key.ctrl && !key.alt && !matches!(key.code, KeyCode::F(_));
        if key.ctrl && key.code == KeyCode::Char('o') {
            return Some(Action::Command(Command::Open));
        }
        if !plain && let Some(c) = app.config().keys.command(key) {
            return Some(Action::Command(c));
        }
        return edit_key(ev).map(Action::Browse);
    }
    if app.explorer().focused()
        && matches!(app.mode(), Mode::Analyse(_))
        && app.board().typed().is_empty()
        && explorer_key(ev)
    {
        return edit_key(ev).map(Action::ExplorerKey);
    }
    if app.board().typed().is_empty() && piece_letter_starts_move(app, key) {
        return edit_key(ev).map(Action::TypeMove);
    }
    if !app.board().typed().is_empty() || starts_move(key) {
        // Arrows stay with the board even while typing.
        if !matches!(
            ev.code,
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
        ) {
            return edit_key(ev).map(Action::TypeMove);
        }
    }
    if let Some(c) = app.config().keys.command(key) {
        return Some(Action::Command(c));
    }
    // As on lichess, the arrows step through the game; with shift, or once a piece is picked
    // up with Enter, they move the board's cursor.
    let cursor = ev.modifiers.contains(KeyModifiers::SHIFT) || app.board().selected().is_some();
    match ev.code {
        KeyCode::Left if cursor => Some(Action::Cursor(-1, 0)),
        KeyCode::Right if cursor => Some(Action::Cursor(1, 0)),
        KeyCode::Up if cursor => Some(Action::Cursor(0, 1)),
        KeyCode::Down if cursor => Some(Action::Cursor(0, -1)),
        KeyCode::Left => Some(Action::Command(Command::PrevMove)),
        KeyCode::Right => Some(Action::Command(Command::NextMove)),
        KeyCode::Up => Some(Action::Command(Command::FirstMove)),
        KeyCode::Down => Some(Action::Command(Command::LastMove)),
        KeyCode::Enter => Some(Action::PickSquare),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::PageUp => Some(Action::Command(Command::FirstMove)),
        KeyCode::PageDown => Some(Action::Command(Command::LastMove)),
        _ => None,
    }
}
