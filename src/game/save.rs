//! Saving without ever leaving a half-written file: a whole-file save goes to a temporary file
//! in the same directory, is synced, then renamed over the target; an append either lands
//! completely or the file is cut back to its old length.
//!
//! A save replaces only a regular file or makes a new one: a symlink is followed to the file it
//! names (as editors do), a FIFO, device, socket or folder is refused, and the file's
//! permissions are kept. Temporary files are removed when the save fails or is dropped, by
//! [`remove_temporaries`] when the process is interrupted, and, when a killed process left them
//! behind, by the next save to the same file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use super::record::Game;
use super::write::write_game;

/// Writes `games` to `path` atomically (blank line between games).
pub fn save_games<'a>(path: &Path, games: impl IntoIterator<Item = &'a Game>) -> io::Result<()> {
    let mut text = String::new();
    for (i, game) in games.into_iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        write_game(game, &mut text);
    }
    save_atomic(path, text.as_bytes())
}

/// Replaces `path` with `bytes`: temp file beside it, fsync, rename, fsync of the directory.
pub fn save_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written in full beside its target and renamed over it on `commit`; dropped without
/// commit, it disappears and the target is untouched.
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<io::BufWriter<File>>,
}

/// The temporary files of saves in progress, for [`remove_temporaries`].
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the temporary files of every save in progress: for a signal handler, just before
/// the process ends without finishing them.
pub fn remove_temporaries() {
    for tmp in temporaries().drain(..) {
        let _ = fs::remove_file(tmp);
    }
}

fn forget_temporary(tmp: &Path) {
    temporaries().retain(|t| t != tmp);
}

/// Where a save to `path` goes, and the permissions to give it: a symlink is followed to the
/// file it names; a path that exists and is not a regular file is refused.
pub fn save_target(path: &Path) -> io::Result<(PathBuf, Option<fs::Permissions>)> {
    let mut target = path.to_owned();
    for _ in 0..40 {
        let meta = match fs::symlink_metadata(&target) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((target, None)),
            Err(e) => return Err(e),
        };
        if meta.file_type().is_symlink() {
            let link = fs::read_link(&target)?;
            target = match target.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
            continue;
        }
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is {}, not a regular file; refusing to replace it",
                    path.display(),
                    describe_file_type(&meta.file_type())
                ),
            ));
        }
        return Ok((target, Some(meta.permissions())));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

fn describe_file_type(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        } else if kind.is_char_device() {
            return "a character device";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

/// Removes `.NAME.tmp-PID-N` files beside `target` whose process is gone (killed before it
/// could clean up), so they never pile up.
fn remove_stale_temporaries(target: &Path, name: &str) {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        if rest
            .split_once('-')
            .is_some_and(|(pid, _)| left_by_dead_process(pid))
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether two paths name one file (through symbolic and hard links too); false where either
/// does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether a file named after process `pid` (its id as text) was left by another process that
/// no longer runs: a temporary or an autosave nobody will finish.
pub fn left_by_dead_process(pid: &str) -> bool {
    pid.parse::<u32>()
        .is_ok_and(|pid| pid != std::process::id() && !process_alive(pid))
}

/// Whether a process with this id runs (on other systems: assumed so).
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    true
}

impl AtomicFile {
    /// Starts a save to `target` (see [`save_target`] for what it replaces).
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let (target, permissions) = save_target(target)?;
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?
            .to_string_lossy()
            .into_owned();
        remove_stale_temporaries(&target, &name);
        // Unique per write, so saves running at once never share (and steal) a temporary file.
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let tmp = target.with_file_name(format!(
            ".{name}.tmp-{}-{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        // Listed before it exists, so a signal at any moment finds it.
        temporaries().push(tmp.clone());
        let file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => file,
            Err(e) => {
                forget_temporary(&tmp);
                return Err(e);
            }
        };
        if let Some(permissions) = permissions
            && let Err(e) = file.set_permissions(permissions)
        {
            let _ = fs::remove_file(&tmp);
            forget_temporary(&tmp);
            return Err(e);
        }
        Ok(AtomicFile {
            target,
            tmp,
            file: Some(io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Syncs the data, renames it over the target, and syncs the directory.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Err(io::Error::other("already committed"));
        };
        let file = match file.into_inner() {
            Ok(file) => file,
            Err(e) => {
                let _ = fs::remove_file(&self.tmp);
                forget_temporary(&self.tmp);
                return Err(e.into_error());
            }
        };
        let renamed = file
            .sync_all()
            .and_then(|()| fs::rename(&self.tmp, &self.target));
        if renamed.is_err() {
            let _ = fs::remove_file(&self.tmp);
        }
        forget_temporary(&self.tmp);
        renamed?;
        let dir = match self.target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // Makes the rename durable; not every platform lets a directory be synced.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
            forget_temporary(&self.tmp);
        }
    }
}

/// Why a game could not be written back into its file.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The bytes the game was read from are no longer where they were.
    #[error("the file changed since game {0} was read from it")]
    Changed(u64),
}

/// Where a game was read from: its file, number, byte offset, and the bytes it was read from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameOrigin {
    pub path: PathBuf,
    pub number: u64,
    pub offset: u64,
    pub bytes: Vec<u8>,
}

/// Writes `game` over the game it was read from, atomically; every other byte of the file stays
/// as it is. The blank lines that followed the old game follow the new one. Returns the bytes
/// written for the game (its origin from now on).
pub fn replace_game(origin: &GameOrigin, game: &Game) -> Result<Vec<u8>, ReplaceError> {
    let (target, _) = save_target(&origin.path)?;
    let file = fs::read(&target)?;
    let start = usize::try_from(origin.offset).map_err(|_| ReplaceError::Changed(origin.number))?;
    let end = start + origin.bytes.len();
    if file.get(start..end) != Some(&origin.bytes[..]) {
        return Err(ReplaceError::Changed(origin.number));
    }
    let old = &origin.bytes;
    let trailing = &old[old.trim_ascii_end().len()..];
    let mut text = String::new();
    write_game(game, &mut text);
    let mut bytes = text.trim_end().as_bytes().to_vec();
    // Keep the separation the old game had from the next (at least the line end).
    if trailing.contains(&b'\n') {
        bytes.extend_from_slice(trailing);
    } else {
        bytes.push(b'\n');
    }
    let mut out = AtomicFile::create(&origin.path)?;
    out.write_all(&file[..start])?;
    out.write_all(&bytes)?;
    out.write_all(&file[end..])?;
    out.commit()?;
    Ok(bytes)
}

/// Appends one game to `path` (created if missing), separated from what is there by a blank
/// line. On failure the file is truncated back to its previous length. Returns where the game
/// went, to write it back there later.
pub fn append_game(path: &Path, game: &Game) -> io::Result<GameOrigin> {
    let (target, _) = save_target(path)?;
    // The games before it, for its number (a file of other text counts what it can).
    let before = match File::open(&target) {
        Ok(f) => {
            let mut games = 0;
            super::index::scan(f, |_| games += 1)?;
            games
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e),
    };
    let path = target;
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(&path)?;
    let old_len = file.metadata()?.len();
    let mut text = String::new();
    if old_len > 0 {
        // Look at the tail to add just enough line breaks for a blank line.
        let tail_len = old_len.min(2);
        file.seek(SeekFrom::Start(old_len - tail_len))?;
        let mut tail = Vec::new();
        (&mut file).take(tail_len).read_to_end(&mut tail)?;
        let tail = tail.strip_suffix(b"\r").unwrap_or(&tail);
        match tail {
            [.., b'\n', b'\n'] => {}
            [.., b'\n'] => text.push('\n'),
            _ => text.push_str("\n\n"),
        }
    }
    let separator = text.len();
    write_game(game, &mut text);
    let result = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_data());
    if let Err(e) = result {
        let _ = file.set_len(old_len);
        let _ = file.sync_data();
        return Err(e);
    }
    Ok(GameOrigin {
        path: path.to_path_buf(),
        number: before + 1,
        offset: old_len + separator as u64,
        bytes: text.as_bytes()[separator..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::read::parse_all;

    fn temporaries_in(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp-"))
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_replaced_and_links_are_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = save_atomic(&fifo, b"x").unwrap_err();
            assert!(e.to_string().contains("a FIFO, not a regular file"), "{e}");
        }
        let e = save_atomic(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        let e = save_atomic(dir.path(), b"x").unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        assert!(
            fs::metadata("/dev/null").is_ok(),
            "/dev/null is still there"
        );

        let target = dir.path().join("games.pgn");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink("games.pgn", &link).unwrap();
        save_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(temporaries_in(dir.path()).is_empty());
    }

    #[test]
    fn a_game_is_replaced_in_its_file_and_every_other_byte_kept() {
        use crate::game::index::{GameIndex, load_entry_with_bytes};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("three.pgn");
        let text = "[Event \"a\"]\n\n1. e4   e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n\n\n\
                    [Event \"c\"]\n\n1. c4 {odd  spacing} c5 *";
        fs::write(&path, text).unwrap();
        let index = GameIndex::build(&path).unwrap();
        let entry = index.get(2).unwrap().clone();
        let (parsed, bytes) = load_entry_with_bytes(&path, &entry).unwrap();
        let origin = GameOrigin {
            path: path.clone(),
            number: 2,
            offset: entry.offset,
            bytes,
        };
        let mut game = parsed.game;
        let d5 = game.tree.mainline().nth(1).unwrap();
        game.tree.node_mut(d5).nags.push(crate::game::Nag(1));
        let written = replace_game(&origin, &game).unwrap();
        let after = fs::read_to_string(&path).unwrap();
        let (first, rest) = text.split_at(entry.offset as usize);
        let third = &rest[origin.bytes.len()..];
        assert!(
            after.starts_with(first) && after.ends_with(third),
            "{after}"
        );
        assert!(
            after.contains("1. d4 d5 $1 *\n\n\n[Event \"c\"]"),
            "{after}"
        );
        let games = parse_all(&after);
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].game, game);
        // The index follows the change: the next game still opens.
        let moved = index.with_game_replaced(2, &written).unwrap();
        let third = crate::game::index::load_entry(&path, moved.get(3).unwrap()).unwrap();
        assert_eq!(third.game.headers.get("Event"), Some("c"));
        let fresh = GameIndex::build(&path).unwrap();
        let places = |i: &GameIndex| -> Vec<(u64, u64, u64)> {
            i.entries()
                .iter()
                .map(|e| (e.offset, e.line, e.len))
                .collect()
        };
        assert_eq!(places(&moved), places(&fresh));
        // The old bytes are gone: a second write from them is refused.
        assert!(matches!(
            replace_game(&origin, &game),
            Err(ReplaceError::Changed(2))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn temporaries_of_dead_processes_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.pgn");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(format!(".out.pgn.tmp-{dead}-0"));
        let live = dir.path().join(".out.pgn.tmp-1-0");
        let other = dir.path().join(format!(".other.pgn.tmp-{dead}-0"));
        for f in [&stale, &live, &other] {
            fs::write(f, "partial").unwrap();
        }
        save_atomic(&target, b"done").unwrap();
        assert!(!stale.exists(), "a dead process's temporary is removed");
        assert!(live.exists(), "a running process's temporary is kept");
        assert!(other.exists(), "another file's temporaries are left alone");
    }

    #[test]
    fn save_and_append_keep_every_game() {
        let dir = std::env::temp_dir().join(format!("kibitzer-save-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let games: Vec<Game> = parse_all("1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 {x} d5 1-0\n")
            .into_iter()
            .map(|g| g.game)
            .collect();
        save_games(&path, &games).unwrap();
        // Something without a final newline, as another program might leave it.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"[Event \"c\"]\n\n1. c4 *").unwrap();
        drop(f);
        let origin = append_game(&path, &games[0]).unwrap();
        assert_eq!(
            (origin.number, origin.bytes.len()),
            (4, games[0].to_pgn().len())
        );
        let again = parse_all(&fs::read_to_string(&path).unwrap());
        assert_eq!(again.len(), 4);
        assert!(again.iter().all(|g| g.is_ok()));
        assert_eq!(again[1].game, games[1]);
        assert_eq!(again[3].game, games[0]);
        assert_eq!(again[2].game.headers.get("Event"), Some("c"));
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left behind");
        fs::remove_dir_all(&dir).unwrap();
    }
}
