use clap::Args;

use kibitzer::engine::EngineOptions;
use kibitzer::engine::bench::{self, DEFAULT_DEPTH};

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Search threads (the node count is deterministic only with one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mb)]
    hash: usize,
    #[command(flatten)]
    eval: super::EvalArgs,
    /// Print each position's node count.
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    anyhow::ensure!((1..=64).contains(&args.depth), "depth must be 1 to 64");
    let options = EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
        evaluation: args.eval.evaluation()?,
        ..EngineOptions::default()
    };
    let result = bench::run(args.depth, options, |i, fen, nodes| {
        if args.verbose {
            eprintln!("{:>2} {nodes:>10} {fen}", i + 1);
        }
    });
    println!(
        "{} positions, depth {}: {} nodes, {} ms, {} nps",
        result.positions,
        args.depth,
        result.nodes,
        result.elapsed.as_millis(),
        result.nps()
    );
    Ok(())
}
