//! Saving PGN without ever leaving a half-written file: a whole-file save goes to a temporary
//! file in the same directory, is synced, then renamed over the target; an append either lands
//! completely or the file is cut back to its old length.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

impl AtomicFile {
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
        // Unique per write, so saves running at once never share (and steal) a temporary file.
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let tmp = target.with_file_name(format!(
            ".{}.tmp-{}-{}",
            name.to_string_lossy(),
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        Ok(AtomicFile {
            target: target.to_owned(),
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
                return Err(e.into_error());
            }
        };
        if let Err(e) = file
            .sync_all()
            .and_then(|()| fs::rename(&self.tmp, &self.target))
        {
            let _ = fs::remove_file(&self.tmp);
            return Err(e);
        }
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
        }
    }
}

/// Appends one game to `path` (created if missing), separated from what is there by a blank
/// line. On failure the file is truncated back to its previous length.
pub fn append_game(path: &Path, game: &Game) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
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
    write_game(game, &mut text);
    let result = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_data());
    if let Err(e) = result {
        let _ = file.set_len(old_len);
        let _ = file.sync_data();
        return Err(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::read::parse_all;

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
        append_game(&path, &games[0]).unwrap();
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
