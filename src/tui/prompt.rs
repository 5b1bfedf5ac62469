//! The bottom-line prompt edits like a shell line: the cursor moves (left/right, home/end,
//! ctrl-a/ctrl-e), ctrl-u and ctrl-w delete, up/down walk the earlier entries of the same
//! prompt, and tab completes file names.

use std::path::{MAIN_SEPARATOR, Path, PathBuf};

use tui_input::{Input, InputRequest};

use super::action::Action;
use super::action::EditKey;
use super::app::{App, Prompt, PromptKind};
use super::config::expand_home;

pub fn open_prompt(app: &mut App, kind: PromptKind) {
    let prompt = match kind {
        PromptKind::SaveAs => Prompt::preselected(
            kind,
            app.games_file()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        ),
        // The open file, else the current folder: typing replaces it, tab completes in it.
        PromptKind::OpenPgn => {
            let folder = std::env::current_dir()
                .map(|d| format!("{}{}", d.display(), std::path::MAIN_SEPARATOR))
                .unwrap_or_default();
            let text = app
                .library()
                .map_or(folder, |l| l.path.display().to_string());
            Prompt::preselected(kind, text)
        }
        // A game read from a file is written back into it (only itself replaced there).
        PromptKind::WriteAs => {
            let origin = app.game().origin().map(|o| o.path.display().to_string());
            Prompt::preselected(kind, origin.unwrap_or_default())
        }
        _ => Prompt::new(kind, ""),
    };
    app.prompt_mut().open(prompt);
}

/// A key while the prompt is open.
pub fn key(app: &mut App, key: EditKey) {
    let Some(prompt) = app.prompt_mut().current_mut() else {
        return;
    };
    let selected = std::mem::take(&mut prompt.selected);
    prompt.candidates.clear();
    let request = match key {
        EditKey::Char(c) if selected => {
            prompt.line = Input::new(c.to_string());
            None
        }
        EditKey::Char(c) => Some(InputRequest::InsertChar(c)),
        EditKey::Backspace if prompt.text().is_empty() => {
            app.prompt_mut().close();
            return;
        }
        EditKey::Backspace if selected => Some(InputRequest::DeleteLine),
        EditKey::Backspace => Some(InputRequest::DeletePrevChar),
        EditKey::Delete => Some(InputRequest::DeleteNextChar),
        EditKey::Left => Some(InputRequest::GoToPrevChar),
        EditKey::Right => Some(InputRequest::GoToNextChar),
        EditKey::Home | EditKey::Ctrl('a') => Some(InputRequest::GoToStart),
        EditKey::End | EditKey::Ctrl('e') => Some(InputRequest::GoToEnd),
        EditKey::Ctrl('u') => Some(InputRequest::DeleteFromStart),
        EditKey::Ctrl('k') => Some(InputRequest::DeleteTillEnd),
        EditKey::Ctrl('w') => Some(InputRequest::DeletePrevWord),
        EditKey::Up => return app.prompt_mut().recall(1),
        EditKey::Down => return app.prompt_mut().recall(-1),
        EditKey::Tab if prompt.takes_file() => {
            complete_path(prompt);
            None
        }
        EditKey::Esc => {
            app.prompt_mut().close();
            return;
        }
        EditKey::Enter => {
            if let Some((kind, text)) = app.prompt_mut().submit() {
                app.follow(Action::Submit(kind, text));
            }
            return;
        }
        _ => None,
    };
    if let Some(request) = request {
        prompt.line.handle(request);
    }
}

/// Completes the file name before the cursor: the one entry that fits, or as much as all the
/// entries that fit share (listing them).
fn complete_path(prompt: &mut Prompt) {
    let cursor = prompt.line.cursor();
    let typed: String = prompt.text().chars().take(cursor).collect();
    let after: String = prompt.text().chars().skip(cursor).collect();
    let (dir_part, stem) = match typed.rfind(MAIN_SEPARATOR) {
        Some(i) => typed.split_at(i + 1),
        None => ("", typed.as_str()),
    };
    let dir = if dir_part.is_empty() {
        PathBuf::from(".")
    } else {
        expand_home(dir_part)
    };
    let mut names = matching_entries(&dir, stem);
    names.sort();
    let Some(common) = common_prefix(&names) else {
        return;
    };
    if names.len() > 1 {
        prompt.candidates = names;
    }
    let completed = format!("{dir_part}{common}");
    let cursor = completed.chars().count();
    prompt.line = Input::new(format!("{completed}{after}")).with_cursor(cursor);
}

/// Names in `dir` that start with `stem` (hidden ones only when asked for), directories with a
/// separator after them.
fn matching_entries(dir: &Path, stem: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_owned();
            let wanted =
                name.starts_with(stem) && (stem.starts_with('.') || !name.starts_with('.'));
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            wanted.then(|| {
                if is_dir {
                    format!("{name}{MAIN_SEPARATOR}")
                } else {
                    name
                }
            })
        })
        .collect()
}

/// The longest start all of `words` share; `None` without words.
pub fn common_prefix(words: &[String]) -> Option<String> {
    let (first, rest) = words.split_first()?;
    let mut prefix = first.as_str();
    for w in rest {
        let len: usize = prefix
            .chars()
            .zip(w.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.len_utf8())
            .sum();
        prefix = &prefix[..len];
    }
    Some(prefix.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::tests::{app, ctrl, keys};

    fn shown(app: &App) -> (String, usize) {
        let p = app.prompt().current().expect("the prompt is open");
        (p.text().to_owned(), p.line.cursor())
    }

    #[test]
    fn edits_like_a_shell_line() {
        let mut app = app();
        keys(&mut app, ":level 5<Left><Left><Left><BS>x");
        assert_eq!(shown(&app), ("levxl 5".into(), 4));
        keys(&mut app, "<Home>a<End>0");
        assert_eq!(shown(&app), ("alevxl 50".into(), 9));
        ctrl(&mut app, 'w');
        assert_eq!(shown(&app), ("alevxl ".into(), 7));
        ctrl(&mut app, 'a');
        keys(&mut app, "b");
        ctrl(&mut app, 'e');
        keys(&mut app, "c");
        assert_eq!(shown(&app), ("balevxl c".into(), 9));
        ctrl(&mut app, 'u');
        assert_eq!(shown(&app), (String::new(), 0));
        // Backspace on the empty line closes it, and nothing typed after reaches the prompt.
        keys(&mut app, "<BS>");
        assert!(app.prompt().current().is_none());
    }

    #[test]
    fn up_and_down_walk_the_entries_of_the_same_prompt() {
        let mut app = app();
        keys(&mut app, ":multipv 2<Enter>:multipv 3<Enter>:flip<Enter>");
        keys(&mut app, ":mul<Up>");
        assert_eq!(shown(&app).0, "flip");
        keys(&mut app, "<Up><Up>");
        assert_eq!(shown(&app).0, "multipv 2");
        keys(&mut app, "<Up>");
        assert_eq!(shown(&app).0, "multipv 2", "the oldest stays");
        keys(&mut app, "<Down><Down><Down>");
        assert_eq!(shown(&app).0, "mul", "back to what was typed");
    }

    #[test]
    fn tab_completes_file_names_and_a_selected_text_is_replaced() {
        let dir = std::env::temp_dir().join(format!("kibitzer-prompt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("games")).unwrap();
        std::fs::write(dir.join("games").join("club-2024.pgn"), "").unwrap();
        std::fs::write(dir.join("games").join("club-2025.pgn"), "").unwrap();
        let mut app = app();
        app.prompt_mut().open(Prompt::preselected(
            PromptKind::OpenPgn,
            format!("{}/", dir.display()),
        ));
        keys(&mut app, "<End>g<Tab>");
        assert_eq!(shown(&app).0, format!("{}/games/", dir.display()));
        keys(&mut app, "c<Tab>");
        assert_eq!(shown(&app).0, format!("{}/games/club-202", dir.display()));
        assert_eq!(
            app.prompt().current().unwrap().candidates,
            ["club-2024.pgn", "club-2025.pgn"]
        );
        keys(&mut app, "5<Tab>");
        assert_eq!(
            shown(&app).0,
            format!("{}/games/club-2025.pgn", dir.display())
        );
        // Typing at once replaces the offered text.
        app.prompt_mut()
            .open(Prompt::preselected(PromptKind::OpenPgn, "/some/folder/"));
        keys(&mut app, "x.pgn");
        assert_eq!(shown(&app).0, "x.pgn");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
