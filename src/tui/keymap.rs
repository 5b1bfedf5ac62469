//! Key bindings: which key triggers which command, configurable from config.toml.

use std::fmt;
use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Commands reachable by one key from the board screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Command {
    Quit,
    Help,
    Flip,
    /// Play mode: take back a move. Analyse mode: undo the last edit.
    Takeback,
    Undo,
    Redo,
    Hint,
    NextMove,
    PrevMove,
    FirstMove,
    LastMove,
    ToggleAnalysis,
    NewGame,
    CommandLine,
    Resign,
    OfferDraw,
    AnalyseGame,
    Save,
    Open,
    Setup,
    ModePlay,
    ModeAnalyse,
    ModeBrowse,
    ModeEndgame,
    NextVariation,
    PrevVariation,
    LeaveVariation,
    PromoteVariation,
    MakeMainLine,
    DeleteVariation,
    /// Removes the shown move and the moves after it.
    CutLine,
    Comment,
    /// Toggles a move assessment NAG (`$1`..`$6`).
    Nag(u8),
    WriteGame,
    CopyFen,
    CopyPgn,
    NextMarked,
    PrevMarked,
    /// Steps into the engine's first line: the board shows the position before its next move,
    /// that move marked.
    PvNext,
    PvPrev,
    /// Moves the focus to the explorer panel of the open database, and back.
    Explorer,
}

/// Config name, default key, help text.
pub const COMMANDS: [(Command, &str, &str, &str); 46] = [
    (Command::Quit, "quit", "q", "quit (offers to save)"),
    (Command::Help, "help", "?", "show all key bindings"),
    (Command::Flip, "flip", "r", "rotate the board"),
    (
        Command::Takeback,
        "takeback",
        "u",
        "take back a move; analyse: undo",
    ),
    (Command::Undo, "undo", "ctrl-z", "undo the last edit"),
    (Command::Redo, "redo", "ctrl-y", "redo an undone edit"),
    (Command::Hint, "hint", "t", "ask the engine for a hint"),
    (Command::NextMove, "next_move", "j", "next move"),
    (Command::PrevMove, "prev_move", "k", "previous move"),
    (
        Command::FirstMove,
        "first_move",
        "home",
        "start of the game",
    ),
    (Command::LastMove, "last_move", "end", "end of the line"),
    (
        Command::ToggleAnalysis,
        "analysis",
        "space",
        "start/stop the engine",
    ),
    (Command::NewGame, "new_game", "n", "new game"),
    (Command::CommandLine, "command", ":", "command line (:help)"),
    (Command::Resign, "resign", "ctrl-r", "resign"),
    (Command::OfferDraw, "offer_draw", "ctrl-d", "offer a draw"),
    (
        Command::AnalyseGame,
        "analyse_game",
        "ctrl-a",
        "analyse the whole game",
    ),
    (Command::Save, "save", "ctrl-s", "append game to a PGN file"),
    (
        Command::WriteGame,
        "write",
        "w",
        "write game to PGN (replace)",
    ),
    (Command::Open, "open", "o", "open a PGN file (game list)"),
    (
        Command::CopyFen,
        "copy_fen",
        "y",
        "copy the FEN to the clipboard",
    ),
    (Command::CopyPgn, "copy_pgn", "Y", "copy the game as PGN"),
    (Command::Setup, "setup", "ctrl-e", "set up a position"),
    (Command::ModePlay, "mode_play", "f1", "play mode"),
    (Command::ModeAnalyse, "mode_analyse", "f2", "analyse mode"),
    (
        Command::ModeBrowse,
        "mode_browse",
        "f3",
        "browse a PGN file",
    ),
    (
        Command::ModeEndgame,
        "mode_endgame",
        "f5",
        "endgame trainer",
    ),
    (
        Command::PvNext,
        "pv_next",
        ")",
        "step into the engine's line",
    ),
    (
        Command::PvPrev,
        "pv_prev",
        "(",
        "step back in the engine's line",
    ),
    (
        Command::NextVariation,
        "next_variation",
        "]",
        "next alternative move",
    ),
    (
        Command::PrevVariation,
        "prev_variation",
        "[",
        "previous alternative move",
    ),
    (
        Command::LeaveVariation,
        "leave_variation",
        "<",
        "leave the variation",
    ),
    (
        Command::PromoteVariation,
        "promote_variation",
        "p",
        "promote the variation",
    ),
    (
        Command::MakeMainLine,
        "main_line",
        "P",
        "make it the main line",
    ),
    (
        Command::DeleteVariation,
        "delete_variation",
        "x",
        "delete the shown variation",
    ),
    (
        Command::CutLine,
        "cut_line",
        "X",
        "cut this move and the rest",
    ),
    (
        Command::Comment,
        "comment",
        ";",
        "comment on the shown move",
    ),
    (Command::Nag(1), "nag_good", "1", "mark ! (again: clear)"),
    (Command::Nag(2), "nag_mistake", "2", "mark ?"),
    (Command::Nag(3), "nag_brilliant", "3", "mark !!"),
    (Command::Nag(4), "nag_blunder", "4", "mark ??"),
    (Command::Nag(5), "nag_speculative", "5", "mark !?"),
    (Command::Nag(6), "nag_dubious", "6", "mark ?!"),
    (
        Command::NextMarked,
        "next_marked",
        ".",
        "next mistake on the graph",
    ),
    (
        Command::PrevMarked,
        "prev_marked",
        ",",
        "previous mistake on graph",
    ),
    (
        Command::Explorer,
        "explorer",
        "tab",
        "the database explorer (:db)",
    ),
];

/// A key with modifiers, as written in the config: `q`, `ctrl-s`, `f2`, `space`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{0}' is not a key (examples: q, ctrl-s, alt-x, f2, space, enter, home)")]
pub struct KeyError(pub String);

impl FromStr for Key {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Key, KeyError> {
        let err = || KeyError(s.to_owned());
        let mut rest = s.trim();
        let (mut ctrl, mut alt) = (false, false);
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.len() > 1 && lower.starts_with("ctrl-") {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.len() > 1 && lower.starts_with("alt-") {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "space" => KeyCode::Char(' '),
            "enter" => KeyCode::Enter,
            "tab" => KeyCode::Tab,
            "esc" => KeyCode::Esc,
            "backspace" => KeyCode::Backspace,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "delete" => KeyCode::Delete,
            l if l.len() > 1 && l.starts_with('f') => {
                let n: u8 = l[1..].parse().map_err(|_| err())?;
                if !(1..=12).contains(&n) {
                    return Err(err());
                }
                KeyCode::F(n)
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_control() => {
                        KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c })
                    }
                    _ => return Err(err()),
                }
            }
        };
        Ok(Key { code, ctrl, alt })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl-")?;
        }
        if self.alt {
            f.write_str("alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "f{n}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::PageUp => f.write_str("pageup"),
            KeyCode::PageDown => f.write_str("pagedown"),
            other => write!(f, "{other:?}"),
        }
    }
}

impl Key {
    pub fn from_event(ev: &KeyEvent) -> Key {
        let code = match ev.code {
            // Terminals report ctrl-letter as the lower-case letter with CONTROL.
            KeyCode::Char(c) if ev.modifiers.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            c => c,
        };
        Key {
            code,
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }
}

/// The bindings in force.
#[derive(Clone, Debug)]
pub struct KeyMap {
    bindings: Vec<(Key, Command)>,
}

/// Second default keys, after the first one in `COMMANDS`.
const MORE_DEFAULT_KEYS: [(Command, &str); 1] = [(Command::Redo, "U")];

impl Default for KeyMap {
    fn default() -> KeyMap {
        let first = COMMANDS.iter().map(|&(c, _, k, _)| (c, k));
        KeyMap {
            bindings: first
                .chain(MORE_DEFAULT_KEYS)
                .map(|(c, k)| (k.parse().expect("default keys parse"), c))
                .collect(),
        }
    }
}

impl KeyMap {
    pub fn command(&self, key: Key) -> Option<Command> {
        self.bindings
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, c)| c)
    }

    pub fn key_for(&self, command: Command) -> Option<Key> {
        self.bindings
            .iter()
            .find(|&&(_, c)| c == command)
            .map(|&(k, _)| k)
    }

    /// Every key bound to `command`.
    pub fn keys_for(&self, command: Command) -> impl Iterator<Item = Key> + '_ {
        self.bindings
            .iter()
            .filter(move |&&(_, c)| c == command)
            .map(|&(k, _)| k)
    }

    /// Rebinds `command` to `key`, dropping any other command's use of that key.
    pub fn bind(&mut self, command: Command, key: Key) {
        self.bindings.retain(|&(k, c)| c != command && k != key);
        self.bindings.push((key, command));
    }
}

/// Whether a key press with an empty input line starts a typed move rather than a command:
/// files, piece letters and castling, so `e4`, `Nf3`, `O-O` can be typed straight away.
pub fn starts_move(key: Key) -> bool {
    !key.ctrl
        && !key.alt
        && matches!(
            key.code,
            KeyCode::Char('a'..='h' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'O' | '0')
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_keys() {
        for s in [
            "q", "ctrl-s", "alt-x", "f2", "space", "enter", "home", ":", "?",
        ] {
            let k: Key = s.parse().unwrap();
            assert_eq!(k.to_string(), s);
        }
        for bad in ["", "ctrl-", "f13", "foo", "f0"] {
            assert!(bad.parse::<Key>().is_err(), "{bad}");
        }
    }

    #[test]
    fn default_keys_do_not_start_moves_and_are_unique() {
        let map = KeyMap::default();
        for (k, _) in &map.bindings {
            assert!(!starts_move(*k), "{k} is also a move start");
            assert_eq!(
                map.bindings.iter().filter(|(o, _)| o == k).count(),
                1,
                "{k}"
            );
        }
    }

    #[test]
    fn rebinding_replaces() {
        let mut map = KeyMap::default();
        map.bind(Command::Flip, "x".parse().unwrap());
        assert_eq!(map.command("x".parse().unwrap()), Some(Command::Flip));
        assert_eq!(map.command("r".parse().unwrap()), None);
    }
}
