//! The terminal interface: play against the engine, analyse, set up positions.
//!
//! Elm-style: terminal, engine and job events become `Action`s; `update` changes the one `App`
//! state and queues effects; `view::render` draws it. One loop waits on a single channel fed by
//! the input thread, the engine worker and background jobs, with a timeout only while a clock
//! runs or a throttled redraw is due, so an idle interface sleeps.

pub mod action;
pub mod app;
pub mod autosave;
mod board_input;
pub mod browse;
pub mod clock;
mod commands;
mod component;
pub mod config;
mod confirm;
mod database;
pub mod dialog;
mod edit;
pub mod endgame;
mod engine_lines;
mod engine_sync;
pub mod explorer;
pub mod game;
mod help;
pub mod input;
pub mod keymap;
pub mod layout;
mod learn;
pub mod library;
pub mod mode;
mod moves;
mod play;
mod premove;
mod prompt;
pub mod review;
mod saving;
mod searches;
pub mod setup;
pub mod start;
pub mod tablebase;
mod terminal;
pub mod theme;
mod typed;
mod undo;
pub mod update;
pub mod view;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::chess::{Color, Position};
use crate::engines::policy::{self, PlayPolicy};

use crate::game::index::load_entry_with_bytes;
use crate::game::{GameIndex, GameOrigin, PgnReader};

use crate::engines::service::{EngineCommand, EngineEvent, EngineService, SearchId};
use action::Action;
use app::{App, Effect, Overlay};
use clock::TimeControl;
use library::LibraryEvent;

/// Redraws caused by engine reports are at most this often.
const ENGINE_REDRAW: Duration = Duration::from_millis(100);

/// What the interface opens with.
#[derive(Clone, Debug)]
pub enum Start {
    /// A game against the engine with the configured settings (or resume the autosave).
    Default,
    Play {
        color: Option<Color>,
        level: Option<u8>,
        time_control: Option<TimeControl>,
    },
    /// Analyse a position.
    Analyse(Box<Position>),
    /// Browse the games of a PGN file (a file of one game opens it straight away).
    Browse(PathBuf),
    /// The endgame trainer on a material (`KRvK`) or a FEN; empty: the default material.
    Endgame(String),
}

#[derive(Clone, Debug)]
pub struct Options {
    pub ascii: bool,
    pub start: Start,
}

enum Event {
    Input(crossterm::event::Event),
    Engine(SearchId, EngineEvent),
    Job(Result<String, String>),
    Tablebase(Position, tablebase::Answer),
    Library(LibraryEvent),
    Explorer(explorer::worker::Reply),
}

/// Builds the starting state (no terminal needed).
pub fn initial_app(options: &Options, now: Instant) -> App {
    let (mut config, notes) = config::load(config::config_path().as_deref());
    config.ascii |= options.ascii;
    let mut app = App::new(config, now);
    app.set_colors(std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()));
    app.set_games_file(autosave::games_path());
    let mut book = crate::book::Book::embedded();
    let mut book_error = None;
    if let Some(file) = &app.config().book_file {
        match crate::book::Book::open(file) {
            Ok(b) => book = b,
            Err(e) => book_error = Some(format!("{e}; using the built-in book")),
        }
    }
    *app.tb_mut() = tablebase::TbPanel::open(app.config());
    *app.policy_mut() = PlayPolicy::new(Some(book), app.tb().tables.clone());
    app.engine(EngineCommand::Tablebases(
        app.policy()
            .search_tables(policy::PROBE_DEPTH, policy::RULE50),
    ));
    let (color, level, tc) = (
        play::configured_color(app.config(), now),
        app.config().level,
        app.config().time_control,
    );
    match &options.start {
        Start::Default => start::start_play(&mut app, Position::startpos(), color, tc, level),
        Start::Play {
            color: c,
            level: l,
            time_control: t,
        } => start::start_play(
            &mut app,
            Position::startpos(),
            c.unwrap_or(color),
            t.unwrap_or(tc),
            l.unwrap_or(level),
        ),
        Start::Analyse(pos) => start::enter_analyse_from(&mut app, (**pos).clone()),
        Start::Browse(path) => {
            start::enter_analyse_from(&mut app, Position::startpos());
            browse::open(&mut app, path.clone());
        }
        Start::Endgame(target) => endgame::start(&mut app, target),
    }
    if let Start::Default = options.start {
        if let Some(saved) = autosave::newest_orphan() {
            app.open_overlay(Overlay::Resume(Box::new(saved)));
        } else if app.config().first_run {
            start::open_welcome(&mut app);
        }
    }
    if let Some(path) = app.config().database_path.clone() {
        database::open(&mut app, path);
    }
    if let Some(e) = book_error {
        app.error(e);
    }
    if let Some((first, rest)) = notes.split_first() {
        for note in &notes {
            app.messages_mut().record(app::Severity::Error, note);
        }
        let more = if rest.is_empty() {
            String::new()
        } else {
            format!(" (+{} more: :messages)", rest.len())
        };
        app.messages_mut()
            .summarise(app::Severity::Error, format!("{first}{more}"));
    }
    update::settle(&mut app);
    app
}

pub fn run(options: Options) -> io::Result<()> {
    let mut app = initial_app(&options, Instant::now());
    let (tx, rx) = mpsc::channel();
    let input_tx = tx.clone();
    thread::Builder::new().name("input".into()).spawn(move || {
        while let Ok(ev) = crossterm::event::read() {
            if input_tx.send(Event::Input(ev)).is_err() {
                break;
            }
        }
    })?;
    let engine_tx = tx.clone();
    let engine = EngineService::spawn(move |id, ev| {
        let _ = engine_tx.send(Event::Engine(id, ev));
    });
    let tb_requests = app.tb().tables.clone().map(|tables| {
        let (req_tx, req_rx) = mpsc::channel();
        let tb_tx = tx.clone();
        let spawned = thread::Builder::new()
            .name("tablebase".into())
            .spawn(move || {
                tablebase::serve(tables, req_rx, |pos, answer| {
                    tb_tx.send(Event::Tablebase(pos, answer)).is_ok()
                })
            });
        spawned.map(|_| req_tx)
    });
    let tb_requests = tb_requests.transpose()?;
    let mut guard = terminal::TerminalGuard::enter()?;
    let size = guard.terminal.size()?;
    app.resize(size.width, size.height);
    let autosave_tx = tx.clone();
    let mut jobs = Jobs {
        autosave: autosave::path()
            .map(|path| {
                autosave::Writer::spawn(path, move |error| {
                    let _ = autosave_tx.send(Event::Job(Err(error)));
                })
            })
            .transpose()?,
        ..Jobs::default()
    };
    run_effects(&mut app, &engine, tb_requests.as_ref(), &tx, &mut jobs);
    guard.terminal.draw(|f| view::render(&app, f))?;
    let mut last_draw = Instant::now();
    let mut redraw_due: Option<Instant> = None;
    while !app.quitting() {
        let now = Instant::now();
        let clock_due = app
            .clocks()
            .and_then(|c| c.next_change(now))
            .map(|d| now + d);
        let deadline = [clock_due, redraw_due].into_iter().flatten().min();
        let event = match deadline {
            Some(d) => match rx.recv_timeout(d.saturating_duration_since(now)) {
                Ok(ev) => Some(ev),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(ev) => Some(ev),
                Err(_) => break,
            },
        };
        app.set_now(Instant::now());
        let mut urgent = true;
        let action = match event {
            Some(Event::Input(ev)) => input::action_for(&app, &ev),
            Some(Event::Engine(id, ev)) => {
                urgent = !matches!(ev, EngineEvent::Info(_));
                Some(Action::Engine(id, ev))
            }
            Some(Event::Job(result)) => Some(Action::JobDone(result)),
            Some(Event::Tablebase(pos, answer)) => Some(Action::Tablebase(Box::new(pos), answer)),
            Some(Event::Explorer(reply)) => Some(Action::Explorer(reply)),
            Some(Event::Library(event)) => {
                urgent = !matches!(event, LibraryEvent::Checked { done: false, .. });
                Some(Action::Library(event))
            }
            None => Some(Action::Tick),
        };
        if let Some(action) = action {
            update::update(&mut app, action);
            run_effects(&mut app, &engine, tb_requests.as_ref(), &tx, &mut jobs);
        }
        let now = Instant::now();
        if urgent || now >= last_draw + ENGINE_REDRAW {
            guard.terminal.draw(|f| view::render(&app, f))?;
            last_draw = now;
            redraw_due = None;
        } else if redraw_due.is_none() {
            redraw_due = Some(last_draw + ENGINE_REDRAW);
        }
    }
    engine.send(EngineCommand::Stop);
    drop(guard);
    jobs.finish();
    Ok(())
}

/// Background jobs: writes, which must finish before exit, and the running check of a PGN
/// file, which is abandoned when another file is opened or the program ends.
#[derive(Default)]
struct Jobs {
    writes: Vec<JoinHandle<()>>,
    /// The one writer of the autosave file (none without a data directory).
    autosave: Option<autosave::Writer>,
    check_cancel: Option<Arc<AtomicBool>>,
    /// The explorer's thread, started by the first database opened.
    explorer: Option<mpsc::Sender<explorer::worker::Request>>,
}

impl Jobs {
    fn finish(self) {
        if let Some(cancel) = self.check_cancel {
            cancel.store(true, Ordering::Relaxed);
        }
        for job in self.writes {
            let _ = job.join();
        }
        // Last: a finished save may have asked it to clear the file.
        if let Some(writer) = self.autosave {
            writer.finish();
        }
    }
}

fn run_effects(
    app: &mut App,
    engine: &EngineService,
    tb_requests: Option<&mpsc::Sender<Position>>,
    tx: &mpsc::Sender<Event>,
    jobs: &mut Jobs,
) {
    jobs.writes.retain(|j| !j.is_finished());
    for effect in app.take_effects() {
        let tx = tx.clone();
        let job = match effect {
            Effect::Engine(c) => {
                engine.send(c);
                continue;
            }
            Effect::Clipboard(text) => {
                // OSC 52: the terminal (through ssh and tmux too) sets its clipboard.
                let copy = crossterm::clipboard::CopyToClipboard::to_clipboard_from(text);
                if let Err(e) = crossterm::execute!(io::stdout(), copy) {
                    app.error(format!("could not copy: {e}"));
                }
                continue;
            }
            Effect::Tablebase(pos) => {
                if let Some(requests) = tb_requests {
                    let _ = requests.send(*pos);
                }
                continue;
            }
            Effect::Explorer(request) => {
                if jobs.explorer.is_none() {
                    let replies = tx.clone();
                    match explorer::worker::spawn(move |r| replies.send(Event::Explorer(r)).is_ok())
                    {
                        Ok(requests) => jobs.explorer = Some(requests),
                        Err(e) => app.error(format!("could not start the explorer: {e}")),
                    }
                }
                if let Some(requests) = &jobs.explorer {
                    let _ = requests.send(request);
                }
                continue;
            }
            Effect::SaveGame {
                path,
                game,
                append,
                clears_autosave,
                origin,
                resume,
            } => {
                let autosave = jobs.autosave.as_ref().map(autosave::Writer::handle);
                thread::spawn(move || {
                    let written = write_pgn(&path, &game, append, origin.as_deref());
                    let event = match written {
                        Ok(Some(at)) => {
                            keep_resumable(autosave.as_ref(), clears_autosave, resume, Some(&at));
                            let replaced = origin.is_some();
                            Event::Library(LibraryEvent::Written(Box::new(at), replaced))
                        }
                        Ok(None) => {
                            keep_resumable(autosave.as_ref(), clears_autosave, resume, None);
                            Event::Job(Ok(format!("saved to {}", path.display())))
                        }
                        Err((message, changed)) => {
                            Event::Library(LibraryEvent::NotWritten { message, changed })
                        }
                    };
                    let _ = tx.send(event);
                })
            }
            Effect::Autosave(contents) => {
                if let Some(writer) = &jobs.autosave {
                    writer.handle().save(contents);
                }
                continue;
            }
            Effect::ClearAutosave => {
                if let Some(writer) = &jobs.autosave {
                    writer.handle().clear();
                }
                continue;
            }
            Effect::RemoveAutosave(path) => {
                if let Err(e) = fs::remove_file(&path)
                    && e.kind() != io::ErrorKind::NotFound
                {
                    let _ = tx.send(Event::Job(Err(format!(
                        "could not remove {}: {e}",
                        path.display()
                    ))));
                }
                continue;
            }
            Effect::IndexPgn(path) => {
                thread::spawn(move || {
                    let index = GameIndex::build(&path)
                        .map(Arc::new)
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Event::Library(LibraryEvent::Indexed(path, index)));
                });
                continue;
            }
            Effect::CheckPgn(path) => {
                if let Some(old) = jobs.check_cancel.replace(Arc::default()) {
                    old.store(true, Ordering::Relaxed);
                }
                let cancel = jobs.check_cancel.clone().unwrap_or_default();
                thread::spawn(move || check_pgn(&path, &cancel, &tx));
                continue;
            }
            Effect::LoadGame { path, entry } => {
                thread::spawn(move || {
                    let game = load_entry_with_bytes(&path, &entry)
                        .map(|(parsed, bytes)| {
                            let origin = GameOrigin {
                                path: path.clone(),
                                number: entry.number,
                                offset: entry.offset,
                                bytes,
                            };
                            Box::new((parsed, origin))
                        })
                        .map_err(|e| e.to_string());
                    let loaded = LibraryEvent::Loaded(path, entry.number, game);
                    let _ = tx.send(Event::Library(loaded));
                });
                continue;
            }
        };
        jobs.writes.push(job);
    }
}

/// Games parsed between two reports of the check of a file.
const CHECK_BATCH: u64 = 2_000;

/// Parses every game of `path`, reporting the first error of each bad one in batches.
fn check_pgn(path: &Path, cancel: &AtomicBool, tx: &mpsc::Sender<Event>) {
    let report = |upto, (errors, warnings, openings), done| {
        let checked = LibraryEvent::Checked {
            path: path.to_owned(),
            upto,
            errors,
            warnings,
            openings,
            done,
        };
        tx.send(Event::Library(checked)).is_ok()
    };
    let reader = match PgnReader::open(path) {
        Ok(r) => r,
        Err(_) => return,
    };
    let (mut errors, mut warnings, mut openings) = (Vec::new(), Vec::new(), Vec::new());
    let mut count = 0;
    for parsed in reader {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let Ok(parsed) = parsed else { break };
        count = parsed.number;
        if let Some(e) = parsed.errors.first() {
            errors.push((parsed.number, e.to_string()));
        } else if let Some(w) = parsed.warnings.first() {
            warnings.push((parsed.number, w.kind.to_string()));
        }
        if let Some(opening) = crate::game::openings::of_game(&parsed.game) {
            openings.push((parsed.number, opening));
        }
        if count % CHECK_BATCH == 0 {
            let batch = (
                std::mem::take(&mut errors),
                std::mem::take(&mut warnings),
                std::mem::take(&mut openings),
            );
            if !report(count, batch, false) {
                return;
            }
        }
    }
    report(count, (errors, warnings, openings), true);
}

/// Creates the folder `path` is to be written in.
fn create_parent(path: &Path) -> io::Result<()> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => fs::create_dir_all(dir),
        None => Ok(()),
    }
}

/// Writes a game back over the one it was read from, appends it to a PGN file, or replaces
/// the file with it atomically; says where it went when it can be written back there later.
/// A failed write: what to say, and the game's origin when its file changed under it.
type NotWritten = (String, Option<Box<GameOrigin>>);

fn write_pgn(
    path: &Path,
    game: &crate::game::Game,
    append: bool,
    origin: Option<&GameOrigin>,
) -> Result<Option<GameOrigin>, NotWritten> {
    if let Some(origin) = origin {
        return match crate::game::replace_game(origin, game) {
            Ok(bytes) => Ok(Some(GameOrigin {
                bytes,
                ..origin.clone()
            })),
            Err(e) => {
                let changed = matches!(e, crate::game::ReplaceError::Changed(_));
                let message = format!(
                    "could not write game {} back into {}: {e}; nothing was written",
                    origin.number,
                    origin.path.display()
                );
                Err((message, changed.then(|| Box::new(origin.clone()))))
            }
        };
    }
    let failed = |e: io::Error| (format!("could not write {}: {e}", path.display()), None);
    create_parent(path).map_err(failed)?;
    if append {
        crate::game::append_game(path, game)
            .map(Some)
            .map_err(failed)
    } else {
        crate::game::save_games(path, [game])
            .map(|()| None)
            .map_err(failed)
    }
}

/// After a save: a finished game leaves nothing to resume; an unfinished one stays resumable,
/// its autosave saying where it went (`at`, when the save can tell).
fn keep_resumable(
    autosave: Option<&autosave::WriterHandle>,
    clears: bool,
    resume: Option<Box<autosave::Saved>>,
    at: Option<&GameOrigin>,
) {
    let Some(autosave) = autosave else {
        return;
    };
    if clears {
        autosave.clear();
    } else if let (Some(mut saved), Some(at)) = (resume, at) {
        saved.saved_to = Some(at.path.to_string_lossy().into_owned());
        saved.set_origin(at);
        autosave.save(saved.to_text());
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;
