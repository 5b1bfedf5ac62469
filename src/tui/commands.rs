//! The bottom-line prompt: `:` commands, FEN entry and file names.

use crate::chess::{Color, Position};

use super::action::Action;
use super::app::{App, Mode, PromptKind};
use super::config::expand_home;
use super::dialog::Pending;
use super::keymap::Command;
use super::saving;
use super::start;
use crate::engines::service::{EngineCommand, MAX_LEVEL};

/// `:` commands and what they do, for `:help` and the help screen.
pub const COMMAND_HELP: [(&str, &str); 23] = [
    (
        "play [white|black] [5+3|untimed] [level N] [960 [N]]",
        "new game against the engine",
    ),
    ("analyse", "analyse the current game"),
    ("fen [FEN]", "analyse a position; alone: show the FEN"),
    (
        "copy [fen|pgn]",
        "copy the FEN or the game to the clipboard",
    ),
    ("setup", "edit a position square by square"),
    ("save [FILE]", "append the game as PGN"),
    ("write FILE", "write the game as PGN, replacing FILE"),
    ("open FILE", "browse the games of a PGN file"),
    ("messages", "every message of the session, in full"),
    (
        "db [FILE.kdb|off]",
        "open a game database in the explorer (tab)",
    ),
    ("level N", "engine strength 1-20 (next game)"),
    ("multipv N", "lines shown while analysing"),
    ("ponder on|off", "the engine thinks on your time too"),
    ("resign / draw / takeback / hint", "play mode"),
    ("flip", "rotate the board"),
    ("theme wood|blue|high-contrast", "board colours"),
    (
        "endgame [KRvK|KRPvKR|FEN]",
        "practise an endgame against the tablebase defender",
    ),
    (
        "engine [opponent|analysis] NAME",
        "builtin or an [[engines]] entry of config.toml",
    ),
    (
        "analyse-engine NAME",
        "the engine of ctrl-a, :learn and the analysis",
    ),
    (
        "book best|proportional|random|off|depth N",
        "how the engine plays from its book",
    ),
    ("analyse-game", "analyse every move of the game"),
    (
        "learn [white|black]",
        "puzzles from one side's mistakes in the analysed game",
    ),
    ("quit", "leave"),
];

/// Carries out what was entered at a prompt.
pub fn submit(app: &mut App, kind: PromptKind, text: &str) {
    match kind {
        PromptKind::Fen => match Position::from_fen(text) {
            Ok(pos) => app.ask_or_do(Pending::Position(
                Box::new(pos),
                "position loaded; space starts the engine",
            )),
            Err(e) => {
                // Keep what was typed so it can be corrected.
                app.prompt_mut().open(super::app::Prompt::new(kind, text));
                app.error(format!("bad FEN: {e}"));
            }
        },
        PromptKind::SaveAs | PromptKind::WriteAs if text.is_empty() => {
            app.error("no file name given")
        }
        PromptKind::SaveAs => saving::save_game(app, Some(expand_home(text))),
        PromptKind::WriteAs => saving::write_game(app, expand_home(text), false),
        PromptKind::Comment => super::edit::set_comment(app, text),
        PromptKind::OpenPgn if text.is_empty() => app.error("no file name given"),
        PromptKind::OpenPgn => super::browse::open(app, expand_home(text)),
        PromptKind::Command => run_command(app, text),
        PromptKind::Endgame => app.ask_or_do(Pending::Endgame(text.to_owned())),
    }
}

fn run_command(app: &mut App, text: &str) {
    let mut words = text.split_whitespace();
    let Some(word) = words.next() else {
        return;
    };
    let rest: Vec<&str> = words.collect();
    let simple = |c: Command| Some(Action::Command(c));
    let action = match word {
        "q" | "quit" => simple(Command::Quit),
        "help" => simple(Command::Help),
        "flip" => simple(Command::Flip),
        "resign" => simple(Command::Resign),
        "draw" => simple(Command::OfferDraw),
        "takeback" | "undo" => simple(Command::Takeback),
        "hint" => simple(Command::Hint),
        "analyse" | "analyze" => simple(Command::ModeAnalyse),
        "analyse-game" | "analyze-game" => simple(Command::AnalyseGame),
        "setup" => simple(Command::Setup),
        "new" => simple(Command::NewGame),
        "copy" if rest.first() == Some(&"pgn") => simple(Command::CopyPgn),
        "copy" => simple(Command::CopyFen),
        _ => None,
    };
    if let Some(action) = action {
        return app.follow(action);
    }
    match word {
        "fen" if rest.is_empty() => {
            let fen = app.position().fen();
            app.info(format!("{fen}   (y copies it)"));
        }
        "fen" => submit(app, PromptKind::Fen, &rest.join(" ")),
        "save" if rest.is_empty() => saving::save_game(app, None),
        "save" => submit(app, PromptKind::SaveAs, &rest.join(" ")),
        "write" if rest.is_empty() => app.error("write takes a file name"),
        "write" => submit(app, PromptKind::WriteAs, &rest.join(" ")),
        "open" if rest.is_empty() => app.follow(Action::Command(Command::Open)),
        "open" => submit(app, PromptKind::OpenPgn, &rest.join(" ")),
        "messages" | "log" => {
            // The newest at the bottom, in sight.
            let lines = app
                .messages()
                .lines(super::dialog::log_width(app.size().0))
                .len();
            let rows = usize::from(app.size().1.saturating_sub(4)).max(1);
            let scroll = lines.saturating_sub(rows);
            app.open_overlay(super::app::Overlay::Messages { scroll });
        }
        "db" if rest.is_empty() => super::database::describe(app),
        "db" if rest == ["off"] => super::database::close(app),
        "db" => super::database::open(app, expand_home(&rest.join(" "))),
        "level" => match rest
            .first()
            .and_then(|s| s.parse::<u8>().ok())
            .filter(|l| (1..=MAX_LEVEL).contains(l))
        {
            Some(level) => {
                app.config_mut().level = level;
                app.info(format!("level {level} from the next game"));
            }
            None => app.error("level takes a number from 1 to 20"),
        },
        "multipv" => match rest
            .first()
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|n| (1..=10).contains(n))
        {
            Some(n) => {
                app.config_mut().multipv = n;
                start::set_engine_options(app);
                app.lines_mut().truncate(n as usize);
            }
            None => app.error("multipv takes a number from 1 to 10"),
        },
        "ponder" => match rest.as_slice() {
            ["on"] | ["off"] => {
                app.config_mut().ponder = rest[0] == "on";
                app.info(format!("pondering {}", rest[0]));
            }
            _ => app.error("ponder takes on or off"),
        },
        "play" => play_command(app, &rest),
        "theme" => match rest.first().and_then(|name| super::theme::by_name(name)) {
            Some(theme) => {
                app.config_mut().theme = theme;
                let value = format!("\"{}\"", theme.name);
                match super::config::remember(app.config(), "display", &[("theme", &value)]) {
                    Ok(()) => app.info(format!("theme {} (kept in config.toml)", theme.name)),
                    Err(e) => app.error(format!("theme {}; not kept: {e}", theme.name)),
                }
            }
            None => app.error(format!("theme takes one of {}", super::theme::names())),
        },
        "endgame" => submit(app, PromptKind::Endgame, &rest.join(" ")),
        "book" => book_command(app, &rest),
        "engine" => engine_command(app, &rest),
        "analyse-engine" | "analyze-engine" => match rest.as_slice() {
            [name] => engine_command(app, &["analysis", name]),
            _ => {
                app.error("analyse-engine takes an engine's name (builtin or an [[engines]] entry)")
            }
        },
        "learn" => match super::learn::parse_side(rest.first().copied()) {
            Ok(side) => super::learn::start(app, side),
            Err(e) => app.error(e),
        },
        _ => app.error(format!("unknown command '{word}' (:help)")),
    }
}

/// `:engine NAME` (both roles) or `:engine opponent|analysis NAME`.
fn engine_command(app: &mut App, args: &[&str]) {
    use super::config::BUILTIN;
    let (roles, name) = match args {
        [name] => ([true, true], *name),
        ["opponent", name] => ([true, false], *name),
        ["analysis", name] => ([false, true], *name),
        _ => {
            let names: Vec<&str> = app
                .config()
                .engines
                .iter()
                .map(|e| e.name.as_str())
                .collect();
            return app.info(format!(
                "engines: builtin {} (opponent: {}, analysis: {})",
                names.join(" "),
                app.config().opponent,
                app.config().analysis
            ));
        }
    };
    if name != BUILTIN && app.config().engine(name).is_none() {
        return app.error(format!("no engine '{name}' in config.toml's [[engines]]"));
    }
    // Asking for an engine again gives it another chance after a failure.
    app.engine(EngineCommand::Retry(name.to_owned()));
    if roles[0] {
        app.config_mut().opponent = name.to_owned();
    }
    if roles[1] {
        app.config_mut().analysis = name.to_owned();
    }
    app.info(format!(
        "opponent: {}, analysis: {}",
        app.config().opponent,
        app.config().analysis
    ));
}

fn book_command(app: &mut App, args: &[&str]) {
    use super::config::BookChoice;
    match args {
        ["off"] => app.config_mut().book_depth = 0,
        ["depth", n] => match n.parse::<u32>() {
            Ok(n) => app.config_mut().book_depth = n,
            Err(_) => return app.error("book depth takes a number of plies"),
        },
        [name] if BookChoice::from_name(name).is_some() => {
            app.config_mut().book_choice = BookChoice::from_name(name).expect("checked");
            if app.config().book_depth == 0 {
                app.config_mut().book_depth = super::config::Config::default().book_depth;
            }
        }
        _ => return app.error("book takes best, proportional, random, off or depth N"),
    }
    let state = if app.config().book_depth == 0 {
        "book off".to_owned()
    } else {
        format!(
            "book: {} moves up to ply {}",
            app.config().book_choice.name(),
            app.config().book_depth
        )
    };
    app.info(state);
}

fn play_command(app: &mut App, args: &[&str]) {
    let mut color = super::play::configured_color(app.config(), app.now());
    let mut tc = app.config().time_control;
    let mut level = app.config().level;
    let mut chess960 = None;
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            // `960` alone: a random start position; `960 N`: position number N.
            "960" => {
                let number = args.get(i + 1).and_then(|s| s.parse::<u32>().ok());
                if number.is_some() {
                    i += 1;
                }
                let n = number.unwrap_or_else(|| (app.rng().next_u64() % 960) as u32);
                match crate::chess::chess960::start_position(n) {
                    Some(pos) => chess960 = Some((n, pos)),
                    None => return app.error("Chess960 positions are numbered 0 to 959"),
                }
            }
            "white" => color = Color::White,
            "black" => color = Color::Black,
            "level" => {
                i += 1;
                match args
                    .get(i)
                    .and_then(|s| s.parse::<u8>().ok())
                    .filter(|l| (1..=MAX_LEVEL).contains(l))
                {
                    Some(l) => level = l,
                    None => return app.error("level takes a number from 1 to 20"),
                }
            }
            other => match other.parse() {
                Ok(t) => tc = t,
                Err(e) => return app.error(format!("{e}")),
            },
        }
        i += 1;
    }
    // A Chess960 start, else the shown position when analysing a set-up position, else the
    // start.
    let start = match (&chess960, app.mode()) {
        (Some((_, pos)), _) => pos.clone(),
        (None, Mode::Analyse(_)) if app.game().is_empty() => app.game().start().clone(),
        _ => Position::startpos(),
    };
    let pending = Pending::Play {
        start: Box::new(start),
        color,
        tc,
        level,
        chess960: chess960.map(|(n, _)| n),
    };
    app.ask_or_do(pending);
}
