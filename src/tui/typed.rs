//! Moves typed on the board screen: SAN, UCI or a prefix of one legal move, with tab
//! completion and a message naming what an ambiguous or illegal move could not be.

use crate::chess::{Move, Position};

use super::action::EditKey;
use super::app::App;
use super::moves::make_move;

pub fn type_move(app: &mut App, key: EditKey) {
    match key {
        EditKey::Char(c) if !c.is_whitespace() => app.board_mut().type_char(c),
        EditKey::Backspace => app.board_mut().backspace(),
        EditKey::Esc => app.board_mut().clear_typed(),
        EditKey::Tab => {
            let matches = completions(app.position(), app.board().typed());
            let text = super::prompt::common_prefix(&matches)
                .unwrap_or_else(|| app.board().typed().to_owned());
            app.board_mut().set_typed(text);
        }
        EditKey::Enter if key_alone(app).is_some() => {
            if let Some(command) = key_alone(app) {
                app.board_mut().clear_typed();
                app.follow(super::action::Action::Command(command));
            }
        }
        EditKey::Enter => match parse_typed(app.position(), app.board().typed()) {
            Ok(m) => make_move(app, m),
            Err(e) => {
                app.error(e);
                app.board_mut().refuse_typed();
            }
        },
        _ => {}
    }
}

/// SAN (a piece letter in lower case too: `nf3`, `bc4`, `o-o`) or UCI, or the one legal move
/// the text is a prefix of.
/// The typed text is one letter that is also a key (`n` started a move in a game): Enter alone
/// does what the key does.
pub fn key_alone(app: &App) -> Option<super::keymap::Command> {
    let mut chars = app.board().typed().chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let key = super::keymap::Key {
        code: crossterm::event::KeyCode::Char(c),
        ctrl: false,
        alt: false,
    };
    app.config().keys.command(key)
}

pub fn parse_typed(pos: &Position, text: &str) -> Result<Move, String> {
    let san = pos.parse_san(text);
    if let Ok(m) = san {
        return Ok(m);
    }
    if let Ok(m) = pos.parse_uci(text) {
        return Ok(m);
    }
    if let Some(m) = capitalised(text).and_then(|t| pos.parse_san(&t).ok()) {
        return Ok(m);
    }
    if let Err(crate::chess::SanError::Ambiguous(_)) = san {
        return Err(format!(
            "{text} is ambiguous: {}",
            or_list(&disambiguations(pos, text))
        ));
    }
    let matches = completions(pos, text);
    match matches.as_slice() {
        [one] => pos.parse_san(one).map_err(|e| e.to_string()),
        [] => Err(match off_board(text) {
            Some(square) => format!("{square} is not a square"),
            None => format!("{text} is not legal here"),
        }),
        many => Err(format!("{text} could be {}", or_list(many))),
    }
}

/// The text with its piece letter in upper case (`nf3` -> `Nf3`, `o-o` -> `O-O`); `None` when
/// it does not start with one (a lower-case `b` is a pawn's file in SAN, so `bxc4` stays a pawn
/// capture when that is legal: this is tried only after the text failed as typed).
fn capitalised(text: &str) -> Option<String> {
    let mut chars = text.chars();
    match chars.next()? {
        c @ ('n' | 'b' | 'r' | 'q' | 'k') => {
            Some(format!("{}{}", c.to_ascii_uppercase(), chars.as_str()))
        }
        'o' | '0' => Some(text.to_ascii_uppercase().replace('0', "O")),
        _ => None,
    }
}

/// The target of a typed move that is no square of the board (`Ke9`: `e9`).
fn off_board(text: &str) -> Option<String> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let bare = bare.split('=').next().unwrap_or(bare);
    let target: String = bare
        .chars()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let mut chars = target.chars();
    let (file, rank) = (chars.next()?, chars.next()?);
    let looks_like_square = file.is_ascii_lowercase() && rank.is_ascii_digit();
    let on_board = ('a'..='h').contains(&file) && ('1'..='8').contains(&rank);
    (looks_like_square && !on_board).then_some(target)
}

/// The legal moves an ambiguous SAN could mean: same piece, same target, a file or rank more.
fn disambiguations(pos: &Position, text: &str) -> Vec<String> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let (Some(piece), Some(target)) = (bare.get(..1), bare.get(bare.len().saturating_sub(2)..))
    else {
        return Vec::new();
    };
    pos.legal_moves()
        .iter()
        .map(|&m| pos.san(m))
        .filter(|san| {
            let s = san.trim_end_matches(['+', '#']);
            s.starts_with(piece) && s.ends_with(target) && s.len() > bare.len()
        })
        .collect()
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Legal moves in SAN whose SAN (or UCI, or SAN with the piece letter in lower case) starts with
/// `text`.
pub fn completions(pos: &Position, text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let upper = capitalised(text);
    pos.legal_moves()
        .iter()
        .filter_map(|&m| {
            let san = pos.san(m);
            let starts = san.starts_with(text)
                || pos.uci(m).starts_with(text)
                || upper.as_ref().is_some_and(|t| san.starts_with(t.as_str()));
            starts.then_some(san)
        })
        .collect()
}
