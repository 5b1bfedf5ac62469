use std::time::Instant;

use anyhow::Context;
use clap::Args;

use kibitzer::chess::perft::{divide, perft};
use kibitzer::chess::{Position, STARTPOS};

#[derive(Args)]
pub struct PerftArgs {
    /// Position to count from (FEN, X-FEN or Shredder-FEN).
    #[arg(long, default_value = STARTPOS)]
    fen: String,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Play every leaf move instead of counting the last ply's moves.
    #[arg(long)]
    no_bulk: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("--fen '{}'", args.fen))?;
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth, bulk) {
            println!("{}: {n}", pos.uci(m));
            total += n;
        }
        println!();
        total
    } else {
        perft(&pos, args.depth, bulk)
    };
    let elapsed = start.elapsed();
    println!("Nodes: {nodes}");
    println!(
        "Time: {} ms, {:.1} Mnodes/s",
        elapsed.as_millis(),
        nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}
