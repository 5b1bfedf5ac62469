//! The dialogs over the board (questions, the new-game dialog, promotion), the prompt line and
//! the messages: what each holds while it is open.

use tui_input::Input;

use crate::chess::{Color, Position, Square};

use super::autosave::Saved;
use super::clock::TimeControl;
use super::config::BookChoice;
use super::explorer::GamesList;
use super::game::Record;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Info,
    Error,
}

/// The columns of the message log's overlay in a terminal `width` wide.
pub fn log_width(width: u16) -> usize {
    usize::from(width.min(100).saturating_sub(2))
}

/// The message in the status line (cut to its width) until the next key, and every message of
/// the session, oldest first, in full for `:messages`.
#[derive(Clone, Debug, Default)]
pub struct Messages {
    shown: Option<(Severity, String)>,
    entries: std::collections::VecDeque<(Severity, String)>,
}

impl Messages {
    /// Messages kept; the oldest go first.
    const KEPT: usize = 1000;

    /// Shows a message in the status line and keeps it in the log.
    pub fn show(&mut self, severity: Severity, text: String) {
        self.record(severity, &text);
        self.shown = Some((severity, text));
    }

    /// Keeps a message in the log without showing it.
    pub fn record(&mut self, severity: Severity, text: &str) {
        if self.entries.len() == Self::KEPT {
            self.entries.pop_front();
        }
        self.entries.push_back((severity, text.to_owned()));
    }

    /// Shows a summary of messages recorded one by one (they are in the log).
    pub fn summarise(&mut self, severity: Severity, summary: String) {
        self.shown = Some((severity, summary));
    }

    /// The message in the status line.
    pub fn shown(&self) -> Option<&(Severity, String)> {
        self.shown.as_ref()
    }

    /// Clears the status line; the log keeps the message.
    pub fn dismiss(&mut self) {
        self.shown = None;
    }

    pub fn entries(&self) -> impl Iterator<Item = &(Severity, String)> {
        self.entries.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The messages wrapped at `width` columns (at spaces where there are some), the lines
    /// after an entry's first indented.
    pub fn lines(&self, width: usize) -> Vec<(Severity, String)> {
        let width = width.max(8);
        let mut out = Vec::new();
        for (severity, text) in &self.entries {
            let mut rest: Vec<char> = text.chars().collect();
            let mut indent = "";
            loop {
                let room = width - indent.len();
                if rest.len() <= room {
                    out.push((*severity, format!("{indent}{}", String::from_iter(&rest))));
                    break;
                }
                let cut = rest[..room]
                    .iter()
                    .rposition(|&c| c == ' ')
                    .filter(|&i| i > 0)
                    .unwrap_or(room);
                let line: String = rest[..cut].iter().collect();
                out.push((*severity, format!("{indent}{}", line.trim_end())));
                rest.drain(..cut);
                while rest.first() == Some(&' ') {
                    rest.remove(0);
                }
                indent = "  ";
            }
        }
        out
    }
}

/// A dialog over the board; it takes the keys while open.
#[derive(Clone, Debug)]
pub enum Overlay {
    /// The keys of the current mode and the `:` commands, scrolled this many lines.
    Help {
        scroll: usize,
    },
    /// The message log, scrolled this many lines.
    Messages {
        scroll: usize,
    },
    ConfirmQuit,
    /// A game from the last session can be resumed.
    Resume(Box<Saved>),
    NewGame(NewGameDialog),
    /// An action that would throw away work, asking first.
    Confirm(Pending),
    Promotion {
        from: Square,
        to: Square,
    },
    /// The games of the database that reached a position.
    DbGames(GamesList),
}

/// The fields of the new-game dialog, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogField {
    Color,
    Time,
    Level,
    Book,
    /// The standard start or a random Chess960 one.
    Start,
}

impl DialogField {
    const ALL: [DialogField; 5] = [
        DialogField::Color,
        DialogField::Time,
        DialogField::Level,
        DialogField::Book,
        DialogField::Start,
    ];

    /// The field `step` places down (up when negative), wrapping around.
    pub fn step(self, step: i32) -> DialogField {
        let i = Self::ALL.iter().position(|&f| f == self).unwrap_or(0) as i32;
        Self::ALL[(i + step).rem_euclid(Self::ALL.len() as i32) as usize]
    }
}

#[derive(Clone, Debug)]
pub struct NewGameDialog {
    pub field: DialogField,
    /// Index into `clock::PRESETS`.
    pub color: Color,
    pub preset: usize,
    pub level: u8,
    pub book: BookChoice,
    /// A random Chess960 start instead of the standard one.
    pub chess960: bool,
    /// The first run's welcome: the side, time control and level chosen are kept in the config.
    pub welcome: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Command,
    Fen,
    /// Append the game to a file.
    SaveAs,
    /// Write the game to a file, replacing it.
    WriteAs,
    /// The comment after the shown move.
    Comment,
    /// A PGN file to browse.
    OpenPgn,
    /// Material or FEN for the endgame trainer.
    Endgame,
}

impl PromptKind {
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Command => ":",
            PromptKind::Fen => "FEN: ",
            PromptKind::SaveAs => "Append PGN to: ",
            PromptKind::WriteAs => "Write PGN to (replaces the file): ",
            PromptKind::Comment => "Comment: ",
            PromptKind::OpenPgn => "Open PGN: ",
            PromptKind::Endgame => "Endgame (KQvK, KRPvKR... or FEN): ",
        }
    }
}

/// An action waiting for the user's yes.
#[derive(Clone, Debug)]
pub enum Pending {
    /// The new-game dialog.
    NewGame,
    /// Analyse this position (a FEN or a set-up board), with the message to show.
    Position(Box<Position>, &'static str),
    /// Analyse a game read from a file, with the message to show.
    Game(Box<Record>, Severity, String),
    /// The endgame trainer on a material or FEN.
    Endgame(String),
    /// A game against the engine (`:play`), from this start (numbered when Chess960).
    Play {
        start: Box<Position>,
        color: Color,
        tc: TimeControl,
        level: u8,
        chess960: Option<u32>,
    },
    Resign,
    /// The game list of the open file (or the prompt for one).
    Browse,
    /// Analyse mode on the game shown (a game in play stops).
    Analyse,
    /// The Result tag and the moves' result disagree: which to write.
    ResultConflict {
        path: std::path::PathBuf,
        append: bool,
        tag: String,
        moves: String,
    },
    /// The file a game came from changed since it was read: nothing was written.
    Changed(Box<crate::game::GameOrigin>),
    /// `w` to a file of other games: replace it, or append this game to it.
    Overwrite {
        path: std::path::PathBuf,
        games: u64,
    },
}

impl Pending {
    /// The question, and what `y` and `n` mean: for a game in play (`playing`), or one read
    /// from a file (`from_file`).
    pub fn question(&self, playing: bool, from_file: bool) -> (&'static str, &'static str) {
        match self {
            Pending::Resign => ("Resign this game?", "y: resign   n/esc: play on"),
            Pending::Analyse => (
                "Stop this game and analyse it? The clocks stop and the engine stops playing.",
                "y: analyse it (unsaved: ctrl-s saves it)   n/esc: keep playing",
            ),
            Pending::ResultConflict { .. } => (
                "The Result tag and the result after the moves disagree (shown in the status line).",
                "t: the tag's in both   m: the moves' in both   k: keep both   n/esc: cancel",
            ),
            Pending::Changed(_) => (
                "The file changed since this game was read from it: nothing was written.",
                "a: append the game to it   w: write it to another file   n/esc: cancel",
            ),
            Pending::Overwrite { games: 1, .. } => (
                "That file holds another game; writing replaces it.",
                "r: replace the file   a: append this game   n/esc: cancel",
            ),
            Pending::Overwrite { .. } => (
                "That file holds other games; writing replaces them all.",
                "r: replace the file   a: append this game   n/esc: cancel",
            ),
            _ if playing => (
                "The game in progress will be abandoned.",
                "s: save it unfinished first   y: abandon it   n/esc: keep playing",
            ),
            Pending::Browse => (
                "This game has changes that are not saved (opening another game drops them).",
                "s: save it first   y: to the list   n/esc: stay",
            ),
            _ if from_file => (
                "This game has changes that are not saved; they will be lost.",
                "s: write it back into its file   y: discard them   n/esc: keep the game",
            ),
            _ => (
                "This game has changes that are not saved; they will be lost.",
                "s: save it (appended to the games file)   y: discard them   n/esc: keep the game",
            ),
        }
    }
}

/// The prompt line: the prompt open now, if any, and what was entered at each kind of prompt,
/// oldest first, for up and down.
#[derive(Clone, Debug, Default)]
pub struct PromptLine {
    open: Option<Prompt>,
    history: Vec<(PromptKind, String)>,
}

impl PromptLine {
    /// Entries kept for up/down.
    const HISTORY_LIMIT: usize = 100;

    pub fn open(&mut self, prompt: Prompt) {
        self.open = Some(prompt);
    }

    pub fn close(&mut self) {
        self.open = None;
    }

    pub fn current(&self) -> Option<&Prompt> {
        self.open.as_ref()
    }

    pub fn current_mut(&mut self) -> Option<&mut Prompt> {
        self.open.as_mut()
    }

    /// Closes the prompt, keeping its text in the history: what was entered, trimmed.
    pub fn submit(&mut self) -> Option<(PromptKind, String)> {
        let prompt = self.open.take()?;
        let text = prompt.text().trim().to_owned();
        if !text.is_empty() {
            let history = &mut self.history;
            history.retain(|(k, t)| !(*k == prompt.kind && *t == text));
            if history.len() == Self::HISTORY_LIMIT {
                history.remove(0);
            }
            history.push((prompt.kind, text.clone()));
        }
        Some((prompt.kind, text))
    }

    /// Up (`step` 1) shows an older entry of this prompt's history, down (-1) a newer one, and
    /// past the newest the line as it was typed.
    pub fn recall(&mut self, step: isize) {
        let Some(prompt) = self.open.as_mut() else {
            return;
        };
        let entries: Vec<&String> = self
            .history
            .iter()
            .rev()
            .filter(|(k, _)| *k == prompt.kind)
            .map(|(_, t)| t)
            .collect();
        let (back, draft) = prompt
            .recall
            .take()
            .unwrap_or_else(|| (0, prompt.text().to_owned()));
        let back = back.saturating_add_signed(step).min(entries.len());
        let text = match back {
            0 => draft.clone(),
            n => entries[n - 1].clone(),
        };
        prompt.line = Input::new(text);
        if back > 0 {
            prompt.recall = Some((back, draft));
        }
    }
}

#[derive(Clone, Debug)]
pub struct Prompt {
    pub kind: PromptKind,
    pub line: Input,
    /// The whole text is selected: the first character typed replaces it.
    pub selected: bool,
    /// While walking the history: how many entries back, and the line as it was typed.
    pub recall: Option<(usize, String)>,
    /// File names the last tab could not choose between.
    pub candidates: Vec<String>,
}

impl Prompt {
    pub fn new(kind: PromptKind, text: impl Into<String>) -> Prompt {
        Prompt {
            kind,
            line: Input::new(text.into()),
            selected: false,
            recall: None,
            candidates: Vec::new(),
        }
    }

    /// A prompt whose text is selected, so typing replaces it and an arrow key keeps it.
    pub fn preselected(kind: PromptKind, text: impl Into<String>) -> Prompt {
        Prompt {
            selected: true,
            ..Prompt::new(kind, text)
        }
    }

    pub fn text(&self) -> &str {
        self.line.value()
    }

    pub fn takes_file(&self) -> bool {
        matches!(
            self.kind,
            PromptKind::OpenPgn | PromptKind::SaveAs | PromptKind::WriteAs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_wraps_long_messages_at_spaces_and_keeps_the_newest() {
        let mut log = Messages::default();
        log.record(Severity::Info, "short");
        log.record(
            Severity::Error,
            "config.toml: play.level: 99 is not a whole number",
        );
        let lines = log.lines(20);
        let texts: Vec<&str> = lines.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "short",
                "config.toml:",
                "  play.level: 99 is",
                "  not a whole number"
            ]
        );
        assert!(lines[1..].iter().all(|&(s, _)| s == Severity::Error));
        let unbroken = "x".repeat(30);
        log.record(Severity::Info, &unbroken);
        assert_eq!(
            log.lines(20).last().unwrap().1,
            format!("  {}", "x".repeat(10))
        );
        for i in 0..Messages::KEPT {
            log.record(Severity::Info, &i.to_string());
        }
        assert_eq!(log.entries().count(), Messages::KEPT);
        assert_eq!(log.entries().next().unwrap().1, "0");
    }
}
