//! The trainer: the float [`Model`], trained on [`TrainingRecord`]s with AdamW on every core, then
//! quantised into a network file (see `model` for what it is trained to predict).

use std::time::Instant;

use crate::chess::Rng;

use super::data::TrainingRecord;
use super::model::{FEATURE_WEIGHT_LIMIT, Gradients, OUTPUT_WEIGHT_LIMIT, on_threads};
pub use super::model::{Mix, Model, Target};
use super::network::SCALE;

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
    /// Also train on every position with the a- and h-files swapped (networks without king
    /// buckets only: with them, the swapped position has the same features).
    pub mirror: bool,
    /// Take each batch's gradients on the weights rounded as the network file stores them, and
    /// apply them to the float weights (a straight-through estimate): the network learns to
    /// work with its rounding.
    pub rounded_forward: bool,
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
            rounded_forward: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
        }
    }
}
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
    batch: &[(&TrainingRecord, f32)],
    target: Target,
    threads: usize,
) -> Gradients {
    let parts = on_threads(batch.len(), threads, |range| {
        let mut grads = Gradients::zeros(model);
        let mut scratch = [
            vec![0.0; model.hidden],
            vec![0.0; model.hidden],
            vec![0.0; model.hidden],
        ];
        for &(record, offset) in &batch[range] {
            model.backward(record, offset, target, &mut grads, &mut scratch);
        }
        grads
    });
    let mut total = Gradients::zeros(model);
    for part in &parts {
        total.add(part);
    }
    total
}

/// Mean loss over `records` (with their [`Target::offsets`]) without updating anything.
pub fn evaluate_loss(
    model: &Model,
    records: &[TrainingRecord],
    offsets: &[f32],
    target: Target,
    threads: usize,
) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let parts = on_threads(records.len(), threads, |range| {
        records[range.clone()]
            .iter()
            .zip(&offsets[range])
            .map(|(r, &offset)| {
                let e = target.predict(model.forward(r), offset) - target.of(r);
                f64::from(e * e)
            })
            .sum::<f64>()
    });
    parts.iter().sum::<f64>() / records.len() as f64
}

/// How many of `total` records [`train`] holds out for validation: the last ones, and never all.
pub fn held_out_len(total: usize, validation_fraction: f32) -> usize {
    ((total as f32 * validation_fraction) as usize).min(total.saturating_sub(1))
}

/// Trains `model` on `records` (split, mirrored and shuffled here); calls `on_epoch` after each epoch
/// (to save checkpoints and report) and `on_batch` with the fraction of the epoch done.
pub fn train(
    model: &mut Model,
    mut records: Vec<TrainingRecord>,
    config: &TrainConfig,
    mut on_batch: impl FnMut(usize, f64),
    mut on_epoch: impl FnMut(&Model, &EpochReport),
) {
    let mut rng = Rng::new(config.seed);
    let validation_len = held_out_len(records.len(), config.validation_fraction);
    let validation = records.split_off(records.len() - validation_len);
    if config.mirror {
        let mirrored: Vec<TrainingRecord> = records.iter().map(TrainingRecord::mirrored).collect();
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
            let batch_records: Vec<(&TrainingRecord, f32)> = batch
                .iter()
                .map(|&i| (&records[i as usize], offsets[i as usize]))
                .collect();
            let rounded = config.rounded_forward.then(|| model.rounded());
            let forward = rounded.as_ref().unwrap_or(model);
            let grads = batch_gradients(forward, &batch_records, config.target, config.threads);
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
        // Trained through its rounding, the network is judged as its file will be.
        let rounded = config.rounded_forward.then(|| model.rounded());
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / records.len().max(1) as f64,
            validation_loss: evaluate_loss(
                rounded.as_ref().unwrap_or(model),
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

    fn records() -> Vec<TrainingRecord> {
        // Material decides: positions with an extra queen for White are won, and vice versa.
        let fens = [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900, WhiteResult::Win),
            ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 900, WhiteResult::Win),
            ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900, WhiteResult::Loss),
            ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", -900, WhiteResult::Loss),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, WhiteResult::Draw),
            // Kings elsewhere, for networks with king buckets.
            ("6k1/8/8/8/8/8/8/1K1Q4 w - - 0 1", 900, WhiteResult::Win),
            ("1k1q4/8/8/8/8/8/8/6K1 b - - 0 1", -900, WhiteResult::Loss),
        ];
        fens.iter()
            .cycle()
            .take(500)
            .map(|&(fen, score, result)| {
                TrainingRecord::new(&Position::from_fen(fen).unwrap(), score, result, None)
            })
            .collect()
    }

    /// Trains `model` on `data` with `config`; the last epoch's report.
    fn train_to_the_end(
        model: &mut Model,
        data: &[TrainingRecord],
        config: &TrainConfig,
    ) -> EpochReport {
        let mut last = None;
        train(
            model,
            data.to_vec(),
            config,
            |_, _| {},
            |_, r| last = Some(r.clone()),
        );
        last.expect("at least one epoch")
    }

    /// A network small and fast enough to learn [`records`] in a test.
    fn small_config(target: Target) -> TrainConfig {
        TrainConfig {
            hidden: 16,
            epochs: 30,
            batch_size: 64,
            lr: 0.01,
            validation_fraction: 0.1,
            threads: 2,
            target,
            ..TrainConfig::default()
        }
    }

    #[test]
    fn training_lowers_the_loss_and_quantises_faithfully() {
        for king_buckets in [1, 6] {
            train_and_quantise(king_buckets);
        }
    }

    fn train_and_quantise(king_buckets: usize) {
        let data = records();
        let config = small_config(TrainConfig::default().target);
        let mut model =
            Model::new(config.hidden, config.buckets, 3).with_king_buckets(king_buckets);
        let offsets = config.target.offsets(&data, 2);
        assert!(offsets.iter().all(|&o| o == 0.0));
        let before = evaluate_loss(&model, &data, &offsets, config.target, 2);
        let last = train_to_the_end(&mut model, &data, &config);
        let after = evaluate_loss(&model, &data, &offsets, config.target, 2);
        assert!(after < before / 4.0, "loss {before} -> {after}");
        assert_eq!(last.epoch, 30);

        // The quantised network agrees with the float model to within rounding.
        let net = model.quantise(config.target.score_scale);
        assert_eq!(net.king_buckets(), king_buckets);
        for record in data.iter().take(7) {
            let pos = record.to_position().unwrap();
            let float_cp = model.forward(record) * config.target.score_scale;
            let int_cp = net.evaluate_from_scratch(&pos) as f32;
            // Rounding errors grow with the value: several centipawns plus 2% (up to 6 at a
            // value of 0 with king buckets).
            let tolerance = 8.0 + 0.02 * float_cp.abs();
            assert!(
                (float_cp - int_cp).abs() < tolerance,
                "{king_buckets} king buckets, {}: {float_cp} vs {int_cp}",
                pos.fen()
            );
        }
        // The winning side to move is seen as winning.
        assert!(model.forward(&data[0]) > 0.5);
        assert!(model.forward(&data[2]) < -0.5);
    }

    #[test]
    fn training_through_the_rounding_learns_and_reports_the_rounded_loss() {
        let data = records();
        let config = TrainConfig {
            rounded_forward: true,
            ..small_config(TrainConfig::default().target)
        };
        let offsets = vec![0.0; data.len()];
        let mut model = Model::new(config.hidden, config.buckets, 3);
        let before = evaluate_loss(&model.rounded(), &data, &offsets, config.target, 2);
        let last = train_to_the_end(&mut model, &data, &config);
        let after = evaluate_loss(&model.rounded(), &data, &offsets, config.target, 2);
        assert!(after < before / 4.0, "loss {before} -> {after}");
        // The held-out loss reported is the rounded network's, as its file will score.
        let held_out = &data[data.len() - held_out_len(data.len(), config.validation_fraction)..];
        let rounded_loss = evaluate_loss(
            &model.rounded(),
            held_out,
            &offsets[..held_out.len()],
            config.target,
            config.threads,
        );
        assert_eq!(last.validation_loss, rounded_loss);
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
        let config = small_config(target);
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
}
