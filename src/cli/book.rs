//! `kibitzer book probe|build`: look a position up in a Polyglot book, or build one from PGN.

use std::fs::File;
use std::io::BufReader;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use kibitzer::book::{Book, BuildOptions, Builder, ColorFilter, WeightScheme, read_mainlines};
use kibitzer::chess::Position;

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Show the book moves of a position with their weights.
    Probe(ProbeArgs),
    /// Build a Polyglot book from PGN games.
    Build(BuildArgs),
}

#[derive(Args)]
struct ProbeArgs {
    /// Position to look up (FEN); or use --pgn and --ply.
    #[arg(required_unless_present = "pgn", conflicts_with = "pgn")]
    fen: Option<String>,
    /// Take the position from the first game of this PGN file.
    #[arg(long, requires = "ply")]
    pgn: Option<PathBuf>,
    /// With --pgn: the position after this many plies of the mainline.
    #[arg(long)]
    ply: Option<usize>,
    /// Polyglot book (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    White,
    Black,
    Both,
}

#[derive(Clone, Copy, ValueEnum)]
enum WeightsArg {
    /// 2 per win, 1 per draw for the side that moved.
    Results,
    /// 1 per game.
    Count,
}

#[derive(Args)]
struct BuildArgs {
    /// PGN files to read.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Book to write (replaced atomically).
    #[arg(short, long)]
    output: PathBuf,
    /// Plies of each game that go into the book.
    #[arg(long, default_value_t = 20)]
    max_ply: usize,
    /// Keep only moves played in at least this many games.
    #[arg(long, default_value_t = 1)]
    min_games: u32,
    /// Whose moves to store.
    #[arg(long, value_enum, default_value_t = ColorArg::Both)]
    color: ColorArg,
    /// How weights are computed.
    #[arg(long, value_enum, default_value_t = WeightsArg::Results)]
    weights: WeightsArg,
}

pub fn run(args: BookArgs) -> anyhow::Result<()> {
    match args.command {
        BookCommand::Probe(a) => probe(a),
        BookCommand::Build(a) => build(a),
    }
}

fn probe(args: ProbeArgs) -> anyhow::Result<()> {
    let (book, name) = match &args.book {
        Some(path) => (Book::open(path)?, path.display().to_string()),
        None => (Book::embedded(), "built-in book".to_string()),
    };
    let pos = match (&args.fen, &args.pgn, args.ply) {
        (Some(fen), _, _) => Position::from_fen(fen).with_context(|| format!("FEN '{fen}'"))?,
        (None, Some(pgn), Some(ply)) => position_in_pgn(pgn, ply)?,
        _ => bail!("give a FEN, or --pgn FILE --ply N"),
    };
    let probe = book.probe_report(&pos);
    for entry in &probe.illegal {
        eprintln!(
            "warning: {name}: entry with move bits {:#06x} is not a legal move here; skipped",
            entry.raw_move
        );
    }
    println!("{}", pos.fen());
    println!("{name}: {} entries", book.len());
    if probe.moves.is_empty() {
        println!("no book moves");
        return Ok(());
    }
    let total: u64 = probe.moves.iter().map(|m| u64::from(m.weight)).sum();
    println!(
        "{:<8} {:<6} {:>7} {:>7} {:>10}",
        "move", "uci", "weight", "share", "learn"
    );
    for m in &probe.moves {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * f64::from(m.weight) / total as f64
        };
        println!(
            "{:<8} {:<6} {:>7} {:>6.1}% {:>10}",
            pos.san(m.mv),
            pos.uci(m.mv),
            m.weight,
            share,
            m.learn
        );
    }
    Ok(())
}

/// The position after `ply` plies of the first game in `path`.
fn position_in_pgn(path: &Path, ply: usize) -> anyhow::Result<Position> {
    let file = File::open(path).with_context(|| path.display().to_string())?;
    let mut found = None;
    read_mainlines(BufReader::new(file), ply, |_, game| {
        found = Some(game);
        ControlFlow::Break(())
    })
    .with_context(|| path.display().to_string())?;
    let game = match found {
        None => bail!("{}: no game found", path.display()),
        Some(Err(reason)) => bail!("{}, game 1: {reason}", path.display()),
        Some(Ok(game)) => game,
    };
    if game.moves.len() < ply {
        bail!(
            "{}, game 1: the mainline has only {} plies, not {ply}",
            path.display(),
            game.moves.len()
        );
    }
    let mut pos = game.start;
    for m in game.moves {
        pos.play_unchecked(m);
    }
    Ok(pos)
}

fn build(args: BuildArgs) -> anyhow::Result<()> {
    let options = BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
        color: match args.color {
            ColorArg::White => ColorFilter::White,
            ColorArg::Black => ColorFilter::Black,
            ColorArg::Both => ColorFilter::Both,
        },
        weights: match args.weights {
            WeightsArg::Results => WeightScheme::Results,
            WeightsArg::Count => WeightScheme::Count,
        },
    };
    let mut total_bytes = 0;
    for path in &args.games {
        total_bytes += std::fs::metadata(path)
            .with_context(|| path.display().to_string())?
            .len();
    }
    let bar = ProgressBar::new(total_bytes).with_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
            .expect("valid progress template"),
    );
    let mut builder = Builder::new(options);
    const MAX_WARNINGS: usize = 20;
    let mut warnings = 0;
    for path in &args.games {
        let file = File::open(path).with_context(|| path.display().to_string())?;
        builder
            .add_pgn(BufReader::new(bar.wrap_read(file)), |game, reason| {
                warnings += 1;
                if warnings <= MAX_WARNINGS {
                    bar.suspend(|| {
                        eprintln!(
                            "warning: {}, game {game}: {reason}; game skipped",
                            path.display()
                        )
                    });
                }
            })
            .with_context(|| path.display().to_string())?;
        bar.set_message(format!("{} games", builder.stats().games));
    }
    bar.finish_and_clear();
    if warnings > MAX_WARNINGS {
        eprintln!("warning: {} more games skipped", warnings - MAX_WARNINGS);
    }
    let stats = builder.stats();
    let written = builder.write(&args.output)?;
    println!(
        "{}: {written} entries from {} games ({} skipped)",
        args.output.display(),
        stats.games,
        stats.skipped
    );
    Ok(())
}
