//! Training data files in either format: compact games (`KBGAMES1`, what `datagen` writes) or
//! the older 32-byte position records. Readers take both; appending keeps a file's format.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use kibitzer::engine::nnue::data::{RECORD_LEN, TrainingRecord, read_records};
use kibitzer::engine::nnue::games::{GameError, GameReader, GameRecord, MAGIC};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Games,
    Records,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Games => "games",
            Format::Records => "32-byte records",
        }
    }
}

/// The format of a file, by its first bytes: the games header, or a first 32 bytes that read as
/// a training record (an empty file holds no records). Anything else is an error naming the
/// file, so that no reader or appender takes another kind of file (a PGN, say) for data.
pub fn detect(path: &Path) -> anyhow::Result<Format> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut head = Vec::with_capacity(RECORD_LEN);
    file.take(RECORD_LEN as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("reading {}", path.display()))?;
    if head.starts_with(MAGIC) {
        Ok(Format::Games)
    } else if head.is_empty()
        || <&[u8; RECORD_LEN]>::try_from(head.as_slice())
            .is_ok_and(|first| TrainingRecord::from_bytes(first, 0).is_ok())
    {
        Ok(Format::Records)
    } else {
        bail!(
            "{} is neither a games file nor 32-byte training records",
            path.display()
        )
    }
}

/// Calls `each` with every game of a games file, in order.
pub fn for_each_game(
    path: &Path,
    mut each: impl FnMut(GameRecord) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut reader =
        GameReader::new(BufReader::new(file)).with_context(|| path.display().to_string())?;
    while let Some(game) = reader
        .next_game()
        .with_context(|| path.display().to_string())?
    {
        each(game)?;
    }
    Ok(())
}

/// Every training position of `path`: its records, or the quiet plies of its games.
pub fn read_positions(path: &Path) -> anyhow::Result<Vec<TrainingRecord>> {
    match detect(path)? {
        Format::Games => {
            let mut records = Vec::new();
            for_each_game(path, |game| {
                records.extend(game.positions());
                Ok(())
            })?;
            Ok(records)
        }
        Format::Records => {
            let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
            let len = file.metadata()?.len();
            read_records(BufReader::new(file), len).with_context(|| path.display().to_string())
        }
    }
}

/// Every position of several files, in order, each file's count reported.
pub fn read_training_data(paths: &[PathBuf]) -> anyhow::Result<Vec<TrainingRecord>> {
    let mut records = Vec::new();
    for path in paths {
        let part = read_positions(path)?;
        eprintln!("{}: {} positions", path.display(), part.len());
        records.extend(part);
    }
    Ok(records)
}

/// A file opened for appending self-play output.
pub struct Appending {
    pub file: File,
    pub format: Format,
    /// Training positions already in it.
    pub positions: u64,
}

/// Opens `path` to append to: a new or empty file becomes a games file, an existing one keeps
/// its format. A run killed mid-write leaves a torn game or record at the end: it is cut off.
pub fn open_for_append(path: &Path) -> anyhow::Result<Appending> {
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let len = file.metadata()?.len();
    if len == 0 {
        std::io::Write::write_all(&mut file, MAGIC)?;
        return Ok(Appending {
            file,
            format: Format::Games,
            positions: 0,
        });
    }
    let (format, whole, positions) = match detect(path)? {
        Format::Records => {
            let whole = len - len % RECORD_LEN as u64;
            (Format::Records, whole, whole / RECORD_LEN as u64)
        }
        Format::Games => {
            file.seek(SeekFrom::Start(0))?;
            let mut reader = GameReader::new(BufReader::new(&file))?;
            let mut positions = 0u64;
            loop {
                match reader.next_game() {
                    Ok(Some(game)) => positions += game.positions().len() as u64,
                    Ok(None) | Err(GameError::Truncated { .. }) => break,
                    Err(e) => bail!("{}: {e}", path.display()),
                }
            }
            (Format::Games, reader.offset(), positions)
        }
    };
    if whole != len {
        eprintln!(
            "warning: {}: dropping a torn {} at the end ({} bytes)",
            path.display(),
            if format == Format::Games {
                "game"
            } else {
                "record"
            },
            len - whole
        );
        file.set_len(whole)?;
    }
    Ok(Appending {
        file,
        format,
        positions,
    })
}
