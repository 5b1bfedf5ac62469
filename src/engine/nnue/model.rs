//! The float network the trainer works on: its forward and backward passes, what it is trained
//! to predict ([`Target`], alone or inside the engine's [`Mix`]), quantisation into a
//! [`Network`], and float checkpoints.
//!
//! Loss: squared error between sigmoid(output) and a target that blends the game result with
//! sigmoid(search score / score scale), from the side to move's view. The output times the score
//! scale is the evaluation in centipawns, matching the quantised network. Trained inside the
//! engine's mix, the prediction is instead the sigmoid of the mix's centipawns, part network and
//! part hand-crafted evaluation, as the engine plays it, and the network learns what the
//! hand-crafted evaluation misses.

use std::io::{self, Read, Write};

use crate::chess::{Color, Rng};
use crate::engine::eval::HandCrafted;

use super::data::TrainingRecord;
use super::network::{
    BUCKET_RANGE, INPUTS, KING_BUCKETS, KingFrame, Network, QA, QB, output_bucket,
    valid_hidden_width,
};

/// Output-layer weights stay where int16 at QB cannot overflow in the SCReLU product.
pub(super) const OUTPUT_WEIGHT_LIMIT: f32 = 127.0 / QB as f32;
/// Feature weights stay small enough that 32 of them cannot overflow an int16 accumulator.
pub(super) const FEATURE_WEIGHT_LIMIT: f32 = 3.0;

/// The float network.
#[derive(Clone, PartialEq, Debug)]
pub struct Model {
    pub hidden: usize,
    /// `INPUTS` rows of `hidden` weights per king bucket.
    pub feature_weights: Vec<f32>,
    pub feature_bias: Vec<f32>,
    /// By output bucket, `2 * hidden` each.
    pub output_weights: Vec<f32>,
    /// By output bucket.
    pub output_bias: Vec<f32>,
}

/// A weight as the network file stores it: `x * scale`, rounded, within int16.
fn q16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16
}

/// Uniform in [-limit, limit].
fn uniform(rng: &mut Rng, limit: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * limit
}

/// Active features of a record from the side to move's and the opponent's view, in a network
/// of `king_buckets`.
fn features(record: &TrainingRecord, king_buckets: usize) -> ([u16; 32], [u16; 32], usize) {
    let mut kings = [crate::chess::Square::E1, crate::chess::Square::E8];
    if king_buckets > 1 {
        for (piece, sq) in record.pieces() {
            if piece.role == crate::chess::Role::King {
                kings[piece.color.index()] = sq;
            }
        }
    }
    let frame = |side: Color| KingFrame::new(king_buckets, side, kings[side.index()]);
    let (us_frame, them_frame) = (frame(record.turn), frame(!record.turn));
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    let mut n = 0;
    for (piece, sq) in record.pieces() {
        us[n] = us_frame.feature(record.turn, piece, sq) as u16;
        them[n] = them_frame.feature(!record.turn, piece, sq) as u16;
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
    pub(super) fn of(self, record: &TrainingRecord) -> f32 {
        let (score, result) = match record.turn {
            Color::White => (f32::from(record.white_score), record.result.score()),
            Color::Black => (-f32::from(record.white_score), 1.0 - record.result.score()),
        };
        self.result_weight * result + (1.0 - self.result_weight) * sigmoid(score / self.score_scale)
    }

    /// What the network's raw output is multiplied by in the sigmoid's argument.
    pub(super) fn gain(self) -> f32 {
        self.mix.map_or(1.0, |mix| {
            (1.0 - mix.hce_share) * mix.output_scale / self.score_scale
        })
    }

    /// What is added to the network's part of the sigmoid's argument for each record: the mix's
    /// hand-crafted share, computed once (all zero for a network trained alone).
    pub fn offsets(self, records: &[TrainingRecord], threads: usize) -> Vec<f32> {
        let Some(mix) = self.mix.filter(|mix| mix.hce_share > 0.0) else {
            return vec![0.0; records.len()];
        };
        let per_centipawn = mix.hce_share / self.score_scale;
        on_threads(records.len(), threads, |range| {
            records[range]
                .iter()
                .map(|r| {
                    // Records are checked when read; one that is not a position has no
                    // hand-crafted value to add.
                    r.to_position()
                        .map_or(0.0, |pos| HandCrafted.evaluate(&pos) as f32 * per_centipawn)
                })
                .collect::<Vec<f32>>()
        })
        .concat()
    }

    /// The expected score for a raw `output` and its record's offset.
    pub(super) fn predict(self, output: f32, offset: f32) -> f32 {
        sigmoid(self.gain() * output + offset)
    }
}

/// Runs `work` on `threads` threads, each on one consecutive share of `0..len`; the results in
/// order.
pub(super) fn on_threads<R: Send>(
    len: usize,
    threads: usize,
    work: impl Fn(std::ops::Range<usize>) -> R + Sync,
) -> Vec<R> {
    let chunk = len.div_ceil(threads.max(1)).max(1);
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..len)
            .step_by(chunk)
            .map(|start| s.spawn(move || work(start..(start + chunk).min(len))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a trainer thread panicked"))
            .collect()
    })
}

#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Gradients of one batch (or one thread's share of it).
pub(super) struct Gradients {
    pub(super) feature_weights: Vec<f32>,
    pub(super) feature_bias: Vec<f32>,
    pub(super) output_weights: Vec<f32>,
    pub(super) output_bias: Vec<f32>,
    pub(super) loss: f64,
}

impl Gradients {
    pub(super) fn zeros(model: &Model) -> Gradients {
        Gradients {
            feature_weights: vec![0.0; model.feature_weights.len()],
            feature_bias: vec![0.0; model.hidden],
            output_weights: vec![0.0; model.output_weights.len()],
            output_bias: vec![0.0; model.buckets()],
            loss: 0.0,
        }
    }

    pub(super) fn add(&mut self, other: &Gradients) {
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
                .map(|_| uniform(&mut rng, feature_limit))
                .collect(),
            feature_bias: (0..hidden)
                .map(|_| uniform(&mut rng, feature_limit))
                .collect(),
            output_weights: (0..2 * hidden * buckets)
                .map(|_| uniform(&mut rng, output_limit))
                .collect(),
            output_bias: vec![0.0; buckets],
        }
    }

    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Sets of `INPUTS` feature rows, one per king bucket.
    pub fn king_buckets(&self) -> usize {
        self.feature_weights.len() / (INPUTS * self.hidden)
    }

    /// The same network with `king_buckets` copies of its first layer's inputs, one per king
    /// bucket: how a network without king buckets warm-starts one with them, which evaluates
    /// every position as it did until training sets the buckets apart.
    pub fn with_king_buckets(self, king_buckets: usize) -> Model {
        Model {
            feature_weights: self.feature_weights.repeat(king_buckets),
            ..self
        }
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
    pub fn forward(&self, record: &TrainingRecord) -> f32 {
        let (us, them, n) = features(record, self.king_buckets());
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
    pub(super) fn backward(
        &self,
        record: &TrainingRecord,
        offset: f32,
        target: Target,
        grads: &mut Gradients,
        scratch: &mut [Vec<f32>; 3],
    ) {
        let (us, them, n) = features(record, self.king_buckets());
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

    /// This model with every weight and bias on the grid its network file stores it on: the
    /// file, read back (the output scale plays no part in the weights).
    pub fn rounded(&self) -> Model {
        Model::from_network(&self.quantise(1.0))
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

    /// Float checkpoint: magic, hidden width, output buckets, king buckets, then every
    /// parameter as f32 little-endian.
    pub fn save<W: Write>(&self, out: &mut W) -> io::Result<()> {
        out.write_all(CHECKPOINT_MAGIC)?;
        out.write_all(&(self.hidden as u32).to_le_bytes())?;
        out.write_all(&(self.buckets() as u32).to_le_bytes())?;
        out.write_all(&(self.king_buckets() as u32).to_le_bytes())?;
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
        if ![
            CHECKPOINT_MAGIC,
            CHECKPOINT_MAGIC_NO_KINGS,
            CHECKPOINT_MAGIC_ONE_BUCKET,
        ]
        .contains(&&magic)
        {
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
        let buckets = if &magic == CHECKPOINT_MAGIC_ONE_BUCKET {
            1
        } else {
            read_u32()?
        };
        if !BUCKET_RANGE.contains(&buckets) {
            return Err(bad("bad output bucket count in checkpoint"));
        }
        let king_buckets = if &magic == CHECKPOINT_MAGIC {
            read_u32()?
        } else {
            1
        };
        if !KING_BUCKETS.contains(&king_buckets) {
            return Err(bad("bad king bucket count in checkpoint"));
        }
        let mut read_f32s = |n: usize| -> io::Result<Vec<f32>> {
            let mut bytes = vec![0u8; 4 * n];
            input.read_exact(&mut bytes)?;
            Ok(bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect())
        };
        let feature_weights = read_f32s(INPUTS * king_buckets * hidden)?;
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

const CHECKPOINT_MAGIC: &[u8; 8] = b"KBZCKPT3";
/// Checkpoints from before king buckets: no king bucket count, one set of inputs.
const CHECKPOINT_MAGIC_NO_KINGS: &[u8; 8] = b"KBZCKPT2";
/// Checkpoints from before output buckets: no bucket count, one output layer.
const CHECKPOINT_MAGIC_ONE_BUCKET: &[u8; 8] = b"KBZCKPT\0";

#[cfg(test)]
mod tests {
    use super::super::data::WhiteResult;
    use super::*;
    use crate::chess::Position;

    fn records() -> Vec<TrainingRecord> {
        records_of(&[
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "3qk3/8/8/8/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ])
    }

    fn records_of(fens: &[&str]) -> Vec<TrainingRecord> {
        fens.iter()
            .map(|fen| {
                TrainingRecord::new(
                    &Position::from_fen(fen).unwrap(),
                    0,
                    WhiteResult::Draw,
                    None,
                )
            })
            .collect()
    }

    #[test]
    fn training_features_are_the_engines() {
        let fens = [
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "1k1q4/8/8/8/8/8/8/6K1 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let record = TrainingRecord::new(&pos, 0, WhiteResult::Draw, None);
            for king_buckets in super::KING_BUCKETS {
                let (us, them, n) = features(&record, king_buckets);
                for (side, trained) in [(pos.turn(), &us[..n]), (!pos.turn(), &them[..n])] {
                    let mut trained: Vec<usize> = trained.iter().map(|&f| usize::from(f)).collect();
                    let mut engine: Vec<usize> =
                        super::super::network::active_features(&pos, side, king_buckets).collect();
                    trained.sort_unstable();
                    engine.sort_unstable();
                    assert_eq!(trained, engine, "{fen}, {king_buckets} king buckets");
                }
            }
        }
    }

    #[test]
    fn a_warm_start_into_king_buckets_evaluates_as_before() {
        let plain = Model::new(32, 2, 11);
        // Kings in every file group, on and off their first two ranks.
        let records = records_of(&[
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/5RK1 b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ]);
        let plain_net = plain.quantise(400.0);
        for king_buckets in [3, 6] {
            let kings = plain.clone().with_king_buckets(king_buckets);
            let kings_net = kings.quantise(400.0);
            for record in &records {
                assert_eq!(kings.forward(record), plain.forward(record));
                let pos = record.to_position().unwrap();
                assert_eq!(
                    kings_net.evaluate_from_scratch(&pos),
                    plain_net.evaluate_from_scratch(&pos)
                );
            }
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
        old.extend_from_slice(&new[20..]);
        assert_eq!(Model::load(&mut old.as_slice()).unwrap(), single);
        // One from before king buckets loads with one set of inputs.
        let mut no_kings = CHECKPOINT_MAGIC_NO_KINGS.to_vec();
        no_kings.extend_from_slice(&new[8..16]);
        no_kings.extend_from_slice(&new[20..]);
        assert_eq!(Model::load(&mut no_kings.as_slice()).unwrap(), single);
        let kings = Model::new(16, 2, 9).with_king_buckets(6);
        let mut bytes6 = Vec::new();
        kings.save(&mut bytes6).unwrap();
        let back = Model::load(&mut bytes6.as_slice()).unwrap();
        assert_eq!((back.king_buckets(), back.buckets()), (6, 2));
        assert_eq!(back, kings);
        let short = Model::load(&mut &bytes[..20]).unwrap_err();
        assert_eq!(short.kind(), std::io::ErrorKind::InvalidData);
        assert!(short.to_string().contains("too short"), "{short}");
        assert!(Model::load(&mut &b"garbage!garbage!"[..]).is_err());
    }

    #[test]
    fn a_rounded_model_is_its_network_file_read_back() {
        let model = Model::new(32, 3, 7).with_king_buckets(3);
        let rounded = model.rounded();
        assert_eq!(rounded, Model::from_network(&model.quantise(400.0)));
        assert_ne!(rounded, model);
        assert_eq!(rounded.rounded(), rounded);
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
