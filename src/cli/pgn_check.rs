//! `kibitzer pgn check`: every game of a file read and checked on all cores
//! ([`read_in_batches`]), the messages in file order.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};

use kibitzer::game::batches::{BatchError, read_in_batches};
use kibitzer::game::split::RawGame;
use kibitzer::game::{PgnReader, check_game};

/// What a game or a file held: counts and the lines to print.
#[derive(Default)]
struct Tally {
    games: u64,
    moves: u64,
    bad: u64,
    warnings: u64,
    messages: String,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.moves += other.moves;
        self.bad += other.bad;
        self.warnings += other.warnings;
    }
}

pub fn check(path: &Path, quiet: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut reader =
        PgnReader::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let name = path.display().to_string();
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut total = Tally::default();
    let read = read_in_batches(
        &mut reader,
        |raw| check_one(raw, &name, quiet),
        &mut |_, tallies| {
            for tally in tallies {
                total.add(&tally);
                out.write_all(tally.messages.as_bytes())?;
            }
            Ok::<(), io::Error>(())
        },
    );
    match read {
        Ok(()) => out.flush().context("writing the report")?,
        Err(BatchError::Read(e)) => {
            return Err(e).with_context(|| format!("reading {}", path.display()));
        }
        Err(BatchError::Consume(e)) => return Err(e).context("writing the report"),
    }
    let secs = start.elapsed().as_secs_f64();
    let Tally {
        games,
        moves,
        bad,
        warnings,
        ..
    } = total;
    println!(
        "{name}: {games} games, {moves} moves, {bad} with errors, {warnings} warnings ({secs:.2} s)"
    );
    if bad > 0 {
        bail!("{bad} of {games} games have errors");
    }
    Ok(())
}

fn check_one(raw: &RawGame<'_>, name: &str, quiet: bool) -> Tally {
    let checked = check_game(raw);
    let mut tally = Tally {
        games: 1,
        moves: checked.game.tree.move_count() as u64,
        bad: u64::from(!checked.errors.is_empty()),
        warnings: checked.warnings.len() as u64,
        messages: String::new(),
    };
    if !quiet {
        use std::fmt::Write as _;
        for e in &checked.errors {
            let _ = writeln!(tally.messages, "{name}: {e}");
        }
        for w in &checked.warnings {
            let _ = writeln!(tally.messages, "{name}: warning: {w}");
        }
    }
    tally
}
