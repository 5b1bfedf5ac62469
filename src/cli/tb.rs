//! `kibitzer tb probe`: the tablebase verdict of a position and of each of its moves.

use std::ffi::OsString;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use kibitzer::chess::Position;
use kibitzer::tablebase::{RankedMove, Tablebases, Wdl};

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

/// What a result means for the side that gets it, lichess style.
fn verdict(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win (the fifty-move rule draws it)",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed loss (the fifty-move rule saves it)",
        Wdl::Loss => "loss",
    }
}

fn probe(args: ProbeArgs) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("FEN '{}'", args.fen))?;
    let tables = open_tables(args.path)?;
    if pos.is_checkmate() || pos.is_stalemate() {
        let end = if pos.is_checkmate() {
            "checkmate"
        } else {
            "stalemate"
        };
        println!("{}\n{end}", pos.fen());
        return Ok(());
    }
    let dtz = tables.probe_dtz(&pos)?;
    println!("{}", pos.fen());
    let wdl = Wdl::from_dtz(dtz.plies, pos.halfmoves());
    let rounded = if dtz.rounded { " (rounded)" } else { "" };
    println!("WDL {}  DTZ {}{rounded}", verdict(wdl), dtz.plies);
    if pos.halfmoves() > 0 && wdl != Wdl::Draw {
        println!(
            "fifty-move counter at {}: {} plies left to zero",
            pos.halfmoves(),
            100u32.saturating_sub(pos.halfmoves())
        );
    }
    let root = tables.rank_root(&pos, true)?;
    println!();
    println!("{:<8} {:<6} {:<44} DTZ", "move", "uci", "result");
    for m in &root.moves {
        println!(
            "{:<8} {:<6} {:<44} {}",
            pos.san(m.mv),
            pos.uci(m.mv),
            verdict(m.wdl),
            detail(m)
        );
    }
    Ok(())
}

fn detail(m: &RankedMove) -> String {
    if m.checkmate {
        "checkmate".into()
    } else if m.stalemate {
        "stalemate".into()
    } else if m.zeroing {
        "zeroing".into()
    } else if m.dtz == 0 {
        String::new()
    } else {
        m.dtz.to_string()
    }
}
