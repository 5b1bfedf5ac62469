//! `kibitzer pgn check`: every game of a file read and checked on all cores. One thread frames
//! games and copies them into batches, workers check the batches, and the messages come out in
//! file order. Memory is bounded by the batches in flight.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use anyhow::{Context, bail};

use kibitzer::game::split::RawGame;
use kibitzer::game::{PgnReader, check_game};

/// Bytes of games handed to a worker at once.
const BATCH_BYTES: usize = 1 << 20;

/// One game's place in its batch and in the file.
struct Span {
    number: u64,
    offset: u64,
    line: u64,
    start: usize,
    end: usize,
    movetext: usize,
    movetext_line: u64,
}

/// Games copied out of the reader's buffer.
#[derive(Default)]
struct Batch {
    index: u64,
    bytes: Vec<u8>,
    games: Vec<Span>,
}

/// What a batch held: counts and the lines to print.
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
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let name = path.display().to_string();
    let (batches, batch_rx) = sync_channel::<Batch>(2 * workers);
    let batch_rx = Arc::new(Mutex::new(batch_rx));
    let (tallies, tally_rx) = channel::<(u64, Tally)>();
    let (scan, (total, printed)) = std::thread::scope(|s| {
        for _ in 0..workers {
            let batch_rx = Arc::clone(&batch_rx);
            let tallies = tallies.clone();
            let name = &name;
            s.spawn(move || {
                loop {
                    // The lock is held only while waiting for the next batch.
                    let next = batch_rx
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .recv();
                    let Ok(batch) = next else { break };
                    if tallies
                        .send((batch.index, check_batch(&batch, name, quiet)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tallies);
        let printer = s.spawn(move || print_in_order(tally_rx));
        let mut batch = Batch::default();
        let scan = reader.for_each_raw(|raw| {
            add_game(&mut batch, raw);
            if batch.bytes.len() >= BATCH_BYTES {
                let index = batch.index + 1;
                let full = std::mem::replace(
                    &mut batch,
                    Batch {
                        index,
                        ..Batch::default()
                    },
                );
                if batches.send(full).is_err() {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        if !batch.games.is_empty() {
            let _ = batches.send(batch);
        }
        drop(batches);
        (scan, printer.join().expect("the printer does not panic"))
    });
    scan.with_context(|| format!("reading {}", path.display()))?;
    printed.context("writing the report")?;
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

fn add_game(batch: &mut Batch, raw: &RawGame<'_>) {
    let start = batch.bytes.len();
    batch.bytes.extend_from_slice(raw.bytes);
    batch.games.push(Span {
        number: raw.number,
        offset: raw.offset,
        line: raw.line,
        start,
        end: batch.bytes.len(),
        movetext: raw.movetext,
        movetext_line: raw.movetext_line,
    });
}

fn check_batch(batch: &Batch, name: &str, quiet: bool) -> Tally {
    let mut tally = Tally::default();
    for span in &batch.games {
        let raw = RawGame {
            number: span.number,
            offset: span.offset,
            line: span.line,
            bytes: &batch.bytes[span.start..span.end],
            movetext: span.movetext,
            movetext_line: span.movetext_line,
        };
        let checked = check_game(&raw);
        tally.games += 1;
        tally.moves += checked.game.tree.move_count() as u64;
        tally.bad += u64::from(!checked.errors.is_empty());
        tally.warnings += checked.warnings.len() as u64;
        if !quiet {
            use std::fmt::Write as _;
            for e in &checked.errors {
                let _ = writeln!(tally.messages, "{name}: {e}");
            }
            for w in &checked.warnings {
                let _ = writeln!(tally.messages, "{name}: warning: {w}");
            }
        }
    }
    tally
}

/// Prints each batch's messages in file order; returns the totals.
fn print_in_order(tallies: Receiver<(u64, Tally)>) -> (Tally, io::Result<()>) {
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut total = Tally::default();
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    let mut result = Ok(());
    for (index, tally) in tallies {
        total.add(&tally);
        waiting.insert(index, tally);
        while let Some(tally) = waiting.remove(&next) {
            if result.is_ok() {
                result = out.write_all(tally.messages.as_bytes());
            }
            next += 1;
        }
    }
    if result.is_ok() {
        result = out.flush();
    }
    (total, result)
}
