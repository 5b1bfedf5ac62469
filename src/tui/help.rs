//! What the keys do in each mode: the help overlay's text and the hint at the bottom.

use super::action::EditKey;
use super::app::{App, Mode};
use super::commands::COMMAND_HELP;
use super::dialog::log_width;
use super::keymap::{COMMANDS, Command};

/// Whether `command` does something in `mode` (the help lists only those).
pub fn applies(command: Command, mode: &Mode) -> bool {
    use Command::*;
    let everywhere = matches!(
        command,
        Quit | Help
            | CommandLine
            | ModePlay
            | ModeAnalyse
            | ModeBrowse
            | ModeEndgame
            | Open
            | Setup
    );
    let board = matches!(
        command,
        Flip | NextMove | PrevMove | FirstMove | LastMove | Save | WriteGame | CopyFen | CopyPgn
    );
    let tree = matches!(
        command,
        Undo | Redo
            | ToggleAnalysis
            | AnalyseGame
            | NextVariation
            | PrevVariation
            | LeaveVariation
            | PromoteVariation
            | MakeMainLine
            | DeleteVariation
            | CutLine
            | Comment
            | Nag(_)
            | NextMarked
            | PrevMarked
            | PvNext
            | PvPrev
    );
    everywhere
        || match mode {
            Mode::Play(_) => {
                board || matches!(command, Takeback | Hint | NewGame | Resign | OfferDraw)
            }
            Mode::Analyse(_) => board || tree || matches!(command, Takeback | NewGame | Explorer),
            Mode::Endgame(_) => board || matches!(command, Takeback | Hint | NewGame),
            // Moving through the game would give the answers away.
            Mode::Learn(_) => matches!(
                command,
                Flip | Save | WriteGame | CopyFen | CopyPgn | Takeback | Hint | NewGame
            ),
            // Their own keys are listed below the commands.
            Mode::Setup(_) | Mode::Browse => false,
        }
}

/// The keys of the mode that are not commands of the key map.
fn mode_keys(mode: &Mode) -> &'static [&'static str] {
    match mode {
        Mode::Setup(_) => &[
            "PNBRQK/pnbrqk  put a piece on the cursor's square",
            "  x/space/bs  clear the square",
            "      arrows  move the cursor",
            "       tab/w  side to move",
            "         1-4  castling rights K Q k q",
            "           c  empty board;  s  start position",
            "           f  type a FEN",
            "       enter  done: analyse the position;  esc  cancel",
        ],
        Mode::Browse => &[
            "      typing  filter by player, event, opening, year...",
            "     up/down  move in the list;  pgup/pgdn/home/end too",
            "       enter  open the game;  ctrl-u  clear the filter",
            "         esc  clear the filter, then back to the board",
            "      ctrl-o  open another file",
        ],
        _ => &[
            "      typing  a-h, N B R Q K, O start a move: e4, Nf3, O-O, e2e4",
            "         tab  completes a typed move",
            "  left/right  previous/next move;  up/down  start/end of the line",
            "shift+arrows  move the board cursor; enter picks up and drops a piece",
            "       mouse  click or drag pieces; click the graph; wheel steps",
            "      ctrl-c  quit",
        ],
    }
}

/// What a command does in `mode`, where that differs from its usual meaning.
fn mode_help<'a>(mode: &Mode, command: Command, usual: &'a str) -> &'a str {
    match (mode, command) {
        (Mode::Learn(_), Command::Takeback) => "try again after a wrong move",
        (Mode::Learn(_), Command::Hint) => "show the better line",
        (Mode::Learn(_), Command::NewGame) => "next puzzle",
        (Mode::Learn(_), Command::ModeAnalyse) => "stop: back to analysing the game",
        _ => usual,
    }
}

/// The help overlay's lines for the current mode.
pub fn lines(app: &App) -> Vec<String> {
    let mut out = vec![format!("Keys in {} mode", app.mode.name().to_lowercase())];
    for &(command, _, _, help) in &COMMANDS {
        if !applies(command, &app.mode) {
            continue;
        }
        let keys: Vec<String> = app
            .config
            .keys
            .keys_for(command)
            .map(|k| k.to_string())
            .collect();
        let keys = if keys.is_empty() {
            "-".to_owned()
        } else {
            keys.join("/")
        };
        out.push(format!(
            "{keys:>12}  {}",
            mode_help(&app.mode, command, help)
        ));
    }
    out.extend(mode_keys(&app.mode).iter().map(|s| s.to_string()));
    out.push(String::new());
    out.push("Commands (type : first)".to_owned());
    for (command, help) in COMMAND_HELP {
        out.push(format!("  :{command}"));
        out.push(format!("      {help}"));
    }
    out
}

/// The hint at the bottom when nothing else is shown there.
pub fn hint(app: &App) -> String {
    let key = |c: Command| {
        app.config
            .keys
            .key_for(c)
            .map_or("-".to_owned(), |k| k.to_string())
    };
    let items: &[(Command, &str)] = match app.mode {
        Mode::Play(_) => &[
            (Command::Takeback, "takeback"),
            (Command::Hint, "hint"),
            (Command::Resign, "resign"),
            (Command::NewGame, "new"),
        ],
        Mode::Analyse(_) => &[
            (Command::ToggleAnalysis, "engine"),
            (Command::Takeback, "undo"),
            (Command::AnalyseGame, "analyse game"),
            (Command::Comment, "comment"),
        ],
        Mode::Endgame(_) => &[
            (Command::Hint, "best move"),
            (Command::Takeback, "takeback"),
            (Command::NewGame, "new position"),
        ],
        Mode::Learn(_) => &[
            (Command::Hint, "show"),
            (Command::Takeback, "retry"),
            (Command::NewGame, "next"),
            (Command::ModeAnalyse, "stop"),
        ],
        Mode::Setup(_) | Mode::Browse => &[],
    };
    let mut text = String::from(" type a move (e4, Nf3) · left/right moves");
    for &(c, what) in items
        .iter()
        .chain(&[(Command::Help, "help"), (Command::Quit, "quit")])
    {
        text.push_str(&format!(" · {} {what}", key(c)));
    }
    text
}

/// A key while help is shown: arrows and page keys scroll, anything else closes it.
pub fn key(app: &mut App, scroll: usize, key: EditKey) {
    let last = lines(app).len().saturating_sub(1);
    if let Some(scroll) = scrolled(app, scroll, last, key) {
        app.overlay = Some(super::app::Overlay::Help { scroll });
    }
}

/// A key in the message log: scrolls it, or closes it.
pub fn messages_key(app: &mut App, scroll: usize, key: EditKey) {
    let last = app
        .messages
        .lines(log_width(app.size.0))
        .len()
        .saturating_sub(1);
    if let Some(scroll) = scrolled(app, scroll, last, key) {
        app.overlay = Some(super::app::Overlay::Messages { scroll });
    }
}

/// Where a scrolling overlay goes for `key` (up to line `last`); `None`: the key closes it.
fn scrolled(app: &App, scroll: usize, last: usize, key: EditKey) -> Option<usize> {
    let page = usize::from(app.size.1.saturating_sub(6)).max(1);
    let key = match key {
        EditKey::Char('j') => EditKey::Down,
        EditKey::Char('k') => EditKey::Up,
        EditKey::Char(' ') => EditKey::PageDown,
        key => key,
    };
    key.moved(scroll.min(last), last, page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::COMMANDS;

    #[test]
    fn every_command_applies_somewhere_and_help_names_every_colon_command() {
        let app = crate::tui::tests::app();
        let modes = [
            crate::tui::tests::playing(crate::chess::Color::White).mode,
            app.mode.clone(),
        ];
        for &(command, name, _, _) in &COMMANDS {
            assert!(
                modes.iter().any(|m| applies(command, m)),
                "{name} is in no mode's help"
            );
        }
        let text = lines(&app).join("\n");
        for (command, _) in COMMAND_HELP {
            assert!(text.contains(command), "{command}");
        }
    }
}
