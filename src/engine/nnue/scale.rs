//! How a network's centipawns compare with the hand-crafted evaluation's. The search's margins
//! and the strength levels are set in the hand-crafted scale, so a network's output scale is
//! fitted to it: least squares on quiet positions within 10 pawns.

use crate::chess::Position;
use crate::engine::eval::HandCrafted;
use crate::engine::eval::tune::{golden_section_minimum, sigmoid};

use super::Network;
use super::data::TrainingRecord;
use super::network::SCALE_RANGE;

/// Least squares `y = slope * x + intercept`, with the correlation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub slope: f64,
    pub intercept: f64,
    pub correlation: f64,
    pub points: usize,
}

pub fn fit(points: &[(f64, f64)]) -> Fit {
    let n = points.len().max(1) as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
        sxy += (x - mx) * (y - my);
    }
    let slope = sxy / sxx.max(f64::MIN_POSITIVE);
    Fit {
        slope,
        intercept: my - slope * mx,
        correlation: sxy / (sxx * syy).sqrt().max(f64::MIN_POSITIVE),
        points: points.len(),
    }
}

/// Beyond this either evaluation is no guide to the scale.
const WITHIN_CP: f64 = 1000.0;

/// Up to `sample` positions spread evenly over `records`, with their search scores, all from
/// the side to move's view.
pub fn sample_positions(records: &[TrainingRecord], sample: usize) -> Vec<(Position, i32)> {
    let step = (records.len() / sample.max(1)).max(1);
    records
        .iter()
        .step_by(step)
        .filter_map(|r| {
            let pos = r.to_position().ok()?;
            let sign = if pos.turn() == crate::chess::Color::White {
                1
            } else {
                -1
            };
            Some((pos, i32::from(r.white_score) * sign))
        })
        .collect()
}

/// The network's evaluation against the hand-crafted one on `positions` (quiet, within 10
/// pawns for both).
pub fn against_hand_crafted(network: &Network, positions: &[(Position, i32)]) -> Fit {
    let points: Vec<(f64, f64)> = positions
        .iter()
        .map(|(pos, _)| {
            (
                f64::from(HandCrafted.evaluate(pos)),
                f64::from(network.evaluate_from_scratch(pos)),
            )
        })
        .filter(|&(hce, nnue)| hce.abs() <= WITHIN_CP && nnue.abs() <= 2.0 * WITHIN_CP)
        .collect();
    fit(&points)
}

/// The network with its output scale set so that its slope against the hand-crafted
/// evaluation is 1, or unchanged where the fit is no guide (too few points, a far-off slope).
pub fn fitted_to_hand_crafted(network: Network, positions: &[(Position, i32)]) -> (Network, Fit) {
    let fit = against_hand_crafted(&network, positions);
    if fit.points < 100 || !(0.25..=4.0).contains(&fit.slope) {
        return (network, fit);
    }
    let scale = (f64::from(network.scale()) / fit.slope).round() as i32;
    (network.with_scale(scale), fit)
}

/// How the data's search scores predict its game results: positions counted by score (White's
/// view, 10-centipawn bins within 20 pawns) with their results summed, so that the scale `k`
/// of `sigmoid(score / k)` that fits the results best can be found. Training at that scale
/// makes a target's score part and result part agree.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultCurve {
    positions: Vec<u64>,
    /// White's points (1 a win, 0.5 a draw) by bin.
    points: Vec<f64>,
}

impl Default for ResultCurve {
    fn default() -> Self {
        ResultCurve {
            positions: vec![0; Self::BINS],
            points: vec![0.0; Self::BINS],
        }
    }
}

impl ResultCurve {
    const BIN_CP: i32 = 10;
    const WITHIN_CP: i32 = 2000;
    const BINS: usize = (2 * Self::WITHIN_CP / Self::BIN_CP + 1) as usize;

    /// Counts a position; scores beyond 20 pawns say nothing of the scale.
    pub fn add(&mut self, record: &TrainingRecord) {
        let score = i32::from(record.white_score);
        if score.abs() > Self::WITHIN_CP {
            return;
        }
        let bin = ((score + Self::WITHIN_CP + Self::BIN_CP / 2) / Self::BIN_CP) as usize;
        self.positions[bin] += 1;
        self.points[bin] += f64::from(record.result.score());
    }

    pub fn merge(&mut self, other: &ResultCurve) {
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            *a += b;
        }
        for (a, b) in self.points.iter_mut().zip(&other.points) {
            *a += b;
        }
    }

    /// The scale (centipawns) whose sigmoid fits the results with the least squared error;
    /// `None` without positions.
    pub fn fitted_scale(&self) -> Option<i32> {
        if self.positions.iter().all(|&n| n == 0) {
            return None;
        }
        // Per bin, the sum of (p - r)^2 is n p^2 - 2 p sum(r) + sum(r^2); the last term is the
        // same for every scale, so the comparison leaves it out.
        let loss = |k: f64| -> f64 {
            (0..Self::BINS)
                .filter(|&bin| self.positions[bin] > 0)
                .map(|bin| {
                    let cp = bin as i32 * Self::BIN_CP - Self::WITHIN_CP;
                    let p = sigmoid(f64::from(cp) / k);
                    self.positions[bin] as f64 * p * p - 2.0 * p * self.points[bin]
                })
                .sum()
        };
        let (lo, hi) = (*SCALE_RANGE.start(), *SCALE_RANGE.end());
        let k = golden_section_minimum(f64::from(lo), f64::from(hi), loss);
        Some(k.round() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::data::WhiteResult;

    #[test]
    fn the_result_scale_is_recovered_from_results_drawn_on_it() {
        // Scores spread evenly; White's points are exactly sigmoid(score / 150) per bin, as
        // wins and losses in that proportion.
        let mut curve = ResultCurve::default();
        let pos = Position::startpos();
        for cp in (-600..=600).step_by(10) {
            let p = sigmoid(f64::from(cp) / 150.0);
            let wins = (p * 1000.0).round() as usize;
            for i in 0..1000 {
                let result = if i < wins {
                    WhiteResult::Win
                } else {
                    WhiteResult::Loss
                };
                curve.add(&TrainingRecord::new(&pos, cp as i16, result, None));
            }
        }
        let k = curve.fitted_scale().unwrap();
        assert!((148..=152).contains(&k), "fitted {k}");
        assert_eq!(ResultCurve::default().fitted_scale(), None);
    }

    #[test]
    fn a_line_is_fitted_exactly() {
        let points: Vec<(f64, f64)> = (0..50)
            .map(|x| (f64::from(x), 2.0 * f64::from(x) + 3.0))
            .collect();
        let f = fit(&points);
        assert!((f.slope - 2.0).abs() < 1e-9 && (f.intercept - 3.0).abs() < 1e-9);
        assert!((f.correlation - 1.0).abs() < 1e-9);
    }
}
