//! Reading a PGN file on every core: one thread frames games and copies them into batches of
//! about a megabyte, workers turn each game of a batch into a value, and the caller gets each
//! batch's values in file order. Memory is bounded by the batches in flight.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

use super::read::PgnReader;
use super::split::RawGame;

/// Bytes of games handed to a worker at once.
const BATCH_BYTES: usize = 1 << 20;

/// Why [`read_in_batches`] stopped early.
#[derive(Debug)]
pub enum BatchError<E> {
    Read(io::Error),
    /// What the caller's `consume` returned.
    Consume(E),
}

/// Games copied out of the reader's buffer.
#[derive(Default)]
struct Batch {
    index: u64,
    bytes: Vec<u8>,
    games: Vec<Span>,
    /// The file offset just past the batch's last game.
    end: u64,
}

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

/// Reads every game of `reader`: `convert` runs on worker threads, `consume` on this one with
/// each batch's values in file order and how far into the file the batch ends. After an error
/// from `consume` the rest is read no further.
pub fn read_in_batches<R: Read + Send, T: Send, E>(
    reader: &mut PgnReader<R>,
    convert: impl Fn(&RawGame<'_>) -> T + Sync,
    consume: &mut dyn FnMut(u64, Vec<T>) -> Result<(), E>,
) -> Result<(), BatchError<E>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (batches, batch_rx) = sync_channel::<Batch>(2 * workers);
    let batch_rx = Arc::new(Mutex::new(batch_rx));
    let (values, values_rx) = channel::<(u64, u64, Vec<T>)>();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let batch_rx = Arc::clone(&batch_rx);
            let values = values.clone();
            let convert = &convert;
            s.spawn(move || {
                loop {
                    // The lock is held only while waiting for the next batch.
                    let next = batch_rx
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .recv();
                    let Ok(batch) = next else { break };
                    let out = batch
                        .games
                        .iter()
                        .map(|span| convert(&span.raw(&batch)))
                        .collect();
                    if values.send((batch.index, batch.end, out)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(values);
        let framer = s.spawn(move || frame(reader, batches));
        let consumed = in_order(values_rx, consume);
        let framed = framer
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        consumed.map_err(BatchError::Consume)?;
        framed.map_err(BatchError::Read)
    })
}

impl Span {
    fn raw<'a>(&self, batch: &'a Batch) -> RawGame<'a> {
        RawGame {
            number: self.number,
            offset: self.offset,
            line: self.line,
            bytes: &batch.bytes[self.start..self.end],
            movetext: self.movetext,
            movetext_line: self.movetext_line,
        }
    }
}

fn frame<R: Read>(reader: &mut PgnReader<R>, batches: SyncSender<Batch>) -> io::Result<()> {
    let mut batch = Batch::default();
    let scan = reader.for_each_raw(|raw| {
        let start = batch.bytes.len();
        batch.bytes.extend_from_slice(raw.bytes);
        batch.end = raw.offset + raw.bytes.len() as u64;
        batch.games.push(Span {
            number: raw.number,
            offset: raw.offset,
            line: raw.line,
            start,
            end: batch.bytes.len(),
            movetext: raw.movetext,
            movetext_line: raw.movetext_line,
        });
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
    scan
}

/// Hands batches to `consume` in file order. After an error the rest is drained unread, so
/// that the workers and the framer finish.
fn in_order<T, E>(
    values: Receiver<(u64, u64, Vec<T>)>,
    consume: &mut dyn FnMut(u64, Vec<T>) -> Result<(), E>,
) -> Result<(), E> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    let mut result = Ok(());
    for (index, end, batch) in values {
        if result.is_err() {
            continue;
        }
        waiting.insert(index, (end, batch));
        while let Some((end, batch)) = waiting.remove(&next) {
            next += 1;
            if let Err(e) = consume(end, batch) {
                result = Err(e);
                break;
            }
        }
    }
    result
}
