//! The current game, saved in the data directory after every move and offered back on the next
//! start. Our own small TOML record: for a game against the engine the start FEN, UCI moves,
//! play settings and clocks; for an analysis with unsaved work the whole game as PGN (variations,
//! comments, marks), the file and game it came from, and the move shown.
//!
//! Each running instance has its own file (`autosave-PID.toml`), so two at once never take each
//! other's; a file whose process is gone is offered back at the next start.
//!
//! One writer thread owns the file: saves and clears are carried out in the order they were
//! asked for, so an older state can never overwrite a newer one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::chess::{Color, Move, Position};

use super::clock::TimeControl;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    pub fen: String,
    pub moves: Vec<String>,
    /// "white"/"black" when playing the engine; absent in analysis.
    pub human: Option<String>,
    pub level: Option<u8>,
    pub time_control: Option<String>,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    /// An analysis: the whole game as PGN (the moves above are then its main line).
    pub pgn: Option<String>,
    /// The move shown, as the child index taken at each node from the start.
    #[serde(default)]
    pub shown: Vec<u32>,
    /// The file and game an analysed game was read from (see `GameOrigin`). Paths are kept as
    /// text: one that is not UTF-8 comes back changed, and writing back to it then fails safely.
    pub origin_path: Option<String>,
    pub origin_number: Option<u64>,
    pub origin_offset: Option<u64>,
    pub origin_text: Option<String>,
    /// Where the game was last saved, to say so when it is resumed.
    pub saved_to: Option<String>,
    /// The autosave file this was read from (not written).
    #[serde(skip)]
    pub file: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutosaveError {
    #[error("autosave: {0}")]
    Format(String),
    #[error("autosave: bad FEN {0}")]
    Fen(String),
    #[error("autosave: move {index} '{uci}' is not legal")]
    Move { index: usize, uci: String },
}

/// This instance's autosave file.
pub fn path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| {
        d.join("kibitzer")
            .join(format!("autosave-{}.toml", std::process::id()))
    })
}

/// Autosaves left by instances that are no longer running (and the one file of older
/// versions), newest first.
pub fn orphans() -> Vec<PathBuf> {
    let Some(dir) = dirs::data_dir().map(|d| d.join("kibitzer")) else {
        return Vec::new();
    };
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            match name
                .strip_prefix("autosave")
                .and_then(|n| n.strip_suffix(".toml"))
            {
                Some("") => true,
                Some(pid) => pid
                    .strip_prefix('-')
                    .is_some_and(crate::game::save::left_by_dead_process),
                None => false,
            }
        })
        .map(|e| {
            let modified = e.metadata().and_then(|m| m.modified());
            (modified.unwrap_or(std::time::UNIX_EPOCH), e.path())
        })
        .collect();
    found.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    found.into_iter().map(|(_, p)| p).collect()
}

/// The newest autosave worth offering back, with its file set.
pub fn newest_orphan() -> Option<Saved> {
    orphans().into_iter().find_map(|path| {
        let mut saved = Saved::parse(&fs::read_to_string(&path).ok()?).ok()?;
        saved.file = Some(path);
        (!saved.moves.is_empty() || saved.pgn.is_some()).then_some(saved)
    })
}

/// Where finished games of play mode are appended.
pub fn games_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("kibitzer").join("games.pgn"))
}

impl Saved {
    pub fn to_text(&self) -> String {
        toml::to_string(self).expect("the record serialises")
    }

    pub fn parse(text: &str) -> Result<Saved, AutosaveError> {
        toml::from_str(text).map_err(|e| AutosaveError::Format(e.to_string()))
    }

    /// The start position and moves, checked.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), AutosaveError> {
        let start =
            Position::from_fen(&self.fen).map_err(|_| AutosaveError::Fen(self.fen.clone()))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (index, uci) in self.moves.iter().enumerate() {
            let m = pos.parse_uci(uci).map_err(|_| AutosaveError::Move {
                index,
                uci: uci.clone(),
            })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok((start, moves))
    }

    pub fn human(&self) -> Option<Color> {
        match self.human.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        }
    }

    /// The file and game an analysed game came from.
    pub fn origin(&self) -> Option<crate::game::GameOrigin> {
        Some(crate::game::GameOrigin {
            path: PathBuf::from(self.origin_path.clone()?),
            number: self.origin_number?,
            offset: self.origin_offset?,
            bytes: self.origin_text.clone()?.into_bytes(),
        })
    }

    /// Records where the game is in a file.
    pub fn set_origin(&mut self, origin: &crate::game::GameOrigin) {
        self.origin_path = Some(origin.path.to_string_lossy().into_owned());
        self.origin_number = Some(origin.number);
        self.origin_offset = Some(origin.offset);
        self.origin_text = Some(String::from_utf8_lossy(&origin.bytes).into_owned());
    }

    /// The node reached by following `shown` from the start (as far as it goes).
    pub fn shown_node(&self, tree: &crate::game::Tree) -> crate::game::NodeId {
        let mut node = crate::game::NodeId::ROOT;
        for &i in &self.shown {
            match tree.node(node).children().get(i as usize) {
                Some(&child) => node = child,
                None => break,
            }
        }
        node
    }

    pub fn time_control(&self) -> TimeControl {
        self.time_control
            .as_deref()
            .and_then(|s| s.parse().ok())
            .unwrap_or(TimeControl::Untimed)
    }

    pub fn remaining(&self) -> Option<(Duration, Duration)> {
        Some((
            Duration::from_millis(self.white_ms?),
            Duration::from_millis(self.black_ms?),
        ))
    }
}

/// The child indices from the start to `node`.
pub fn path_to(tree: &crate::game::Tree, node: crate::game::NodeId) -> Vec<u32> {
    let mut path = Vec::new();
    let mut at = node;
    while let Some(parent) = tree.previous(at) {
        let i = tree.node(parent).children().iter().position(|&c| c == at);
        path.push(i.unwrap_or(0) as u32);
        at = parent;
    }
    path.reverse();
    path
}

enum Job {
    Save(String),
    Clear,
}

/// Sends saves and clears to the writer thread; cheap to clone for other threads.
#[derive(Clone)]
pub struct WriterHandle(mpsc::Sender<Job>);

impl WriterHandle {
    /// Replaces the file with `text` (a `Saved::to_text`).
    pub fn save(&self, text: String) {
        let _ = self.0.send(Job::Save(text));
    }

    /// Removes the file: there is nothing to resume.
    pub fn clear(&self) {
        let _ = self.0.send(Job::Clear);
    }
}

/// The one writer of the autosave file at `path`.
pub struct Writer {
    handle: Option<WriterHandle>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    /// Starts the writer; `report` gets the message of a failed write.
    pub fn spawn(path: PathBuf, report: impl Fn(String) + Send + 'static) -> io::Result<Writer> {
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                while let Ok(mut job) = rx.recv() {
                    // Only the newest of a burst matters: each job sets the whole file.
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                    }
                    if let Err(e) = run(&path, &job) {
                        report(format!("could not write {}: {e}", path.display()));
                    }
                }
            })?;
        Ok(Writer {
            handle: Some(WriterHandle(tx)),
            thread: Some(thread),
        })
    }

    pub fn handle(&self) -> WriterHandle {
        self.handle.clone().expect("the writer runs until finished")
    }

    /// Waits for every job sent so far (through any handle still alive) to be written.
    pub fn finish(mut self) {
        self.handle = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(path: &Path, job: &Job) -> io::Result<()> {
    match job {
        Job::Save(text) => {
            super::create_parent(path)?;
            crate::game::save_atomic(path, text.as_bytes())
        }
        Job::Clear => match fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_input() {
        let s = Saved {
            fen: crate::chess::STARTPOS.into(),
            moves: vec!["e2e4".into(), "e7e5".into()],
            human: Some("black".into()),
            level: Some(7),
            time_control: Some("5+3".into()),
            white_ms: Some(1000),
            black_ms: Some(2000),
            pgn: None,
            shown: vec![],
            origin_path: None,
            origin_number: None,
            origin_offset: None,
            origin_text: None,
            saved_to: None,
            file: None,
        };
        let back = Saved::parse(&s.to_text()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.replay().unwrap().1.len(), 2);
        assert_eq!(back.human(), Some(Color::Black));
        let mut bad = s.clone();
        bad.moves.push("e4e5".into());
        assert_eq!(
            bad.replay().unwrap_err(),
            AutosaveError::Move {
                index: 2,
                uci: "e4e5".into()
            }
        );
        assert!(Saved::parse("fen = 3").is_err());
    }

    /// A game from a file whose name is not UTF-8 still autosaves (its origin then no longer
    /// matches, so writing back refuses rather than writing elsewhere).
    #[cfg(unix)]
    #[test]
    fn an_origin_that_is_not_utf8_still_autosaves() {
        use std::os::unix::ffi::OsStrExt;
        let mut s =
            Saved::parse(&format!("fen = \"{}\"\nmoves = []", crate::chess::STARTPOS)).unwrap();
        s.set_origin(&crate::game::GameOrigin {
            path: PathBuf::from(std::ffi::OsStr::from_bytes(b"caf\xe9.pgn")),
            number: 3,
            offset: 10,
            bytes: b"1. e4 \xe9 *".to_vec(),
        });
        let back = Saved::parse(&s.to_text()).unwrap();
        let origin = back.origin().unwrap();
        assert_eq!((origin.number, origin.offset), (3, 10));
        assert_ne!(origin.bytes, b"1. e4 \xe9 *");
    }
}

#[cfg(test)]
mod stress_tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A state whose text says which save it was; a torn file would not parse.
    fn state(serial: usize) -> String {
        let mut s =
            Saved::parse(&format!("fen = \"{}\"\nmoves = []", crate::chess::STARTPOS)).unwrap();
        s.moves = vec!["e2e4".to_owned(); serial % 50];
        s.level = Some((serial % 250) as u8);
        s.white_ms = Some(serial as u64);
        s.to_text()
    }

    fn serial_in(path: &Path) -> Option<u64> {
        let text = fs::read_to_string(path).ok()?;
        let saved = Saved::parse(&text).expect("the autosave file is always whole");
        saved.white_ms
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kibitzer-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Several threads save hundreds of states while a reader watches the file: it is whole
    /// every time it is read, never goes back to an older state, and ends on the newest.
    fn hammer(path: &Path, threads: usize, saves_each: usize) -> u64 {
        let writer = Writer::spawn(path.to_owned(), |e| panic!("{e}")).unwrap();
        // The serial is taken and sent under one lock, so sending order is serial order.
        let next = Arc::new(Mutex::new(0usize));
        let done = Arc::new(AtomicBool::new(false));
        let reader = {
            let (path, done) = (path.to_owned(), done.clone());
            thread::spawn(move || {
                let mut last = 0;
                while !done.load(Ordering::Relaxed) {
                    if let Some(serial) = serial_in(&path) {
                        assert!(serial >= last, "went back from save {last} to {serial}");
                        last = serial;
                    }
                }
            })
        };
        let senders: Vec<_> = (0..threads)
            .map(|_| {
                let (handle, next) = (writer.handle(), next.clone());
                thread::spawn(move || {
                    for _ in 0..saves_each {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        handle.save(state(*n));
                    }
                })
            })
            .collect();
        for s in senders {
            s.join().unwrap();
        }
        writer.finish();
        done.store(true, Ordering::Relaxed);
        reader.join().unwrap();
        (threads * saves_each) as u64
    }

    #[test]
    fn concurrent_saves_leave_the_newest_whole_file() {
        let dir = temp_dir("autosave-stress");
        let path = dir.join("autosave.toml");
        let last = hammer(&path, 4, 200);
        assert_eq!(serial_in(&path), Some(last));
        let entries: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(entries.len(), 1, "no temporary file is left behind");
        // A clear after saves wins over them too.
        let writer = Writer::spawn(path.clone(), |e| panic!("{e}")).unwrap();
        writer.handle().save(state(1));
        writer.handle().clear();
        writer.finish();
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs `hammer` where the kill test points it, for a long time.
    #[test]
    #[ignore = "run by autosave_survives_being_killed as a child process"]
    fn hammer_until_killed() {
        let path = std::env::var_os("KIBITZER_HAMMER_FILE").map_or_else(
            || temp_dir("autosave-hammer").join("autosave.toml"),
            PathBuf::from,
        );
        hammer(&path, 3, 2000);
    }

    #[test]
    fn autosave_survives_being_killed() {
        let dir = temp_dir("autosave-kill");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("autosave.toml");
        let exe = std::env::current_exe().unwrap();
        for round in 0..5u64 {
            let mut child = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "tui::autosave::stress_tests::hammer_until_killed",
                ])
                .args(["--ignored", "--test-threads", "1"])
                .env("KIBITZER_HAMMER_FILE", &path)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            thread::sleep(Duration::from_millis(100 + 50 * round));
            child.kill().unwrap();
            child.wait().unwrap();
            // Whatever the moment of the kill, the file is absent or a whole state.
            let _ = serial_in(&path);
        }
        assert!(path.exists(), "some save landed before a kill");
        fs::remove_dir_all(&dir).unwrap();
    }
}
