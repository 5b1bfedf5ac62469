//! An index of a PGN file: each game's offset, length, first line and Seven Tag Roster, built
//! in one pass without parsing moves, so that any game can be opened with a seek.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::headers::SEVEN_TAG_ROSTER;
use super::read::{ParsedGame, parse_game};
use super::split::{RawGame, Splitter};
use super::tags::{Encoding, scan_wanted_tags};

/// Separates the roster values inside an entry (a control character no tag value contains
/// after decoding a sane file; one that does is cut there).
const SEP: char = '\u{1f}';

/// Where one game lies in the file, with its roster tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// 1-based game number.
    pub number: u64,
    pub offset: u64,
    pub len: u64,
    pub line: u64,
    /// The seven roster values then the ECO code, `SEP`-separated (one allocation per game).
    roster: Box<str>,
}

impl IndexEntry {
    fn from_raw(raw: &RawGame<'_>) -> IndexEntry {
        let section = raw.tag_section();
        let encoding = Encoding::detect(section);
        let mut values: [Option<String>; 8] = Default::default();
        let roster_index = |name: &[u8]| {
            SEVEN_TAG_ROSTER
                .iter()
                .position(|(k, _)| k.as_bytes() == name)
                .or((name == b"ECO").then_some(7))
        };
        scan_wanted_tags(
            section,
            |name| roster_index(name).is_some(),
            |name, value| {
                if let Some(i) = roster_index(name)
                    && values[i].is_none()
                {
                    let cut = memchr::memchr(SEP as u8, &value).unwrap_or(value.len());
                    values[i] = Some(encoding.decode(&value[..cut]).into_owned());
                }
            },
        );
        let mut roster = String::new();
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                roster.push(SEP);
            }
            let placeholder = SEVEN_TAG_ROSTER.get(i).map_or("", |t| t.1);
            roster.push_str(value.as_deref().unwrap_or(placeholder));
        }
        IndexEntry {
            number: raw.number,
            offset: raw.offset,
            len: raw.bytes.len() as u64,
            line: raw.line,
            roster: roster.into_boxed_str(),
        }
    }

    /// A roster tag's value (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        let i = SEVEN_TAG_ROSTER.iter().position(|(k, _)| *k == name)?;
        self.roster.split(SEP).nth(i)
    }

    /// The roster values in order.
    pub fn roster(&self) -> impl Iterator<Item = &str> {
        self.roster.split(SEP).take(SEVEN_TAG_ROSTER.len())
    }

    /// The `ECO` tag (opening code), if the game has one.
    pub fn eco(&self) -> Option<&str> {
        self.roster.split(SEP).nth(7).filter(|e| !e.is_empty())
    }
}

/// All games of one file.
#[derive(Clone, Debug)]
pub struct GameIndex {
    path: PathBuf,
    entries: Vec<IndexEntry>,
}

impl GameIndex {
    /// Indexes a file.
    pub fn build(path: &Path) -> io::Result<GameIndex> {
        let mut entries = Vec::new();
        scan(File::open(path)?, |e| entries.push(e))?;
        Ok(GameIndex {
            path: path.to_owned(),
            entries,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[IndexEntry] {
        &self.entries
    }

    /// The entry of game `number` (1-based).
    pub fn get(&self, number: u64) -> Option<&IndexEntry> {
        self.entries
            .get(usize::try_from(number.checked_sub(1)?).ok()?)
    }

    /// The index after game `number`'s bytes were replaced by `bytes` in the file: its entry
    /// is read from them, and the games after it move by the difference.
    pub fn with_game_replaced(&self, number: u64, bytes: &[u8]) -> Option<GameIndex> {
        let i = usize::try_from(number.checked_sub(1)?).ok()?;
        let old = self.entries.get(i)?;
        let mut splitter = Splitter::resume_at(bytes, old.offset, old.line, number);
        let entry = IndexEntry::from_raw(&splitter.next_game().ok()??);
        let shift = bytes.len() as i64 - old.len as i64;
        // A game's bytes run to the first line of the next one.
        let old_lines = self
            .entries
            .get(i + 1)
            .map_or(0, |next| next.line - old.line) as i64;
        let line_shift = memchr::memchr_iter(b'\n', bytes).count() as i64 - old_lines;
        let mut entries = self.entries.clone();
        entries[i] = entry;
        for e in &mut entries[i + 1..] {
            e.offset = e.offset.checked_add_signed(shift)?;
            e.line = e.line.checked_add_signed(line_shift)?;
        }
        Some(GameIndex {
            path: self.path.clone(),
            entries,
        })
    }

    /// Reads and parses game `number` alone.
    pub fn load(&self, number: u64) -> io::Result<ParsedGame> {
        let entry = self.get(number).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no game {number}: the file has {}", self.entries.len()),
            )
        })?;
        load_entry(&self.path, entry)
    }
}

/// Reads one game at an entry's offset.
pub fn load_entry(path: &Path, entry: &IndexEntry) -> io::Result<ParsedGame> {
    load_entry_with_bytes(path, entry).map(|(game, _)| game)
}

/// Reads one game at an entry's offset, with the bytes it was read from (to replace it in its
/// file later, checking that they are still there).
pub fn load_entry_with_bytes(path: &Path, entry: &IndexEntry) -> io::Result<(ParsedGame, Vec<u8>)> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(entry.offset))?;
    let mut bytes = Vec::with_capacity(entry.len as usize);
    file.take(entry.len).read_to_end(&mut bytes)?;
    let mut splitter = Splitter::resume_at(&bytes[..], entry.offset, entry.line, entry.number);
    let parsed = match splitter.next_game()? {
        Some(raw) => parse_game(&raw),
        None => {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file changed since it was indexed",
            ));
        }
    };
    Ok((parsed, bytes))
}

/// Streams index entries in file order; memory stays bounded by the largest game.
pub fn scan(reader: impl Read, mut f: impl FnMut(IndexEntry)) -> io::Result<()> {
    let mut splitter = Splitter::new(reader);
    while let Some(raw) = splitter.next_game()? {
        f(IndexEntry::from_raw(&raw));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_any_game_by_number() {
        let dir = std::env::temp_dir().join(format!("kibitzer-index-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let mut text = String::from("\u{feff}");
        for i in 1..=30 {
            text.push_str(&format!(
                "[Event \"e{i}\"]\r\n[ECO \"C{i:02}\"]\r\n[White \"W\u{e9}{i}\"]\r\n\r\n1. e4 {{c}} e5 2. Nf3 *\r\n\r\n"
            ));
        }
        std::fs::write(&path, &text).unwrap();
        let index = GameIndex::build(&path).unwrap();
        assert_eq!(index.len(), 30);
        let e = index.get(17).unwrap();
        assert_eq!(e.tag("White"), Some("Wé17"));
        assert_eq!(e.tag("Black"), Some("?"));
        assert_eq!(e.line, 1 + 16 * 6);
        assert_eq!(e.eco(), Some("C17"));
        assert_eq!(e.roster().count(), 7);
        let game = index.load(17).unwrap();
        assert!(game.is_ok());
        assert_eq!(game.number, 17);
        assert_eq!(game.game.headers.get("Event"), Some("e17"));
        assert_eq!(game.game.tree.mainline().count(), 3);
        assert!(index.load(31).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
