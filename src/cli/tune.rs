use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use kibitzer::chess::Rng;
use kibitzer::engine::eval::terms::Term;
use kibitzer::engine::eval::tune::{Dataset, TuneConfig, tune, weights_source};
use kibitzer::engine::nnue::data::TrainingRecord;
use kibitzer::game::save_atomic;

#[derive(Args)]
pub struct TuneArgs {
    /// Files written by `kibitzer datagen`: positions labelled with their game's result.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the tuned weights as Rust source (the engine builds in
    /// src/engine/eval/weights.rs).
    #[arg(long, short)]
    out: PathBuf,
    /// Use at most this many positions, drawn at random.
    #[arg(long, default_value_t = 2_000_000)]
    positions: usize,
    /// Full passes of gradient descent over the positions.
    #[arg(long, default_value_t = 1_000)]
    iterations: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Pull towards the starting weights (loss per squared pawn of change per weight).
    #[arg(long, default_value_t = 1e-5)]
    prior: f64,
    /// Share of positions held out to measure the fit: the last ones in the files, so that
    /// they come from games the tuning never saw.
    #[arg(long, default_value_t = 0.05, value_parser = super::parse_held_out_share)]
    validation: f64,
    /// Terms to leave as they are, comma-separated: material (with the piece-square tables),
    /// mobility, king-attack, king-shelter, pawns, passed-pawns, pieces.
    #[arg(long, value_delimiter = ',', value_parser = parse_term)]
    fixed: Vec<Term>,
    /// How much of each position's target is its game's result rather than its search score
    /// (mapped to an expected result on the fitted scale), 0 to 1, as in `train`. The fit is
    /// still measured against results on the held-out positions.
    #[arg(long, default_value_t = 1.0, value_parser = super::parse_share)]
    result_weight: f64,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: TuneArgs) -> anyhow::Result<()> {
    let mut records = super::read_training_data(&args.data)?;
    let held_out = (args.validation * records.len() as f64) as usize;
    let held_out = records.split_off(records.len() - held_out);
    let mut rng = Rng::new(args.seed);
    rng.shuffle(&mut records);
    records.truncate(args.positions);

    let mut unusable = 0;
    let mut dataset = |records: &[TrainingRecord]| {
        let mut data = Dataset::default();
        for record in records {
            match record.to_position() {
                Ok(pos) => data.push(&pos, record.result.score(), Some(record.white_score)),
                Err(_) => unusable += 1,
            }
        }
        data
    };
    let train = dataset(&records);
    let validation = dataset(&held_out);
    if unusable > 0 {
        eprintln!("skipped {unusable} records that are not legal positions");
    }
    if train.is_empty() {
        bail!("no positions to tune on");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    eprintln!(
        "tuning on {} positions ({} held out), {} iterations, {threads} threads",
        train.len(),
        validation.len(),
        args.iterations
    );

    let bar = ProgressBar::new(args.iterations as u64).with_style(
        ProgressStyle::with_template("[{bar:40}] {pos}/{len} {msg} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let config = TuneConfig {
        iterations: args.iterations,
        lr: args.lr,
        prior: args.prior,
        fixed: args.fixed,
        result_weight: args.result_weight,
        threads,
    };
    let tuned = tune(&train, &validation, &config, |p| {
        bar.set_position(p.iteration as u64);
        bar.set_message(format!("loss {:.6}", p.train_loss));
    });
    bar.finish_and_clear();
    eprintln!(
        "k {:.6}; train loss {:.6} -> {:.6}; validation loss {:.6} -> {:.6}",
        tuned.k,
        tuned.train_loss.0,
        tuned.train_loss.1,
        tuned.validation_loss.0,
        tuned.validation_loss.1
    );
    save_atomic(&args.out, weights_source(&tuned.weights).as_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

fn parse_term(key: &str) -> Result<Term, String> {
    Term::from_key(key).ok_or_else(|| {
        let keys: Vec<&str> = Term::ALL.iter().map(|t| t.key()).collect();
        format!("unknown term {key:?}; terms: {}", keys.join(", "))
    })
}
