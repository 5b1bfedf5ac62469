//! The trainer: a float copy of the network, trained on [`Record`]s with AdamW on every core,
//! then quantised into a [`Network`].
//!
//! Loss: squared error between sigmoid(output) and a target that blends the game result with
//! sigmoid(search score / score scale), from the side to move's view. The output times the score
//! scale is the evaluation in centipawns, matching the quantised network.
//!
//! A network can also be trained inside the engine's mix ([`Mix`]): then the prediction is the
//! sigmoid of the mix's centipawns, part network and part hand-crafted evaluation, as the engine
//! plays it, and the network learns what the hand-crafted evaluation misses.

use std::io::{self, Read, Write};
use std::time::Instant;

use crate::chess::Color;
use crate::engine::eval::HandCrafted;

use super::data::Record;
use super::network::{
    BUCKET_RANGE, INPUTS, Network, QA, QB, SCALE, feature_index, output_bucket, valid_hidden_width,
};

/// Hyper-parameters of one training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    /// Output buckets by material.
    pub buckets: usize,
    pub epochs: usize,
    pub batch_size: usize,
    /// Learning rate at the start; it decays along a cosine to `lr * final_lr_fraction`.
    pub lr: f32,
    pub final_lr_fraction: f32,
    pub weight_decay: f32,
    pub target: Target,
    /// Share of the positions held out for validation: the last ones, so that they come from
    /// games the training never saw.
    pub validation_fraction: f32,
    /// Also train on every position with the a- and h-files swapped.
    pub mirror: bool,
    pub threads: usize,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 256,
            buckets: 1,
            epochs: 10,
            batch_size: 16_384,
            lr: 0.001,
            final_lr_fraction: 0.01,
            weight_decay: 0.01,
            target: Target {
                result_weight: 0.3,
                score_scale: SCALE as f32,
                mix: None,
            },
            validation_fraction: 0.02,
            mirror: true,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
        }
    }
}

/// Output-layer weights stay where int16 at QB cannot overflow in the SCReLU product.
const OUTPUT_WEIGHT_LIMIT: f32 = 127.0 / QB as f32;
/// Feature weights stay small enough that 32 of them cannot overflow an int16 accumulator.
const FEATURE_WEIGHT_LIMIT: f32 = 3.0;

/// The float network.
#[derive(Clone, PartialEq, Debug)]
pub struct Model {
    pub hidden: usize,
    pub feature_weights: Vec<f32>,
    pub feature_bias: Vec<f32>,
    /// By output bucket, `2 * hidden` each.
    pub output_weights: Vec<f32>,
    /// By output bucket.
    pub output_bias: Vec<f32>,
}

/// A small deterministic generator for initialisation and shuffling.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [-limit, limit].
    fn uniform(&mut self, limit: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * unit - 1.0) * limit
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// Active features of a record from the side to move's and the opponent's view.
fn features(record: &Record) -> ([u16; 32], [u16; 32], usize) {
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    let mut n = 0;
    for (piece, sq) in record.pieces() {
        us[n] = feature_index(record.turn, piece, sq) as u16;
        them[n] = feature_index(!record.turn, piece, sq) as u16;
        n += 1;
    }
    (us, them, n)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network is trained to predict for a record, and how its output becomes a prediction.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Weight of the game result (0 = score only, 1 = result only).
    pub result_weight: f32,
    /// Centipawns per unit of the sigmoid's argument: a search score `s` counts as `sigmoid(s /
    /// score_scale)`. Near the scale at which scores predict results, the two parts agree.
    pub score_scale: f32,
    /// The mix the network is trained in; `None`: the network alone, its output times
    /// `score_scale` in centipawns.
    pub mix: Option<Mix>,
}

/// The engine's mix: `hce_share` of each score is the hand-crafted evaluation's, the rest the
/// network's output times `output_scale`. A network trained in it predicts sigmoid(mix /
/// score_scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mix {
    /// From 0 to 1: the engine's HandCraftedShare over 100.
    pub hce_share: f32,
    /// Centipawns per unit of the network's output: the exported file's scale.
    pub output_scale: f32,
}

impl Target {
    /// The blended target from the side to move's view.
    fn of(self, record: &Record) -> f32 {
        let (score, result) = match record.turn {
            Color::White => (f32::from(record.white_score), record.result.score()),
            Color::Black => (-f32::from(record.white_score), 1.0 - record.result.score()),
        };
        self.result_weight * result + (1.0 - self.result_weight) * sigmoid(score / self.score_scale)
    }

    /// What the network's raw output is multiplied by in the sigmoid's argument.
    fn gain(self) -> f32 {
        self.mix.map_or(1.0, |mix| {
            (1.0 - mix.hce_share) * mix.output_scale / self.score_scale
        })
    }

    /// What is added to the network's part of the sigmoid's argument for each record: the mix's
    /// hand-crafted share, computed once (all zero for a network trained alone).
    pub fn offsets(self, records: &[Record], threads: usize) -> Vec<f32> {
        let Some(mix) = self.mix else {
            return vec![0.0; records.len()];
        };
        let per_centipawn = mix.hce_share / self.score_scale;
        let chunk = records.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            let handles: Vec<_> = records
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|r| {
                                // Records are checked when read; one that is not a position has
                                // no hand-crafted value to add.
                                r.to_position().map_or(0.0, |pos| {
                                    HandCrafted.evaluate(&pos) as f32 * per_centipawn
                                })
                            })
                            .collect::<Vec<f32>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("offset thread"))
                .collect()
        })
    }

    /// The expected score for a raw `output` and its record's offset.
    fn predict(self, output: f32, offset: f32) -> f32 {
        sigmoid(self.gain() * output + offset)
    }
}

#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Gradients of one batch (or one thread's share of it).
struct Gradients {
    feature_weights: Vec<f32>,
    feature_bias: Vec<f32>,
    output_weights: Vec<f32>,
    output_bias: Vec<f32>,
    loss: f64,
}

impl Gradients {
    fn zeros(model: &Model) -> Gradients {
        Gradients {
            feature_weights: vec![0.0; model.feature_weights.len()],
            feature_bias: vec![0.0; model.hidden],
            output_weights: vec![0.0; model.output_weights.len()],
            output_bias: vec![0.0; model.buckets()],
            loss: 0.0,
        }
    }

    fn add(&mut self, other: &Gradients) {
        for (a, b) in self.feature_weights.iter_mut().zip(&other.feature_weights) {
            *a += b;
        }
        for (a, b) in self.feature_bias.iter_mut().zip(&other.feature_bias) {
            *a += b;
        }
        for (a, b) in self.output_weights.iter_mut().zip(&other.output_weights) {
            *a += b;
        }
        for (a, b) in self.output_bias.iter_mut().zip(&other.output_bias) {
            *a += b;
        }
        self.loss += other.loss;
    }
}

impl Model {
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let feature_limit = 1.0 / (INPUTS as f32).sqrt();
        let output_limit = 1.0 / (2.0 * hidden as f32).sqrt();
        Model {
            hidden,
            feature_weights: (0..INPUTS * hidden)
                .map(|_| rng.uniform(feature_limit))
                .collect(),
            feature_bias: (0..hidden).map(|_| rng.uniform(feature_limit)).collect(),
            output_weights: (0..2 * hidden * buckets)
                .map(|_| rng.uniform(output_limit))
                .collect(),
            output_bias: vec![0.0; buckets],
        }
    }

    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The same first layer with `buckets` output layers, each a copy of this model's first:
    /// how a network without buckets warm-starts one with them.
    pub fn with_buckets(self, buckets: usize) -> Model {
        let first = &self.output_weights[..2 * self.hidden];
        Model {
            output_weights: first.repeat(buckets),
            output_bias: vec![self.output_bias[0]; buckets],
            ..self
        }
    }

    fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.feature_bias);
        for &f in active {
            let column = &self.feature_weights[f as usize * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(column) {
                *a += w;
            }
        }
    }

    /// Raw output (sigmoid of it is the expected score) for the side to move.
    pub fn forward(&self, record: &Record) -> f32 {
        let (us, them, n) = features(record);
        let mut acc_us = vec![0.0; self.hidden];
        let mut acc_them = vec![0.0; self.hidden];
        self.accumulate(&us[..n], &mut acc_us);
        self.accumulate(&them[..n], &mut acc_them);
        self.output(&acc_us, &acc_them, self.bucket(n))
    }

    fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces as u32, self.buckets())
    }

    fn output(&self, acc_us: &[f32], acc_them: &[f32], bucket: usize) -> f32 {
        let weights = &self.output_weights[2 * self.hidden * bucket..][..2 * self.hidden];
        let (w_us, w_them) = weights.split_at(self.hidden);
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        dot(acc_us, w_us) + dot(acc_them, w_them) + self.output_bias[bucket]
    }

    /// Adds one record's loss gradient to `grads`; `offset` is its [`Target::offsets`] entry.
    fn backward(
        &self,
        record: &Record,
        offset: f32,
        target: Target,
        grads: &mut Gradients,
        scratch: &mut [Vec<f32>; 3],
    ) {
        let (us, them, n) = features(record);
        let [acc_us, acc_them, d_acc_values] = scratch;
        self.accumulate(&us[..n], acc_us);
        self.accumulate(&them[..n], acc_them);
        let bucket = self.bucket(n);
        let out = self.output(acc_us, acc_them, bucket);
        let predicted = target.predict(out, offset);
        let error = predicted - target.of(record);
        grads.loss += f64::from(error * error);
        let d_out = 2.0 * error * predicted * (1.0 - predicted) * target.gain();
        grads.output_bias[bucket] += d_out;

        let hidden = self.hidden;
        let layer = 2 * hidden * bucket;
        for (side, (acc, active)) in [(&*acc_us, &us[..n]), (&*acc_them, &them[..n])]
            .into_iter()
            .enumerate()
        {
            let weights = &self.output_weights[layer + side * hidden..][..hidden];
            let out_grads = &mut grads.output_weights[layer + side * hidden..][..hidden];
            for i in 0..hidden {
                let a = acc[i];
                out_grads[i] += d_out * screlu(a);
                d_acc_values[i] = if a > 0.0 && a < 1.0 {
                    d_out * weights[i] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (b, d) in grads.feature_bias.iter_mut().zip(d_acc_values.iter()) {
                *b += d;
            }
            for &f in active {
                let column = &mut grads.feature_weights[f as usize * hidden..][..hidden];
                for (g, d) in column.iter_mut().zip(d_acc_values.iter()) {
                    *g += d;
                }
            }
        }
    }

    /// Rounds into the int16 network, whose output times `score_scale` (the training's) is in
    /// centipawns.
    pub fn quantise(&self, score_scale: f32) -> Network {
        let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network::new(
            self.feature_weights.iter().map(|&w| q16(w, QA)).collect(),
            self.feature_bias.iter().map(|&b| q16(b, QA)).collect(),
            self.output_weights.iter().map(|&w| q16(w, QB)).collect(),
            self.output_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        )
        .expect("a model of a valid width quantises to a valid network")
        .with_scale(score_scale.round() as i32)
    }

    /// The float model a quantised network rounds back to: how training warm-starts from a
    /// network file when its checkpoint is gone. The file's output scale is not part of the
    /// model (it only says what the raw output means in centipawns).
    pub fn from_network(net: &Network) -> Model {
        let unq = |q: i16, scale: i32| f32::from(q) / scale as f32;
        Model {
            hidden: net.hidden(),
            feature_weights: net.feature_weights.iter().map(|&q| unq(q, QA)).collect(),
            feature_bias: net.feature_bias.iter().map(|&q| unq(q, QA)).collect(),
            output_weights: net.output_weights.iter().map(|&q| unq(q, QB)).collect(),
            output_bias: net
                .output_bias
                .iter()
                .map(|&q| q as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// Float checkpoint: magic, hidden width, output buckets, then every parameter as f32
    /// little-endian.
    pub fn save<W: Write>(&self, out: &mut W) -> io::Result<()> {
        out.write_all(CHECKPOINT_MAGIC)?;
        out.write_all(&(self.hidden as u32).to_le_bytes())?;
        out.write_all(&(self.buckets() as u32).to_le_bytes())?;
        for v in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias)
        {
            out.write_all(&v.to_le_bytes())?;
        }
        Ok(())
    }

    pub fn load<R: Read>(input: &mut R) -> io::Result<Model> {
        Self::read_checkpoint(input).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => io::Error::new(
                io::ErrorKind::InvalidData,
                "too short for a training checkpoint (truncated, or another kind of file)",
            ),
            _ => e,
        })
    }

    fn read_checkpoint<R: Read>(input: &mut R) -> io::Result<Model> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic)?;
        if &magic != CHECKPOINT_MAGIC && &magic != CHECKPOINT_MAGIC_ONE_BUCKET {
            return Err(bad("not a kibitzer training checkpoint"));
        }
        let mut read_u32 = || -> io::Result<usize> {
            let mut word = [0u8; 4];
            input.read_exact(&mut word)?;
            Ok(u32::from_le_bytes(word) as usize)
        };
        let hidden = read_u32()?;
        if !valid_hidden_width(hidden) {
            return Err(bad("bad hidden width in checkpoint"));
        }
        let buckets = if &magic == CHECKPOINT_MAGIC {
            read_u32()?
        } else {
            1
        };
        if !BUCKET_RANGE.contains(&buckets) {
            return Err(bad("bad output bucket count in checkpoint"));
        }
        let mut read_f32s = |n: usize| -> io::Result<Vec<f32>> {
            let mut bytes = vec![0u8; 4 * n];
            input.read_exact(&mut bytes)?;
            Ok(bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect())
        };
        let feature_weights = read_f32s(INPUTS * hidden)?;
        let feature_bias = read_f32s(hidden)?;
        let output_weights = read_f32s(2 * hidden * buckets)?;
        let output_bias = read_f32s(buckets)?;
        Ok(Model {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"KBZCKPT2";
/// Checkpoints from before output buckets: no bucket count, one output layer.
const CHECKPOINT_MAGIC_ONE_BUCKET: &[u8; 8] = b"KBZCKPT\0";

/// AdamW moments for every parameter, in the model's order.
struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(parameters: usize) -> AdamW {
        AdamW {
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
            step: 0,
        }
    }

    fn update(
        &mut self,
        model: &mut Model,
        grads: &Gradients,
        lr: f32,
        weight_decay: f32,
        scale: f32,
    ) {
        self.step += 1;
        let bias1 = 1.0 - Self::BETA1.powi(self.step);
        let bias2 = 1.0 - Self::BETA2.powi(self.step);
        let mut offset = 0;
        let mut apply = |params: &mut [f32], g: &[f32], limit: f32, decay: f32| {
            let m = &mut self.m[offset..offset + params.len()];
            let v = &mut self.v[offset..offset + params.len()];
            for i in 0..params.len() {
                let grad = g[i] * scale;
                m[i] = Self::BETA1 * m[i] + (1.0 - Self::BETA1) * grad;
                v[i] = Self::BETA2 * v[i] + (1.0 - Self::BETA2) * grad * grad;
                let update = (m[i] / bias1) / ((v[i] / bias2).sqrt() + Self::EPSILON);
                params[i] -= lr * (update + decay * params[i]);
                params[i] = params[i].clamp(-limit, limit);
            }
            offset += params.len();
        };
        apply(
            &mut model.feature_weights,
            &grads.feature_weights,
            FEATURE_WEIGHT_LIMIT,
            weight_decay,
        );
        apply(
            &mut model.feature_bias,
            &grads.feature_bias,
            FEATURE_WEIGHT_LIMIT,
            0.0,
        );
        apply(
            &mut model.output_weights,
            &grads.output_weights,
            OUTPUT_WEIGHT_LIMIT,
            weight_decay,
        );
        apply(&mut model.output_bias, &grads.output_bias, f32::MAX, 0.0);
    }
}

/// What the trainer reports after each epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub lr: f32,
    pub positions_per_second: f64,
}

/// Sums gradients over `batch` (records with their offsets) on `threads` threads.
fn batch_gradients(
    model: &Model,
    batch: &[(&Record, f32)],
    target: Target,
    threads: usize,
) -> Gradients {
    let chunk = batch.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut grads = Gradients::zeros(model);
                    let mut scratch = [
                        vec![0.0; model.hidden],
                        vec![0.0; model.hidden],
                        vec![0.0; model.hidden],
                    ];
                    for &(record, offset) in part {
                        model.backward(record, offset, target, &mut grads, &mut scratch);
                    }
                    grads
                })
            })
            .collect();
        let mut total = Gradients::zeros(model);
        for h in handles {
            total.add(&h.join().expect("training thread panicked"));
        }
        total
    })
}

/// Mean loss over `records` (with their [`Target::offsets`]) without updating anything.
pub fn evaluate_loss(
    model: &Model,
    records: &[Record],
    offsets: &[f32],
    target: Target,
    threads: usize,
) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .zip(offsets.chunks(chunk))
            .map(|(part, offsets)| {
                s.spawn(move || {
                    part.iter()
                        .zip(offsets)
                        .map(|(r, &offset)| {
                            let e = target.predict(model.forward(r), offset) - target.of(r);
                            f64::from(e * e)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    total / records.len() as f64
}

/// How many of `total` records [`train`] holds out for validation: the last ones, and never all.
pub fn held_out_len(total: usize, validation_fraction: f32) -> usize {
    ((total as f32 * validation_fraction) as usize).min(total.saturating_sub(1))
}

/// Trains `model` on `records` (split, mirrored and shuffled here); calls `on_epoch` after each epoch
/// (to save checkpoints and report) and `on_batch` with the fraction of the epoch done.
pub fn train(
    model: &mut Model,
    mut records: Vec<Record>,
    config: &TrainConfig,
    mut on_batch: impl FnMut(usize, f64),
    mut on_epoch: impl FnMut(&Model, &EpochReport),
) {
    let mut rng = Rng::new(config.seed);
    let validation_len = held_out_len(records.len(), config.validation_fraction);
    let validation = records.split_off(records.len() - validation_len);
    if config.mirror {
        let mirrored: Vec<Record> = records.iter().map(Record::mirrored).collect();
        records.extend(mirrored);
    }
    let offsets = config.target.offsets(&records, config.threads);
    let validation_offsets = config.target.offsets(&validation, config.threads);
    let mut order: Vec<u32> = (0..records.len() as u32).collect();
    let parameters = model.feature_weights.len()
        + model.feature_bias.len()
        + model.output_weights.len()
        + model.output_bias.len();
    let mut optimizer = AdamW::new(parameters);
    let batches_per_epoch = records.len().div_ceil(config.batch_size).max(1);
    let total_steps = (batches_per_epoch * config.epochs).max(1);
    let mut step = 0;

    for epoch in 1..=config.epochs {
        let started = Instant::now();
        rng.shuffle(&mut order);
        let mut loss_sum = 0.0;
        let mut lr = config.lr;
        for (batch_index, batch) in order.chunks(config.batch_size).enumerate() {
            let progress = step as f32 / total_steps as f32;
            let floor = config.final_lr_fraction;
            lr = config.lr
                * (floor + (1.0 - floor) * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let batch_records: Vec<(&Record, f32)> = batch
                .iter()
                .map(|&i| (&records[i as usize], offsets[i as usize]))
                .collect();
            let grads = batch_gradients(model, &batch_records, config.target, config.threads);
            loss_sum += grads.loss;
            optimizer.update(
                model,
                &grads,
                lr,
                config.weight_decay,
                1.0 / batch.len() as f32,
            );
            step += 1;
            on_batch(epoch, (batch_index + 1) as f64 / batches_per_epoch as f64);
        }
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / records.len().max(1) as f64,
            validation_loss: evaluate_loss(
                model,
                &validation,
                &validation_offsets,
                config.target,
                config.threads,
            ),
            lr,
            positions_per_second: records.len() as f64 / started.elapsed().as_secs_f64().max(1e-9),
        };
        on_epoch(model, &report);
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::WhiteResult;
    use super::*;
    use crate::chess::Position;

    fn records() -> Vec<Record> {
        // Material decides: positions with an extra queen for White are won, and vice versa.
        let fens = [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900, WhiteResult::Win),
            ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 900, WhiteResult::Win),
            ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900, WhiteResult::Loss),
            ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", -900, WhiteResult::Loss),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, WhiteResult::Draw),
        ];
        fens.iter()
            .cycle()
            .take(500)
            .map(|&(fen, score, result)| {
                Record::new(&Position::from_fen(fen).unwrap(), score, result, None)
            })
            .collect()
    }

    #[test]
    fn training_lowers_the_loss_and_quantises_faithfully() {
        let data = records();
        let config = TrainConfig {
            hidden: 16,
            epochs: 30,
            batch_size: 64,
            lr: 0.01,
            validation_fraction: 0.1,
            threads: 2,
            ..TrainConfig::default()
        };
        let mut model = Model::new(config.hidden, config.buckets, 3);
        let offsets = config.target.offsets(&data, 2);
        assert!(offsets.iter().all(|&o| o == 0.0));
        let before = evaluate_loss(&model, &data, &offsets, config.target, 2);
        let mut last = None;
        train(
            &mut model,
            data.clone(),
            &config,
            |_, _| {},
            |_, r| last = Some(r.clone()),
        );
        let after = evaluate_loss(&model, &data, &offsets, config.target, 2);
        assert!(after < before / 4.0, "loss {before} -> {after}");
        assert_eq!(last.map(|r| r.epoch), Some(30));

        // The quantised network agrees with the float model to within rounding.
        let net = model.quantise(config.target.score_scale);
        for record in data.iter().take(5) {
            let pos = record.to_position().unwrap();
            let float_cp = model.forward(record) * config.target.score_scale;
            let int_cp = net.evaluate_from_scratch(&pos) as f32;
            // Rounding errors grow with the value: a few centipawns plus 2%.
            let tolerance = 5.0 + 0.02 * float_cp.abs();
            assert!(
                (float_cp - int_cp).abs() < tolerance,
                "{float_cp} vs {int_cp}"
            );
        }
        // The winning side to move is seen as winning.
        assert!(model.forward(&data[0]) > 0.5);
        assert!(model.forward(&data[2]) < -0.5);
    }

    #[test]
    fn a_network_trained_in_the_mix_scores_as_the_engine_mixes_it() {
        use crate::engine::eval::Evaluation;
        use std::sync::Arc;

        let data = records();
        let target = Target {
            result_weight: 0.3,
            score_scale: 150.0,
            mix: Some(Mix {
                hce_share: 0.5,
                output_scale: 285.0,
            }),
        };
        let config = TrainConfig {
            hidden: 16,
            epochs: 30,
            batch_size: 64,
            lr: 0.01,
            validation_fraction: 0.1,
            threads: 2,
            target,
            ..TrainConfig::default()
        };
        let offsets = target.offsets(&data, 2);
        // White to move a queen up: the hand-crafted half is a positive offset.
        assert!(offsets[0] > 1.0, "{}", offsets[0]);
        let mut model = Model::new(config.hidden, config.buckets, 3);
        let before = evaluate_loss(&model, &data, &offsets, target, 2);
        train(&mut model, data.clone(), &config, |_, _| {}, |_, _| {});
        let after = evaluate_loss(&model, &data, &offsets, target, 2);
        assert!(after < before, "loss {before} -> {after}");

        // The engine's mix of the exported network is the mix the model was trained as.
        let evaluation = Evaluation::Nnue {
            network: Arc::new(model.quantise(285.0)),
            source: "test".to_owned(),
            hce_share: 50,
        };
        for (record, offset) in data.iter().zip(&offsets).take(5) {
            let trained = (target.gain() * model.forward(record) + offset) * target.score_scale;
            let played = evaluation.evaluate(&record.to_position().unwrap()) as f32;
            assert!(
                (trained - played).abs() < 5.0 + 0.02 * trained.abs(),
                "{trained} vs {played}"
            );
        }
    }

    #[test]
    fn checkpoints_round_trip() {
        let model = Model::new(16, 4, 9);
        let mut bytes = Vec::new();
        model.save(&mut bytes).unwrap();
        assert_eq!(Model::load(&mut bytes.as_slice()).unwrap(), model);
        // A checkpoint from before buckets loads as one bucket.
        let single = Model::new(16, 1, 9);
        let mut old = CHECKPOINT_MAGIC_ONE_BUCKET.to_vec();
        old.extend_from_slice(&16u32.to_le_bytes());
        let mut new = Vec::new();
        single.save(&mut new).unwrap();
        old.extend_from_slice(&new[16..]);
        assert_eq!(Model::load(&mut old.as_slice()).unwrap(), single);
        let short = Model::load(&mut &bytes[..20]).unwrap_err();
        assert_eq!(short.kind(), std::io::ErrorKind::InvalidData);
        assert!(short.to_string().contains("too short"), "{short}");
        assert!(Model::load(&mut &b"garbage!garbage!"[..]).is_err());
    }

    #[test]
    fn a_network_file_rounds_back_to_its_model() {
        let model = Model::new(32, 3, 5);
        let net = model.quantise(285.0);
        let back = Model::from_network(&net);
        assert_eq!((back.hidden, back.buckets()), (32, 3));
        // Quantising again gives the same network, and the float output is within rounding.
        assert_eq!(back.quantise(285.0), net);
        for record in records().iter().take(5) {
            assert!((back.forward(record) - model.forward(record)).abs() < 0.02);
        }
    }
}
