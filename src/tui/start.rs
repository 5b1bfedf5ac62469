//! Starting what the interface shows: a game against the engine (the new-game dialog, resuming
//! the autosave) or analysis of a position or a game.

use crate::chess::{Color, Position};

use super::action::EditKey;
use super::app::{AnalyseState, App, DialogField, Effect, Mode, NewGameDialog, Overlay, PlayState};
use super::autosave::Saved;
use super::clock::{Clocks, DEFAULT_PRESET, PRESETS, TimeControl};
use super::config::{self, BookChoice, ColorChoice};
use super::game::Record;
use super::play;
use crate::engines::service::{EngineCommand, EngineSettings, MAX_LEVEL};

/// The new-game dialog, on the configured settings.
pub fn open_new_game(app: &mut App) {
    let preset = PRESETS.iter().position(|&p| p == app.config().time_control);
    app.open_overlay(Overlay::NewGame(NewGameDialog {
        field: DialogField::Color,
        color: play::configured_color(app.config(), app.now()),
        preset: preset.unwrap_or(DEFAULT_PRESET),
        level: app.config().level,
        book: app.config().book_choice,
        chess960: false,
        welcome: false,
    }));
}

/// The first run's welcome: the new-game dialog, whose choices are then kept in the config.
pub fn open_welcome(app: &mut App) {
    open_new_game(app);
    if let Some(Overlay::NewGame(d)) = app.overlay_mut() {
        d.welcome = true;
    }
}

/// Writes the welcome's choices into the config file, so that the next start plays them.
fn remember_choices(app: &mut App, d: &NewGameDialog) {
    let tc = PRESETS[d.preset];
    app.config_mut().color = match d.color {
        Color::White => ColorChoice::White,
        Color::Black => ColorChoice::Black,
    };
    app.config_mut().time_control = tc;
    app.config_mut().level = d.level;
    let (color, time, level) = (
        format!("\"{}\"", d.color.fold("white", "black")),
        format!("\"{tc}\""),
        d.level.to_string(),
    );
    let choices = [
        ("color", &*color),
        ("time_control", &*time),
        ("level", &*level),
    ];
    if let Err(e) = config::remember(app.config(), "play", &choices) {
        return app.error(format!("could not keep your choices: {e}"));
    }
    if let Some(path) = &app.config().file {
        let kept = format!("your choices are kept in {} ([play])", path.display());
        app.messages_mut().record(super::app::Severity::Info, &kept);
    }
}

/// A key in the new-game dialog.
pub fn new_game_key(app: &mut App, mut d: NewGameDialog, key: EditKey) {
    let step = match key {
        EditKey::Up => {
            d.field = d.field.step(-1);
            0
        }
        EditKey::Down | EditKey::Tab => {
            d.field = d.field.step(1);
            0
        }
        EditKey::Left => -1,
        EditKey::Right => 1,
        EditKey::Enter => {
            if d.welcome {
                remember_choices(app, &d);
            }
            app.config_mut().book_choice = d.book;
            let tc = PRESETS[d.preset];
            if !d.chess960 {
                return start_play(app, Position::startpos(), d.color, tc, d.level);
            }
            let n = (app.rng().next_u64() % 960) as u32;
            let start = crate::chess::chess960::start_position(n).expect("0..960 are numbered");
            start_play(app, start, d.color, tc, d.level);
            return app.info(format!(
                "new Chess960 game, position {n}: you play {} ({tc}, level {})",
                d.color.fold("White", "Black"),
                d.level
            ));
        }
        EditKey::Esc => return,
        _ => 0,
    };
    if step != 0 {
        match d.field {
            DialogField::Color => d.color = !d.color,
            DialogField::Time => d.preset = cycle(d.preset, step, PRESETS.len()),
            DialogField::Level => {
                d.level = (i32::from(d.level) + step).clamp(1, i32::from(MAX_LEVEL)) as u8
            }
            DialogField::Book => {
                let all = BookChoice::ALL;
                let i = all.iter().position(|&c| c == d.book).unwrap_or(0);
                d.book = all[cycle(i, step, all.len())];
            }
            DialogField::Start => d.chess960 = !d.chess960,
        }
    }
    app.open_overlay(Overlay::NewGame(d));
}

/// `i` moved by `step` in a ring of `len`.
fn cycle(i: usize, step: i32, len: usize) -> usize {
    (i as i64 + i64::from(step)).rem_euclid(len as i64) as usize
}

/// Starts a game against the engine from `start`.
pub fn start_play(app: &mut App, start: Position, human: Color, tc: TimeControl, level: u8) {
    *app.game_mut() = Record::new(start);
    // Clocks start with the first move.
    let clocks = Clocks::new(tc);
    app.set_mode(Mode::Play(PlayState {
        human,
        level,
        clocks,
        recorded: false,
        hint_pending: false,
        expected: None,
        premove: None,
    }));
    play::set_headers(app);
    app.board_mut().face(human);
    reset_view(app);
    set_engine_options(app);
    app.info(format!(
        "new game: you play {} ({tc}, level {level})",
        human.fold("White", "Black")
    ));
}

pub fn resume(app: &mut App, saved: &Saved) {
    if let Some(file) = saved.file.clone() {
        // This instance's own autosave takes over from here.
        app.effect(Effect::RemoveAutosave(file));
    }
    if let Some(pgn) = &saved.pgn {
        return resume_analysis(app, saved, pgn);
    }
    let (start, moves) = match saved.replay() {
        Ok(r) => r,
        Err(e) => return app.error(e.to_string()),
    };
    match saved.human() {
        Some(human) => {
            start_play(
                app,
                start,
                human,
                saved.time_control(),
                saved.level.unwrap_or(20),
            );
            if let (Mode::Play(p), Some((w, b))) = (app.mode_mut(), saved.remaining()) {
                p.clocks
                    .set_remaining(crate::chess::ByColor { white: w, black: b });
            }
        }
        None => enter_analyse_from(app, start),
    }
    for m in moves {
        app.game_mut().play(m);
    }
    // Saved unfinished into a file: finishing it writes it over that copy.
    app.game_mut().set_origin(saved.origin());
    let (turn, now, moved) = (app.game().last().turn(), app.now(), !app.game().is_empty());
    if let Mode::Play(p) = app.mode_mut()
        && moved
    {
        p.clocks.start(turn, now);
    }
    app.effect(Effect::Autosave(app.snapshot().to_text()));
    match &saved.saved_to {
        Some(file) => app.info(format!(
            "resumed the game from last time (saved unfinished in {file})"
        )),
        None => app.info("resumed the game from last time"),
    }
}

/// An analysis from the autosave: the whole tree, its file, the move shown; still unsaved.
fn resume_analysis(app: &mut App, saved: &Saved, pgn: &str) {
    let Some(parsed) = crate::game::parse_all(pgn).into_iter().next() else {
        return app.error("autosave: the analysis could not be read back");
    };
    let mut record = Record::from_game(parsed.game);
    record.set_origin(saved.origin());
    let shown = saved.shown_node(record.tree());
    enter_analyse_with(app, record);
    app.game_mut().goto(shown);
    app.game_mut().mark_changed();
    let from = match saved.origin() {
        Some(o) => format!(" (game {} of {})", o.number, o.path.display()),
        None => String::new(),
    };
    app.info(format!(
        "resumed the analysis from last time{from}; not saved yet"
    ));
}

fn reset_view(app: &mut App) {
    app.clear_marks();
    app.board_mut().clear_typed();
    app.lines_mut().clear();
    app.game_mut().mark_saved();
    app.undo_history().clear();
}

pub fn set_engine_options(app: &mut App) {
    let (multipv, level) = match app.mode() {
        Mode::Play(p) => (1, p.level),
        _ => (app.config().multipv, 20),
    };
    app.engine(EngineCommand::Options(EngineSettings {
        hash_mb: app.config().hash_mb,
        threads: app.config().threads,
        multipv,
        level,
    }));
}

/// Analyse mode on the current game (keeping it).
pub fn enter_analyse(app: &mut App) {
    app.stop_clocks();
    if !matches!(app.mode(), Mode::Analyse(_)) {
        app.set_mode(Mode::Analyse(AnalyseState::default()));
        set_engine_options(app);
    }
}

/// Analyse mode on a new line starting at `start`.
pub fn enter_analyse_from(app: &mut App, start: Position) {
    enter_analyse_with(app, Record::new(start));
}

/// Analyse mode on `game`, from its start.
pub fn enter_analyse_with(app: &mut App, game: Record) {
    app.stop_clocks();
    *app.game_mut() = game;
    reset_view(app);
    app.set_mode(Mode::Analyse(AnalyseState::default()));
    set_engine_options(app);
}
