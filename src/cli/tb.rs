//! `kibitzer tb probe`: the tablebase verdict of a position and of each of its moves.

use std::ffi::OsString;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use kibitzer::chess::Position;
use kibitzer::tablebase::{Tablebases, TbState};

#[derive(Args)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand)]
enum TbCommand {
    /// WDL and DTZ of a position and of every legal move.
    Probe(ProbeArgs),
}

#[derive(Args)]
struct ProbeArgs {
    /// Position (FEN) with at most as many pieces as the largest table.
    fen: String,
    /// Table directories, ':'-separated (default: $KIBITZER_SYZYGY, else ./tablebases).
    #[arg(long)]
    path: Option<OsString>,
}

pub fn run(args: TbArgs) -> anyhow::Result<()> {
    match args.command {
        TbCommand::Probe(a) => probe(a),
    }
}

fn open_tables(path: Option<OsString>) -> anyhow::Result<Tablebases> {
    let path = path
        .or_else(|| std::env::var_os("KIBITZER_SYZYGY"))
        .unwrap_or_else(|| OsString::from("tablebases"));
    let (tables, warnings) = Tablebases::open(&path)?;
    for w in warnings {
        eprintln!("warning: {w}; skipped");
    }
    if tables.files() == 0 {
        bail!(
            "no Syzygy table files in {} (see tablebases/README)",
            path.to_string_lossy()
        );
    }
    Ok(tables)
}

fn probe(args: ProbeArgs) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("FEN '{}'", args.fen))?;
    let tables = open_tables(args.path)?;
    let view = tables.view(&pos)?;
    println!("{}", pos.fen());
    let (wdl, dtz) = match view.state {
        TbState::Checkmate | TbState::Stalemate => {
            let end = if view.state == TbState::Checkmate {
                "checkmate"
            } else {
                "stalemate"
            };
            println!("{end}");
            return Ok(());
        }
        TbState::Probed { wdl, dtz } => (wdl, dtz),
    };
    let rounded = if dtz.rounded { " (rounded)" } else { "" };
    println!("WDL {}  DTZ {}{rounded}", wdl.verdict(), dtz.plies);
    if pos.halfmoves() > 0 && wdl.value() != 0 {
        println!(
            "fifty-move counter at {}: {} plies left to zero",
            pos.halfmoves(),
            100u32.saturating_sub(pos.halfmoves())
        );
    }
    println!();
    println!("{:<8} {:<6} {:<44} DTZ after", "move", "uci", "result");
    for m in &view.ranking.moves {
        println!(
            "{:<8} {:<6} {:<44} {}",
            pos.san(m.mv),
            pos.uci(m.mv),
            m.wdl.verdict(),
            m.detail()
        );
    }
    Ok(())
}
