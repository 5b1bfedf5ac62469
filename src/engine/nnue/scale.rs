//! How a network's centipawns compare with the hand-crafted evaluation's. The search's margins
//! and the strength levels are set in the hand-crafted scale, so a network's output scale is
//! fitted to it: least squares on quiet positions within 10 pawns.

use crate::chess::Position;
use crate::engine::eval::HandCrafted;

use super::Network;
use super::data::Record;

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
pub fn sample_positions(records: &[Record], sample: usize) -> Vec<(Position, i32)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
