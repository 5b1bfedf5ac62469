use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use kibitzer::chess::Position;
use kibitzer::engine::nnue::scale::{fitted_to_hand_crafted, sample_positions};
use kibitzer::engine::nnue::train::{
    Mix, Model, Target, TrainConfig, evaluate_loss, held_out_len, train,
};
use kibitzer::engine::nnue::{
    BUCKET_RANGE, KING_BUCKETS, Network, SCALE, SCALE_RANGE, format, valid_hidden_width,
};
use kibitzer::game::AtomicFile;

#[derive(Args)]
pub struct TrainArgs {
    /// Training data files written by `kibitzer datagen` (games or 32-byte records).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Folder for checkpoints and exported networks (created if missing).
    #[arg(long, short)]
    out: PathBuf,
    /// Hidden width per perspective (a multiple of 16).
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// Output layers by material (1..=16): each position is scored by the one for its number
    /// of men on the board.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Sets of first-layer inputs by where each side's own king stands: 1; 3, by its file (a-c,
    /// d-e, f-h); 6, by its file and whether it is on its first two ranks. A network without
    /// them (`--resume FILE`) starts every set as its one.
    #[arg(long, default_value_t = 1)]
    king_buckets: usize,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Starting learning rate (cosine decay to 1% of it).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.3, value_parser = super::parse_share)]
    result_weight: f64,
    /// Centipawns of search score per unit of the network's output: a score s is trained
    /// towards sigmoid(s / SCALE). `kibitzer data stats` prints the scale at which the data's
    /// scores predict its results.
    #[arg(long, value_name = "SCALE", default_value_t = SCALE as u16, value_parser = clap::value_parser!(u16)
        .range(i64::from(*SCALE_RANGE.start())..=i64::from(*SCALE_RANGE.end())))]
    score_scale: u16,
    /// Share of positions held out for validation: the last ones (the latest games).
    #[arg(long, default_value_t = 0.02, value_parser = super::parse_held_out_share)]
    validation: f64,
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Do not add each position with the a- and h-files swapped.
    #[arg(long)]
    no_mirror: bool,
    /// Train through the file's rounding: each batch's gradients are taken on the weights as
    /// the exported network rounds them (QA 255, QB 64) and applied to the float weights, and
    /// the held-out loss is the rounded network's.
    #[arg(long)]
    rounded_forward: bool,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from a float checkpoint (`epoch-N.ckpt`) or a network file (`.nnue`, e.g.
    /// assets/kibitzer.nnue) instead of random weights; one without buckets starts every bucket
    /// from its output layer.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Keep the trained output scale (400) instead of fitting each exported network's
    /// centipawns to the hand-crafted evaluation's.
    #[arg(long)]
    no_fit_scale: bool,
    /// Train the network inside the engine's mix: PERCENT of each prediction is the
    /// hand-crafted evaluation (as HandCraftedShare), so the network learns what that misses.
    /// The output scale is the resumed network file's (or the score scale) and is not fitted.
    /// 0: the network alone, kept at its file's output scale whatever `--score-scale` is (to
    /// fine-tune a network that plays alone).
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=99))]
    hce_share: Option<u8>,
}

/// Positions the output scale is fitted on: spread over the held-out games.
const SCALE_SAMPLE: usize = 20_000;

/// Writes through a temporary file in the same folder, then renames: no torn files.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut AtomicFile) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut file = AtomicFile::create(path)?;
    write(&mut file)
        .and_then(|()| file.commit())
        .with_context(|| format!("writing {}", path.display()))
}

/// The model a run resumes from: a float checkpoint, or a network file (`.nnue`) rounded back to
/// floats when its checkpoint is gone, with the file's output scale.
fn load_start(path: &Path) -> anyhow::Result<(Model, Option<i32>)> {
    let bytes = fs::read(path).with_context(|| format!("opening {}", path.display()))?;
    if bytes.starts_with(format::MAGIC) {
        let net = Network::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
        Ok((Model::from_network(&net), Some(net.scale())))
    } else {
        let model =
            Model::load(&mut bytes.as_slice()).with_context(|| path.display().to_string())?;
        Ok((model, None))
    }
}

pub fn run(args: TrainArgs) -> anyhow::Result<()> {
    check_shape(&args)?;
    let records = super::read_training_data(&args.data)?;
    if records.len() < 2 {
        bail!(
            "need at least two positions to train, found {}",
            records.len()
        );
    }
    // The held-out positions are the data's last ones; a sample of them fits the output scale.
    let held_out = &records[records.len() - held_out_len(records.len(), args.validation as f32)..];
    let scale_positions = if args.no_fit_scale || args.hce_share.is_some() {
        Vec::new()
    } else {
        sample_positions(held_out, SCALE_SAMPLE)
    };
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;

    let (start, start_scale) = match &args.resume {
        Some(path) => {
            let (model, scale) = load_start(path)?;
            (Some(model), scale)
        }
        None => (None, None),
    };
    let mix = mix_target(&args, start_scale)?;
    let mut model = match start {
        Some(model) => resumed_model(&args, model)?,
        None => {
            Model::new(args.hidden, args.buckets, args.seed).with_king_buckets(args.king_buckets)
        }
    };
    let config = train_config(&args, mix);
    announce(&model, &config, records.len());

    if let Some(path) = &args.resume
        && !held_out.is_empty()
    {
        // The yardstick for the epochs below: the same held-out positions, before any training.
        eprintln!(
            "start      validation loss {:.6}  ({})",
            evaluate_loss(
                &model,
                held_out,
                &config.target.offsets(held_out, config.threads),
                config.target,
                config.threads
            ),
            path.display()
        );
    }

    let bar = ProgressBar::new(1000).with_style(
        ProgressStyle::with_template("epoch {msg} [{bar:40}] {percent}% eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let output_scale = mix.map_or(config.target.score_scale, |mix| mix.output_scale);
    let mut save_error = None;
    train(
        &mut model,
        records,
        &config,
        |epoch, done| {
            bar.set_message(epoch.to_string());
            bar.set_position((done * 1000.0) as u64);
        },
        |model, report| {
            bar.suspend(|| {
                eprintln!(
                    "epoch {:3}  train loss {:.6}  validation loss {:.6}  lr {:.2e}  {:.0} pos/s",
                    report.epoch,
                    report.train_loss,
                    report.validation_loss,
                    report.lr,
                    report.positions_per_second
                )
            });
            let stem = args.out.join(format!("epoch-{}", report.epoch));
            let saved = save_epoch(model, &stem, output_scale, &scale_positions, &bar);
            if let Err(e) = saved {
                save_error.get_or_insert(e);
            }
        },
    );
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e);
    }
    // `--epochs 0` only measures the starting network.
    if config.epochs > 0 {
        let last = args.out.join(format!("epoch-{}.nnue", config.epochs));
        eprintln!("done: {}", last.display());
    }
    Ok(())
}

/// The network's shape as asked for, before any data is read.
fn check_shape(args: &TrainArgs) -> anyhow::Result<()> {
    if !valid_hidden_width(args.hidden) {
        bail!("--hidden must be a multiple of 16 from 16 to 4096");
    }
    if !BUCKET_RANGE.contains(&args.buckets) {
        bail!("--buckets must be from 1 to 16");
    }
    if !KING_BUCKETS.contains(&args.king_buckets) {
        bail!("--king-buckets must be one of {KING_BUCKETS:?}");
    }
    Ok(())
}

/// With `--hce-share`, the mix the network is trained in, at the resumed file's output scale.
fn mix_target(args: &TrainArgs, start_scale: Option<i32>) -> anyhow::Result<Option<Mix>> {
    Ok(match (args.hce_share, &args.resume, start_scale) {
        (None, ..) => None,
        (Some(_), Some(path), None) => bail!(
            "--hce-share resumes from a network file, not {}: a checkpoint does not record the \
             output scale the mix was trained at",
            path.display()
        ),
        (Some(share), _, scale) => Some(Mix {
            hce_share: f32::from(share) / 100.0,
            output_scale: scale.map_or(f32::from(args.score_scale), |s| s as f32),
        }),
    })
}

/// The resumed model in the shape asked for: a network without (king) buckets grows them.
fn resumed_model(args: &TrainArgs, model: Model) -> anyhow::Result<Model> {
    let path = args.resume.as_deref().unwrap_or(Path::new("--resume"));
    if model.hidden != args.hidden {
        bail!(
            "{} has hidden width {}, not {}",
            path.display(),
            model.hidden,
            args.hidden
        );
    }
    let model = match (model.buckets(), args.buckets) {
        (have, want) if have == want => model,
        (1, want) => model.with_buckets(want),
        (have, want) => bail!(
            "{} has {have} output buckets, not {want} (only a network without buckets can \
             start one with them)",
            path.display()
        ),
    };
    Ok(match (model.king_buckets(), args.king_buckets) {
        (have, want) if have == want => model,
        (1, want) => model.with_king_buckets(want),
        (have, want) => bail!(
            "{} has {have} king buckets, not {want} (only a network without king buckets can \
             start one with them)",
            path.display()
        ),
    })
}

fn train_config(args: &TrainArgs, mix: Option<Mix>) -> TrainConfig {
    TrainConfig {
        hidden: args.hidden,
        buckets: args.buckets,
        epochs: args.epochs,
        batch_size: args.batch.max(1),
        lr: args.lr,
        target: Target {
            result_weight: args.result_weight as f32,
            score_scale: f32::from(args.score_scale),
            mix,
        },
        validation_fraction: args.validation as f32,
        weight_decay: args.weight_decay,
        mirror: !args.no_mirror,
        rounded_forward: args.rounded_forward,
        threads: args
            .threads
            .unwrap_or(TrainConfig::default().threads)
            .max(1),
        seed: args.seed,
        ..TrainConfig::default()
    }
}

/// What is about to be trained, on what, and how.
fn announce(model: &Model, config: &TrainConfig, positions: usize) {
    eprintln!(
        "training (768 x {} -> {}) x 2 -> 1 x {} buckets on {} positions{}, {} epochs, {} threads",
        model.king_buckets(),
        config.hidden,
        config.buckets,
        positions,
        if config.mirror {
            " and their mirrors"
        } else {
            ""
        },
        config.epochs,
        config.threads
    );
    match config.target.mix {
        Some(mix) if mix.hce_share == 0.0 => {
            eprintln!("alone, at the network's output scale {}", mix.output_scale)
        }
        Some(mix) => eprintln!(
            "in the mix: {:.0}% hand-crafted, the network's output scale {}",
            mix.hce_share * 100.0,
            mix.output_scale
        ),
        None => {}
    }
}

/// One epoch's float checkpoint (`STEM.ckpt`) and network file (`STEM.nnue`), the file's output
/// scale fitted to the hand-crafted evaluation on `scale_positions` when there are any.
fn save_epoch(
    model: &Model,
    stem: &Path,
    output_scale: f32,
    scale_positions: &[(Position, i32)],
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    write_atomically(&stem.with_extension("ckpt"), |w| model.save(w))?;
    let mut network = model.quantise(output_scale);
    if !scale_positions.is_empty() {
        let trained = network.scale();
        let (fitted, fit) = fitted_to_hand_crafted(network, scale_positions);
        let how = if fitted.scale() == trained {
            "kept: no usable fit"
        } else {
            "fitted"
        };
        bar.suspend(|| {
            eprintln!(
                "          output scale {} {how} (slope {:.3} against the hand-crafted evaluation, {} positions)",
                fitted.scale(),
                fit.slope,
                fit.points
            )
        });
        network = fitted;
    }
    let bytes = network.to_bytes();
    write_atomically(&stem.with_extension("nnue"), |w| w.write_all(&bytes))
}
