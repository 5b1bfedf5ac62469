use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use kibitzer::chess::Position;
use kibitzer::engine::datagen::{self, DatagenConfig};
use kibitzer::engine::nnue::data::write_records;

use super::datafile::{Appending, Format, open_for_append};

#[derive(Args)]
pub struct DatagenArgs {
    /// Output file: games are appended, so a run can be resumed (an older file of 32-byte
    /// records gets records).
    #[arg(long, short)]
    out: PathBuf,
    /// Stop once the file holds this many positions.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    #[command(flatten)]
    eval: super::EvalArgs,
    /// Search budget per move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Random plies before self-play starts, as MIN-MAX.
    #[arg(long, default_value = "8-10")]
    random_plies: String,
    /// EPD file of start positions (e.g. ../shared/openings/openings.epd); default: the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed (default: from the clock, so resumed runs play new games).
    #[arg(long)]
    seed: Option<u64>,
}

fn parse_range(text: &str) -> anyhow::Result<(u32, u32)> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u32 = lo
        .trim()
        .parse()
        .with_context(|| format!("--random-plies '{text}'"))?;
    let hi: u32 = hi
        .trim()
        .parse()
        .with_context(|| format!("--random-plies '{text}'"))?;
    if lo > hi || hi > 40 {
        bail!("--random-plies '{text}': expected MIN-MAX with MIN <= MAX <= 40");
    }
    Ok((lo, hi))
}

fn read_openings(path: &PathBuf) -> anyhow::Result<Vec<Position>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("{}:{}", path.display(), n + 1))?;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match kibitzer::chess::epd::parse(&line) {
            Ok(epd) => openings.push(epd.position),
            Err(e) => eprintln!("warning: {}:{}: {e}; line skipped", path.display(), n + 1),
        }
    }
    if openings.is_empty() {
        bail!("{}: no usable positions", path.display());
    }
    Ok(openings)
}

pub fn run(args: DatagenArgs) -> anyhow::Result<()> {
    let config = DatagenConfig {
        nodes: args.nodes.max(1),
        random_plies: parse_range(&args.random_plies)?,
        openings: match &args.openings {
            Some(path) => read_openings(path)?,
            None => Vec::new(),
        },
        evaluation: args.eval.evaluation()?,
        ..DatagenConfig::default()
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });

    let Appending {
        file,
        format,
        positions: existing,
    } = open_for_append(&args.out)?;
    if existing >= args.positions {
        eprintln!("{} already holds {existing} positions", args.out.display());
        return Ok(());
    }
    eprintln!(
        "self-play at {} nodes/move on {threads} threads, {existing} positions already in {} ({})",
        config.nodes,
        args.out.display(),
        format.name()
    );

    // A signal ends the run after the games in flight are written: a half-written game would
    // leave a file that no reader takes.
    super::interrupt::finish_work_on_signal();
    let writer = Mutex::new(BufWriter::new(file));
    let count = AtomicU64::new(existing);
    let bar = ProgressBar::new(args.positions).with_style(
        ProgressStyle::with_template("{pos}/{len} positions [{bar:40}] {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_position(existing);
    let write_error = Mutex::new(None);
    let stop = AtomicBool::new(false);
    datagen::run(&config, threads, seed, &stop, &|game| {
        let records = game.positions();
        let mut out = writer.lock().unwrap_or_else(|e| e.into_inner());
        let written = match format {
            Format::Games => game.write_to(&mut *out),
            Format::Records => write_records(&mut *out, &records),
        };
        if let Err(e) = written.and_then(|()| out.flush()) {
            write_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
            return false;
        }
        let total = count.fetch_add(records.len() as u64, Ordering::Relaxed) + records.len() as u64;
        bar.set_position(total);
        total < args.positions && !super::interrupt::interrupted()
    });
    bar.finish();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e).with_context(|| format!("writing {}", args.out.display()));
    }
    eprintln!(
        "{} positions in {}{}",
        count.load(Ordering::Relaxed),
        args.out.display(),
        if super::interrupt::interrupted() {
            " (stopped by a signal after the games in flight)"
        } else {
            ""
        }
    );
    Ok(())
}
