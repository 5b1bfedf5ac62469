//! `kibitzer data`: what training files hold (positions, games, results, scores), converting
//! them between the compact games format and 32-byte records, dropping repeats, and scoring
//! their positions by a teacher evaluation.

use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};

use kibitzer::engine::Evaluation;
use kibitzer::engine::nnue::data::{TrainingRecord, WhiteResult};
use kibitzer::engine::nnue::format::checksum;
use kibitzer::engine::nnue::games::{GameRecord, MAGIC};
use kibitzer::engine::nnue::scale::{ResultCurve, fit, fitted_to_hand_crafted, sample_positions};
use kibitzer::game::AtomicFile;

use super::datafile::{Format, detect, for_each_game, read_positions};

#[derive(Args)]
pub struct DataArgs {
    #[command(subcommand)]
    command: DataCommand,
}

#[derive(Subcommand)]
enum DataCommand {
    /// Count positions and games; show the result mix and a histogram of the scores.
    Stats {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write the data of several files as one file of games (or of 32-byte records).
    Convert {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long, short)]
        out: PathBuf,
        /// Write 32-byte records (one per training position) instead of games.
        #[arg(long)]
        records: bool,
        /// Drop repeats: a position already written (records), or a game already written
        /// (games).
        #[arg(long)]
        dedup: bool,
    },
    /// Score every training position by an evaluation, the teacher of a network that is to
    /// evaluate as it does: 32-byte records whose score is `--share` percent the teacher's
    /// (White's view) and the rest the search's, results unchanged.
    Relabel {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[arg(long, short)]
        out: PathBuf,
        /// `nnue` (the default evaluation: the embedded network mixed with the hand-crafted
        /// one as the engine plays), `hce`, or a network file (mixed the same way).
        #[arg(long, default_value = "nnue", value_parser = super::parse_evaluation)]
        teacher: Evaluation,
        /// Percent of each new score that is the teacher's.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(0..=100))]
        share: u8,
    },
    /// How a network's scale compares with the hand-crafted evaluation: least-squares fits of
    /// one against the other and against the search scores, on quiet positions of the data.
    Scale {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The network: `nnue` (the embedded one) or a file.
        #[arg(long, default_value = "nnue", value_parser = super::parse_evaluation)]
        net: Evaluation,
        /// Positions sampled (evenly spread over the data).
        #[arg(long, default_value_t = 100_000)]
        sample: usize,
        /// Write the network here with its output scale fitted to the hand-crafted
        /// evaluation's centipawns.
        #[arg(long)]
        write: Option<PathBuf>,
    },
}

pub fn run(args: DataArgs) -> anyhow::Result<()> {
    match args.command {
        DataCommand::Stats { files } => {
            let mut all = Stats::default();
            for path in &files {
                let stats = Stats::of(path)?;
                println!("{}\n", stats.report(&path.display().to_string()));
                all.add(&stats);
            }
            if files.len() > 1 {
                println!("{}", all.report("all files"));
            }
            Ok(())
        }
        DataCommand::Convert {
            inputs,
            out,
            records,
            dedup,
        } => convert(&inputs, &out, records, dedup),
        DataCommand::Relabel {
            inputs,
            out,
            teacher,
            share,
        } => relabel(&inputs, &out, &teacher, share),
        DataCommand::Scale {
            files,
            net,
            sample,
            write,
        } => scale(&files, &net, sample, write.as_deref()),
    }
}

/// Writes every training position of `inputs` as a record scored `share` percent by `teacher`.
fn relabel(inputs: &[PathBuf], out: &Path, teacher: &Evaluation, share: u8) -> anyhow::Result<()> {
    let records = super::datafile::read_training_data(inputs)?;
    let mut file = BufWriter::new(
        AtomicFile::create(out).with_context(|| format!("creating {}", out.display()))?,
    );
    let (share, mut written, mut unusable) = (i32::from(share), 0u64, 0u64);
    let mut difference = 0f64;
    for mut record in records {
        // Records are checked when read; one that is still not a position is left out.
        let Ok(pos) = record.to_position() else {
            unusable += 1;
            continue;
        };
        let taught = pos.turn().fold(1, -1) * teacher.evaluate(&pos);
        let search = i32::from(record.white_score);
        difference += f64::from((taught - search).abs());
        let score = (share * taught + (100 - share) * search) / 100;
        record.white_score = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        file.write_all(&record.to_bytes())?;
        written += 1;
    }
    let file = file.into_inner().map_err(|e| e.into_error())?;
    file.commit()
        .with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "{}: {written} positions as records, {share}% the teacher's score; mean |teacher - search| \
         {:.0} cp{}",
        out.display(),
        difference / written.max(1) as f64,
        if unusable > 0 {
            format!(", {unusable} records that are not positions skipped")
        } else {
            String::new()
        },
    );
    Ok(())
}

/// Fits the network against the hand-crafted evaluation and both against the search scores
/// (side to move's view, within 10 pawns), and writes the network rescaled if asked.
fn scale(
    files: &[PathBuf],
    net: &Evaluation,
    sample: usize,
    write: Option<&Path>,
) -> anyhow::Result<()> {
    let Evaluation::Nnue { network, .. } = net else {
        anyhow::bail!("--net names a network: nnue or a file");
    };
    let records = super::datafile::read_training_data(files)?;
    let positions = sample_positions(&records, sample);
    let (mut net_search, mut hce_search) = (Vec::new(), Vec::new());
    for (pos, search) in &positions {
        let search = f64::from(*search);
        if search.abs() > 1000.0 {
            continue;
        }
        net_search.push((search, f64::from(network.evaluate_from_scratch(pos))));
        hce_search.push((search, f64::from(Evaluation::HandCrafted.evaluate(pos))));
    }
    let (fitted, net_hce) = fitted_to_hand_crafted((**network).clone(), &positions);
    println!("{} positions sampled", positions.len());
    for (name, f) in [
        ("network against hand-crafted", net_hce),
        ("network against search score", fit(&net_search)),
        ("hand-crafted against search score", fit(&hce_search)),
    ] {
        println!(
            "{name:>34}: slope {:.3}, intercept {:+.1} cp, correlation {:.3} ({} positions)",
            f.slope, f.intercept, f.correlation, f.points
        );
    }
    if let Some(path) = write {
        if fitted.scale() == network.scale() {
            anyhow::bail!("the fit gives no new scale (slope {:.3})", net_hce.slope);
        }
        std::fs::write(path, fitted.to_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{}: output scale {} -> {}",
            path.display(),
            network.scale(),
            fitted.scale()
        );
    }
    Ok(())
}

/// Score buckets of the histogram: upper bounds in centipawns, White's view.
const BUCKETS: [(i32, &str); 9] = [
    (-1000, "below -1000"),
    (-500, "-1000 to -500"),
    (-200, "-500 to -200"),
    (-50, "-200 to -50"),
    (50, "-50 to 50"),
    (200, "50 to 200"),
    (500, "200 to 500"),
    (1000, "500 to 1000"),
    (i32::MAX, "above 1000"),
];

#[derive(Default)]
struct Stats {
    bytes: u64,
    /// `None` for records files.
    games: Option<u64>,
    plies: u64,
    positions: u64,
    /// Positions by result: White loss, draw, White win.
    results: [u64; 3],
    histogram: [u64; BUCKETS.len()],
    results_by_score: ResultCurve,
}

impl Stats {
    fn of(path: &Path) -> anyhow::Result<Stats> {
        let mut stats = Stats {
            bytes: std::fs::metadata(path)
                .with_context(|| format!("reading {}", path.display()))?
                .len(),
            ..Stats::default()
        };
        match detect(path)? {
            Format::Games => {
                stats.games = Some(0);
                for_each_game(path, |game| {
                    *stats.games.as_mut().expect("games file") += 1;
                    stats.plies += game.plies.len() as u64;
                    game.positions().iter().for_each(|r| stats.count(r));
                    Ok(())
                })?;
            }
            Format::Records => read_positions(path)?.iter().for_each(|r| stats.count(r)),
        }
        Ok(stats)
    }

    fn count(&mut self, record: &TrainingRecord) {
        self.positions += 1;
        self.results[record.result as usize] += 1;
        let score = i32::from(record.white_score);
        let bucket = BUCKETS.iter().position(|&(upper, _)| score < upper);
        self.histogram[bucket.unwrap_or(BUCKETS.len() - 1)] += 1;
        self.results_by_score.add(record);
    }

    fn add(&mut self, other: &Stats) {
        self.bytes += other.bytes;
        self.games = match (self.games, other.games) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        self.plies += other.plies;
        self.positions += other.positions;
        for i in 0..3 {
            self.results[i] += other.results[i];
        }
        for i in 0..BUCKETS.len() {
            self.histogram[i] += other.histogram[i];
        }
        self.results_by_score.merge(&other.results_by_score);
    }

    fn report(&self, name: &str) -> String {
        let share = |n: u64| 100.0 * n as f64 / self.positions.max(1) as f64;
        let mut out = format!("{name}: {} positions", self.positions);
        if let Some(games) = self.games {
            out.push_str(&format!(
                " from {games} games ({} plies, {:.1} a game)",
                self.plies,
                self.plies as f64 / games.max(1) as f64
            ));
        }
        out.push_str(&format!(
            "\n  {} bytes, {:.1} a position\n  results (White's view, by position): win {:.1}%, draw {:.1}%, loss {:.1}%\n  scores (centipawns, White's view):",
            self.bytes,
            self.bytes as f64 / self.positions.max(1) as f64,
            share(self.results[WhiteResult::Win as usize]),
            share(self.results[WhiteResult::Draw as usize]),
            share(self.results[WhiteResult::Loss as usize]),
        ));
        let widest = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        for (&(_, label), &n) in BUCKETS.iter().zip(&self.histogram) {
            let bar = "#".repeat((40 * n / widest) as usize);
            out.push_str(&format!("\n  {label:>14} {:>5.1}% {bar}", share(n)));
        }
        if let Some(k) = self.results_by_score.fitted_scale() {
            out.push_str(&format!(
                "\n  scores predict results best as sigmoid(score / {k}) (train --score-scale)"
            ));
        }
        out
    }
}

/// Writes every input's data to `out` as games (or records), atomically.
fn convert(inputs: &[PathBuf], out: &Path, records: bool, dedup: bool) -> anyhow::Result<()> {
    let mut file = BufWriter::new(
        AtomicFile::create(out).with_context(|| format!("creating {}", out.display()))?,
    );
    let mut seen: HashSet<u64> = HashSet::new();
    let (mut written, mut dropped, mut unusable) = (0u64, 0u64, 0u64);
    if !records {
        file.write_all(MAGIC)?;
    }
    for path in inputs {
        // `key`: the game's identity, for dropping repeated games (games output only).
        let mut write_game = |game: GameRecord, key: Option<u64>| -> anyhow::Result<()> {
            if dedup && key.is_some_and(|k| !seen.insert(k)) {
                dropped += 1;
                return Ok(());
            }
            if records {
                for r in game.positions() {
                    if dedup && !seen.insert(position_key(&r)) {
                        dropped += 1;
                        continue;
                    }
                    file.write_all(&r.to_bytes())?;
                    written += 1;
                }
            } else {
                game.write_to(&mut file)?;
                written += game.positions().len() as u64;
            }
            Ok(())
        };
        match detect(path)? {
            // Whole games are repeats when start and moves agree; records output checks
            // positions instead.
            Format::Games => for_each_game(path, |game| {
                let key = (!records).then(|| game_key(&game));
                write_game(game, key)
            })?,
            // A record is a game of one ply from its position (no smaller than the record).
            Format::Records => {
                for r in read_positions(path)? {
                    let Some(game) = one_ply_game(&r) else {
                        unusable += 1;
                        continue;
                    };
                    let key = (!records).then(|| position_key(&r));
                    write_game(game, key)?;
                }
            }
        }
    }
    let file = file.into_inner().map_err(|e| e.into_error())?;
    file.commit()
        .with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "{}: {written} positions as {}{}{}",
        out.display(),
        if records { "records" } else { "games" },
        if dedup {
            format!(", {dropped} repeats dropped")
        } else {
            String::new()
        },
        if unusable > 0 {
            format!(", {unusable} records without a legal move skipped")
        } else {
            String::new()
        },
    );
    Ok(())
}

/// A record as a game of its one position and best move.
fn one_ply_game(r: &TrainingRecord) -> Option<GameRecord> {
    let start = r.to_position().ok()?;
    let mv = r.best_move.filter(|&m| start.legal_moves().contains(m))?;
    Some(GameRecord {
        start,
        result: r.result,
        plies: vec![(mv, r.white_score)],
    })
}

/// A position's identity in a record: pieces, squares and side to move.
fn position_key(r: &TrainingRecord) -> u64 {
    let bytes = r.to_bytes();
    let mut key = bytes[..24].to_vec();
    key.push(bytes[27]);
    checksum(&key)
}

fn game_key(game: &GameRecord) -> u64 {
    let mut bytes = game.start.fen().into_bytes();
    for &(mv, _) in &game.plies {
        bytes.extend_from_slice(&mv.to_u16().to_le_bytes());
    }
    checksum(&bytes)
}
