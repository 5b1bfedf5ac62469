//! Texel tuning of the hand-crafted evaluation. Every weight enters the evaluation linearly (the
//! evaluation reports each feature through `Trace`), so a position is reduced once to its
//! feature counts, phase and scale. Full-batch Adam then fits the weights so that
//! `sigmoid(k * eval)` predicts the game's result (or a blend of it with the search's score),
//! with `k` first fitted to the starting weights. [`weights_source`] writes the result back as
//! `weights.rs`.

use std::fmt::Write as _;
use std::ops::Range;

use crate::chess::{Color, Position, Role};

use super::S;
use super::hce::{self, PHASE_MAX, TEMPO, Trace};
use super::terms::{self, COUNT, SECTIONS, Term};
use super::weights::WEIGHTS;

/// Weights as floats while they are tuned: middlegame, endgame.
type Floats = Vec<[f64; 2]>;

/// A position reduced to what the loss needs.
struct Entry {
    /// Its (weight, White's count minus Black's) pairs in [`Dataset::features`].
    features: Range<usize>,
    /// How much the middlegame and endgame parts count.
    mg: f32,
    eg: f32,
    /// The tempo bonus, from White's side.
    offset: f32,
    /// The game's result for White: 1, 0.5 or 0.
    result: f32,
    /// The search's score for White in centipawns, NaN where unknown.
    score: f32,
}

/// Positions ready for tuning.
#[derive(Default)]
pub struct Dataset {
    entries: Vec<Entry>,
    features: Vec<(u16, i16)>,
}

/// Collects every feature the evaluation counts.
struct Counts(Vec<(u16, i16)>);

impl Trace for Counts {
    fn add(&mut self, color: Color, param: usize, count: i32) {
        if count != 0 {
            self.0
                .push((param as u16, color.fold(count, -count) as i16));
        }
    }
}

impl Dataset {
    /// Adds `pos`, from a game White scored `result` in (1, 0.5 or 0), with the search's
    /// score for White where there is one.
    pub fn push(&mut self, pos: &Position, result: f32, white_score: Option<i16>) {
        let mut counts = Counts(Vec::with_capacity(96));
        let tapered = hce::tapered(pos, &WEIGHTS, &mut counts);
        counts.0.sort_unstable_by_key(|&(param, _)| param);
        let start = self.features.len();
        let mut pending: Option<(u16, i16)> = None;
        for (param, count) in counts.0 {
            match &mut pending {
                Some((p, c)) if *p == param => *c += count,
                _ => {
                    if let Some(done) = pending.filter(|&(_, c)| c != 0) {
                        self.features.push(done);
                    }
                    pending = Some((param, count));
                }
            }
        }
        if let Some(done) = pending.filter(|&(_, c)| c != 0) {
            self.features.push(done);
        }
        let phase = tapered.phase as f32 / PHASE_MAX as f32;
        self.entries.push(Entry {
            features: start..self.features.len(),
            mg: phase,
            eg: (1.0 - phase) * tapered.eg_scale as f32 / 4.0,
            offset: pos.turn().fold(TEMPO, -TEMPO) as f32,
            result,
            score: white_score.map_or(f32::NAN, f32::from),
        });
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// White's evaluation of entry `e` under `weights`, before rounding.
    fn evaluate(&self, e: &Entry, weights: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(param, count) in &self.features[e.features.clone()] {
            let w = weights[param as usize];
            mg += w[0] * f64::from(count);
            eg += w[1] * f64::from(count);
        }
        f64::from(e.offset) + mg * f64::from(e.mg) + eg * f64::from(e.eg)
    }

    /// What entry `e` should predict: `result_weight` parts its game's result and the rest its
    /// search score's expectation (all result where the entry has no score).
    fn target(e: &Entry, k: f64, result_weight: f64) -> f64 {
        let result = f64::from(e.result);
        if result_weight == 1.0 || e.score.is_nan() {
            return result;
        }
        result_weight * result + (1.0 - result_weight) * sigmoid(k * f64::from(e.score))
    }

    /// The mean squared error of `sigmoid(k * eval)` against the targets (see [`Self::target`]),
    /// and its gradient when asked for, over `threads` threads.
    fn loss(
        &self,
        weights: &[[f64; 2]],
        k: f64,
        result_weight: f64,
        threads: usize,
        gradient: bool,
    ) -> (f64, Floats) {
        let chunk = self.entries.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<(f64, Floats)> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .entries
                .chunks(chunk)
                .map(|entries| {
                    s.spawn(move || {
                        let mut sum = 0.0;
                        let mut grad = if gradient {
                            vec![[0.0; 2]; COUNT]
                        } else {
                            Vec::new()
                        };
                        for e in entries {
                            let p = sigmoid(k * self.evaluate(e, weights));
                            let err = p - Self::target(e, k, result_weight);
                            sum += err * err;
                            if gradient {
                                let d = 2.0 * err * p * (1.0 - p) * k;
                                let (dmg, deg) = (d * f64::from(e.mg), d * f64::from(e.eg));
                                for &(param, count) in &self.features[e.features.clone()] {
                                    let g = &mut grad[param as usize];
                                    g[0] += dmg * f64::from(count);
                                    g[1] += deg * f64::from(count);
                                }
                            }
                        }
                        (sum, grad)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a tuning thread panicked"))
                .collect()
        });
        let n = self.entries.len().max(1) as f64;
        let mut total = 0.0;
        let mut grad = if gradient {
            vec![[0.0; 2]; COUNT]
        } else {
            Vec::new()
        };
        for (sum, part) in parts {
            total += sum;
            for (g, p) in grad.iter_mut().zip(part) {
                g[0] += p[0] / n;
                g[1] += p[1] / n;
            }
        }
        (total / n, grad)
    }
}

fn floats(weights: &[S; COUNT]) -> Floats {
    weights
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect()
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `x` in `lo..=hi` where `loss` is least, for a loss with one minimum there
/// (golden-section search, to about 1e-8 of the range). Each step keeps one of its two inner
/// points as the next step's, so `loss` (a pass over a whole data set, for `tune`) runs once
/// a step.
pub fn golden_section_minimum(lo: f64, hi: f64, loss: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (lo, hi);
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut loss_a, mut loss_b) = (loss(a), loss(b));
    for _ in 0..40 {
        if loss_a < loss_b {
            (hi, b, loss_b) = (b, a, loss_a);
            a = hi - ratio * (hi - lo);
            loss_a = loss(a);
        } else {
            (lo, a, loss_a) = (a, b, loss_b);
            b = lo + ratio * (hi - lo);
            loss_b = loss(b);
        }
    }
    (lo + hi) / 2.0
}

#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub iterations: usize,
    /// Adam's step size, in centipawns.
    pub lr: f64,
    /// Pull towards the starting weights: this much loss per weight and squared pawn of
    /// change. It keeps rarely seen features (a queen with 27 moves) from fitting noise.
    pub prior: f64,
    /// Terms whose weights stay as they are.
    pub fixed: Vec<Term>,
    /// How much of each training target is the game's result rather than the search's score,
    /// 0 to 1 (the CLI refuses anything else), as in NNUE training. Validation is always
    /// against results.
    pub result_weight: f64,
    pub threads: usize,
}

/// Where tuning stands after an iteration.
pub struct Progress {
    pub iteration: usize,
    pub train_loss: f64,
}

/// What tuning produced and how much it helped.
pub struct Tuned {
    pub weights: [S; COUNT],
    /// The fitted scale: `sigmoid(k * centipawns)` is the expected result.
    pub k: f64,
    pub train_loss: (f64, f64),
    /// On positions the tuning never saw: before and after.
    pub validation_loss: (f64, f64),
}

/// Fits `k` to the starting weights, then tunes every weight outside the fixed terms on
/// `train`.
pub fn tune(
    train: &Dataset,
    validation: &Dataset,
    config: &TuneConfig,
    mut progress: impl FnMut(&Progress),
) -> Tuned {
    let start_weights = floats(&WEIGHTS);
    let mut weights = start_weights.clone();
    let k = fit_k(train, &weights, config.threads);
    let start = (
        train
            .loss(&weights, k, config.result_weight, config.threads, false)
            .0,
        validation.loss(&weights, k, 1.0, config.threads, false).0,
    );

    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let fixed: Vec<bool> = (0..COUNT)
        .map(|i| config.fixed.contains(&terms::section_of(i).term))
        .collect();
    let mut m = vec![[0.0f64; 2]; COUNT];
    let mut v = vec![[0.0f64; 2]; COUNT];
    for iteration in 1..=config.iterations {
        let (train_loss, mut grad) =
            train.loss(&weights, k, config.result_weight, config.threads, true);
        for ((g, w), w0) in grad.iter_mut().zip(&weights).zip(&start_weights) {
            for j in 0..2 {
                g[j] += 2.0 * config.prior * (w[j] - w0[j]) / 1e4;
            }
        }
        let (c1, c2) = (
            1.0 - beta1.powi(iteration as i32),
            1.0 - beta2.powi(iteration as i32),
        );
        for i in (0..COUNT).filter(|&i| !fixed[i]) {
            for j in 0..2 {
                m[i][j] = beta1 * m[i][j] + (1.0 - beta1) * grad[i][j];
                v[i][j] = beta2 * v[i][j] + (1.0 - beta2) * grad[i][j] * grad[i][j];
                weights[i][j] -= config.lr * (m[i][j] / c1) / ((v[i][j] / c2).sqrt() + eps);
            }
        }
        progress(&Progress {
            iteration,
            train_loss,
        });
    }

    // Moving a table's mean into material would change fixed material weights.
    let tuned = if config.fixed.contains(&Term::Material) {
        round(&weights)
    } else {
        normalise(&weights)
    };
    let rounded = floats(&tuned);
    Tuned {
        weights: tuned,
        k,
        train_loss: (
            start.0,
            train
                .loss(&rounded, k, config.result_weight, config.threads, false)
                .0,
        ),
        validation_loss: (
            start.1,
            validation.loss(&rounded, k, 1.0, config.threads, false).0,
        ),
    }
}

/// The `k` that makes the starting weights fit best.
fn fit_k(data: &Dataset, weights: &[[f64; 2]], threads: usize) -> f64 {
    golden_section_minimum(1e-4, 0.05, |k| data.loss(weights, k, 1.0, threads, false).0)
}

/// Moves each piece-square table's mean into the piece's material value, which leaves every
/// evaluation as it was but keeps material readable as what a piece is worth, and rounds.
fn normalise(weights: &[[f64; 2]]) -> [S; COUNT] {
    let mut w: Floats = weights.to_vec();
    for role in Role::ALL {
        if role == Role::King {
            continue;
        }
        // Pawns never stand on the first or last rank: those entries are not part of the mean.
        let squares: Vec<usize> = (0..64)
            .filter(|sq| role != Role::Pawn || (8..56).contains(sq))
            .collect();
        let table = terms::PST + 64 * role.index();
        let mut mean = [0.0; 2];
        for &sq in &squares {
            for (m, v) in mean.iter_mut().zip(w[table + sq]) {
                *m += v / squares.len() as f64;
            }
        }
        for &sq in &squares {
            for (v, m) in w[table + sq].iter_mut().zip(mean) {
                *v -= m;
            }
        }
        for (v, m) in w[terms::MATERIAL + role.index()].iter_mut().zip(mean) {
            *v += m;
        }
    }
    round(&w)
}

fn round(weights: &[[f64; 2]]) -> [S; COUNT] {
    std::array::from_fn(|i| S(weights[i][0].round() as i32, weights[i][1].round() as i32))
}

/// `weights.rs` for `weights`, section by section.
pub fn weights_source(weights: &[S; COUNT]) -> String {
    let mut out = String::from(
        "//! The hand-crafted evaluation's weights, laid out by `terms.rs`. Written by `kibitzer tune`\n\
         //! (Texel tuning on self-play positions labelled by game results): re-tune rather than edit.\n\
         //! The first values were PeSTO's material and piece-square tables and hand-set terms.\n\
         \n\
         use super::S;\n\
         use super::terms::COUNT;\n\
         \n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [S; COUNT] = [\n",
    );
    for section in &SECTIONS {
        let _ = writeln!(out, "    // {}", section.name);
        let values = &weights[section.start..section.start + section.len];
        for row in values.chunks(section.row) {
            let cells: Vec<String> = row.iter().map(|s| format!("S({}, {})", s.0, s.1)).collect();
            let _ = writeln!(out, "    {},", cells.join(", "));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_section_finds_the_minimum_with_one_loss_a_step() {
        let calls = std::cell::Cell::new(0);
        let x = golden_section_minimum(1e-4, 0.05, |k| {
            calls.set(calls.get() + 1);
            (k - 0.0123).powi(2)
        });
        assert!((x - 0.0123).abs() < 1e-9, "{x}");
        assert_eq!(calls.get(), 42);
    }

    #[test]
    fn weights_file_is_what_the_tuner_writes() {
        assert_eq!(weights_source(&WEIGHTS), include_str!("weights.rs"));
    }

    #[test]
    fn dataset_evaluation_matches_the_engine() {
        let mut data = Dataset::default();
        let fens = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
            "r1b2rk1/pp3ppp/2n1pq2/3p4/2PP4/P1Q1PN2/5PPP/R3KB1R w KQ - 0 12",
        ];
        let weights = floats(&WEIGHTS);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            data.push(&pos, 0.5, None);
            let entry = data.entries.last().unwrap();
            let white = data.evaluate(entry, &weights);
            let engine = super::super::HandCrafted.evaluate(&pos);
            let engine_white = f64::from(pos.turn().fold(engine, -engine));
            // The engine rounds twice (endgame scale, then the blend).
            assert!(
                (white - engine_white).abs() <= 2.0,
                "{fen}: {white} vs {engine_white}"
            );
        }
    }

    #[test]
    fn targets_blend_the_result_with_the_search_score() {
        let mut data = Dataset::default();
        data.push(&Position::startpos(), 1.0, Some(0));
        data.push(&Position::startpos(), 0.0, None);
        let (scored, unscored) = (&data.entries[0], &data.entries[1]);
        assert_eq!(Dataset::target(scored, 0.01, 1.0), 1.0);
        assert_eq!(Dataset::target(scored, 0.01, 0.0), 0.5);
        // Half the result (1) and half the expectation of a level score (0.5).
        assert!((Dataset::target(scored, 0.01, 0.5) - 0.75).abs() < 1e-9);
        assert_eq!(Dataset::target(unscored, 0.01, 0.5), 0.0);
    }

    #[test]
    fn tuning_lowers_the_loss_and_keeps_evaluations_when_normalising() {
        // Positions where White is a knight up and wins, a knight down and loses.
        let mut train = Dataset::default();
        for (fen, result) in [
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 1.0),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5),
        ] {
            train.push(&Position::from_fen(fen).unwrap(), result, None);
        }
        let config = TuneConfig {
            iterations: 30,
            lr: 2.0,
            prior: 0.0,
            fixed: vec![Term::Pawns],
            result_weight: 1.0,
            threads: 2,
        };
        let mut last = f64::INFINITY;
        let tuned = tune(&train, &train, &config, |p| last = p.train_loss);
        assert!(last.is_finite());
        assert!(
            tuned.train_loss.1 < tuned.train_loss.0,
            "{:?}",
            tuned.train_loss
        );
        let isolated = terms::ISOLATED_PAWN;
        assert_eq!(
            tuned.weights[isolated], WEIGHTS[isolated],
            "fixed terms stay"
        );

        let weights = floats(&WEIGHTS);
        let normalised = floats(&normalise(&weights));
        for e in &train.entries {
            let diff = train.evaluate(e, &weights) - train.evaluate(e, &normalised);
            // With whole-number weights, the roundings of a moved mean cancel exactly.
            assert!(diff.abs() < 1e-9, "{diff}");
        }
    }
}
