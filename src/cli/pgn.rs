//! `kibitzer pgn`: check, convert, index and show PGN files.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use kibitzer::game::index::{self, IndexEntry};
use kibitzer::game::{AtomicFile, NodeId, PgnReader, parse_game, write_game};

#[derive(Args)]
pub struct PgnArgs {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Validate every game: each error with its game number and line, then a count. Exits
    /// non-zero if any game has an error.
    Check {
        file: PathBuf,
        /// Print only the summary line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Read every game and write it back in PGN export format (atomically).
    Convert {
        input: PathBuf,
        #[arg(long, short)]
        output: PathBuf,
        /// Fill in missing ECO and Opening tags from the opening names.
        #[arg(long)]
        eco: bool,
        /// Allow the output to be the input file (games with errors keep only their moves
        /// before the error, so the rest of such a game is lost).
        #[arg(long)]
        overwrite: bool,
    },
    /// List games fast, one per line, tab-separated: number, byte offset, line, then Event,
    /// Site, Date, Round, White, Black, Result.
    Index {
        file: PathBuf,
        /// Print only the number of games.
        #[arg(long)]
        count: bool,
    },
    /// Print one game in export format, with its errors and how it ended.
    Show {
        file: PathBuf,
        /// Game number, from 1.
        #[arg(long, short)]
        game: u64,
    },
}

pub fn run(args: PgnArgs) -> anyhow::Result<()> {
    match args.command {
        PgnCommand::Check { file, quiet } => super::pgn_check::check(&file, quiet),
        PgnCommand::Convert {
            input,
            output,
            eco,
            overwrite,
        } => {
            if !overwrite && kibitzer::game::same_file(&input, &output) {
                bail!(
                    "--output {} is the input file; add --overwrite to replace it",
                    output.display()
                );
            }
            convert(&input, &output, eco)
        }
        PgnCommand::Index { file, count } => index_file(&file, count),
        PgnCommand::Show { file, game } => show(&file, game),
    }
}

fn open(path: &Path) -> anyhow::Result<PgnReader<File>> {
    PgnReader::open(path).with_context(|| format!("cannot open {}", path.display()))
}

fn convert(input: &Path, output: &Path, eco: bool) -> anyhow::Result<()> {
    let mut out = AtomicFile::create(output)
        .with_context(|| format!("cannot create {}", output.display()))?;
    let (mut games, mut bad) = (0u64, 0u64);
    let mut text = String::new();
    let mut write_result = Ok(());
    open(input)?
        .for_each_raw(|raw| {
            let mut parsed = parse_game(raw);
            if eco {
                kibitzer::game::openings::fill_tags(&mut parsed.game);
            }
            for e in &parsed.errors {
                eprintln!("{}: {e}", input.display());
            }
            for w in &parsed.warnings {
                eprintln!("{}: warning: {w}", input.display());
            }
            bad += u64::from(!parsed.errors.is_empty());
            text.clear();
            if games > 0 {
                text.push('\n');
            }
            games += 1;
            write_game(&parsed.game, &mut text);
            match out.write_all(text.as_bytes()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    write_result = Err(e);
                    ControlFlow::Break(())
                }
            }
        })
        .with_context(|| format!("reading {}", input.display()))?;
    write_result.with_context(|| format!("writing {}", output.display()))?;
    out.commit()
        .with_context(|| format!("saving {}", output.display()))?;
    eprintln!("{games} games written to {}", output.display());
    if bad > 0 {
        bail!("{bad} of {games} games had errors; they were written up to the error");
    }
    Ok(())
}

fn index_file(path: &Path, count_only: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let bytes = file.metadata()?.len();
    let out = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, out.lock());
    let mut games = 0u64;
    let mut write_result = Ok(());
    index::scan(file, |entry: IndexEntry| {
        games += 1;
        if !count_only && write_result.is_ok() {
            write_result = write_entry(&mut out, &entry);
        }
    })
    .with_context(|| format!("reading {}", path.display()))?;
    write_result?;
    if count_only {
        writeln!(out, "{games}")?;
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{games} games, {:.1} MB in {secs:.3} s ({:.0} MB/s)",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    Ok(())
}

fn write_entry(out: &mut impl Write, e: &IndexEntry) -> io::Result<()> {
    write!(out, "{}\t{}\t{}", e.number, e.offset, e.line)?;
    for value in e.roster() {
        write!(out, "\t{value}")?;
    }
    writeln!(out)
}

fn show(path: &Path, number: u64) -> anyhow::Result<()> {
    if number == 0 {
        bail!("--game counts from 1");
    }
    let mut found = None;
    open(path)?
        .for_each_raw(|raw| {
            if raw.number == number {
                found = Some(parse_game(raw));
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .with_context(|| format!("reading {}", path.display()))?;
    let Some(parsed) = found else {
        bail!("{} has fewer than {number} games", path.display());
    };
    print!("{}", parsed.game.to_pgn());
    println!();
    let last = parsed.game.tree.end(NodeId::ROOT);
    println!("; line {}, byte offset {}", parsed.line, parsed.offset);
    println!("; final position {}", parsed.game.tree.position(last).fen());
    if let Some(ending) = parsed.game.ending() {
        println!("; {ending}");
    }
    for e in &parsed.errors {
        println!("; error: {e}");
    }
    for w in &parsed.warnings {
        println!("; warning: {w}");
    }
    if !parsed.errors.is_empty() {
        bail!("game {number} has errors");
    }
    Ok(())
}
