//! What the keys do in each mode: the help overlay's text and the hint at the bottom.

use super::action::EditKey;
use super::app::{App, Mode};
use super::commands::COMMAND_HELP;
use super::component::everywhere;
use super::dialog::log_width;
use super::keymap::{COMMANDS, Command};

/// Whether `command` does something in `mode` (the help lists only those).
pub fn applies(command: Command, mode: &Mode) -> bool {
    everywhere(command) || mode.component().takes(command)
}

/// The help overlay's lines for the current mode.
pub fn lines(app: &App) -> Vec<String> {
    let mut out = vec![format!(
        "Keys in {} mode",
        app.mode().component().name().to_lowercase()
    )];
    for &(command, _, _, help) in &COMMANDS {
        if !applies(command, app.mode()) {
            continue;
        }
        let keys: Vec<String> = app
            .config()
            .keys
            .keys_for(command)
            .map(|k| k.to_string())
            .collect();
        let keys = if keys.is_empty() {
            "-".to_owned()
        } else {
            keys.join("/")
        };
        let help = app.mode().component().command_help(command).unwrap_or(help);
        out.push(format!("{keys:>12}  {help}"));
    }
    out.extend(
        app.mode()
            .component()
            .own_keys()
            .iter()
            .map(|s| s.to_string()),
    );
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
        app.config()
            .keys
            .key_for(c)
            .map_or("-".to_owned(), |k| k.to_string())
    };
    let items = app.mode().component().suggested();
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
        app.open_overlay(super::app::Overlay::Help { scroll });
    }
}

/// A key in the message log: scrolls it, or closes it.
pub fn messages_key(app: &mut App, scroll: usize, key: EditKey) {
    let last = app
        .messages()
        .lines(log_width(app.size().0))
        .len()
        .saturating_sub(1);
    if let Some(scroll) = scrolled(app, scroll, last, key) {
        app.open_overlay(super::app::Overlay::Messages { scroll });
    }
}

/// Where a scrolling overlay goes for `key` (up to line `last`); `None`: the key closes it.
fn scrolled(app: &App, scroll: usize, last: usize, key: EditKey) -> Option<usize> {
    let page = usize::from(app.size().1.saturating_sub(6)).max(1);
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
            crate::tui::tests::playing(crate::chess::Color::White)
                .mode()
                .clone(),
            app.mode().clone(),
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
