//! The quantised network: (768 -> H) x 2 perspectives -> 1 with SCReLU, int16 weights; the
//! output layer may have one set of weights per material bucket.

use crate::chess::{Color, Piece, Position, Square};

use super::format::{self, NetworkFileError};

/// Inputs per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Feature-transformer quantisation: 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// The training scale: the network's output times `SCALE` is the target in centipawns. A file
/// may carry another output scale, fitted so its centipawns match the hand-crafted evaluation's.
pub const SCALE: i32 = 400;
/// Output scales a file may carry.
pub const SCALE_RANGE: std::ops::RangeInclusive<i32> = 100..=1600;

/// Output buckets a file may have.
pub const BUCKET_RANGE: std::ops::RangeInclusive<usize> = 1..=16;

/// The output bucket of a position with `pieces` men on the board (kings included): equal
/// slices of 2..=32.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 31).min(buckets - 1)
}

/// Hidden widths the format and the SIMD loops support: multiples of 16 up to 4096.
pub fn valid_hidden_width(hidden: usize) -> bool {
    (16..=4096).contains(&hidden) && hidden.is_multiple_of(16)
}

/// Index of `piece` on `sq` seen from `perspective`: own pieces first, board mirrored for Black,
/// so both perspectives share one set of weights.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (relative_color, relative_sq) = match perspective {
        Color::White => (piece.color.index(), sq.index()),
        Color::Black => (1 - piece.color.index(), sq.index() ^ 56),
    };
    relative_color * 384 + piece.role.index() * 64 + relative_sq
}

/// Feature indices of every piece on the board, for one perspective.
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied().filter_map(move |sq| {
        pos.piece_at(sq)
            .map(|piece| feature_index(perspective, piece, sq))
    })
}

/// A loaded network. Immutable and shared by every search thread.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    hidden: usize,
    /// `INPUTS` rows of `hidden` weights.
    pub(super) feature_weights: Vec<i16>,
    pub(super) feature_bias: Vec<i16>,
    /// By bucket: side-to-move half then the other side's half.
    pub(super) output_weights: Vec<i16>,
    /// By bucket.
    pub(super) output_bias: Vec<i32>,
    /// Centipawns per unit of output.
    scale: i32,
}

impl Network {
    /// Builds a network from its parts, checking the sizes agree; there are as many output
    /// buckets as output biases.
    pub fn new(
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkFileError> {
        let hidden = feature_bias.len();
        if !valid_hidden_width(hidden)
            || !BUCKET_RANGE.contains(&output_bias.len())
            || feature_weights.len() != INPUTS * hidden
            || output_weights.len() != 2 * hidden * output_bias.len()
        {
            return Err(NetworkFileError::Shape {
                hidden,
                feature_weights: feature_weights.len(),
                output_weights: output_weights.len(),
            });
        }
        Ok(Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            scale: SCALE,
        })
    }

    /// The same network with another output scale (clamped to `SCALE_RANGE`).
    pub fn with_scale(self, scale: i32) -> Network {
        Network {
            scale: scale.clamp(*SCALE_RANGE.start(), *SCALE_RANGE.end()),
            ..self
        }
    }

    /// Centipawns per unit of output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// Reads the network file format (see [`format`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkFileError> {
        format::decode(bytes)
    }

    /// Writes the network file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(self)
    }

    /// Width of the hidden layer (per perspective).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (1: one output layer for every position).
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The weight column of one input feature.
    #[inline]
    pub(super) fn feature_column(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Evaluates from scratch (no accumulator): the reference the incremental path must match.
    pub fn evaluate_from_scratch(&self, pos: &Position) -> i32 {
        let mut accumulators = [self.feature_bias.clone(), self.feature_bias.clone()];
        for (perspective, acc) in Color::ALL.iter().zip(accumulators.iter_mut()) {
            for feature in active_features(pos, *perspective) {
                for (a, w) in acc.iter_mut().zip(self.feature_column(feature)) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        let (us, them) = match pos.turn() {
            Color::White => (&accumulators[0], &accumulators[1]),
            Color::Black => (&accumulators[1], &accumulators[0]),
        };
        self.output(us, them, pos.occupied().count())
    }

    /// The output layer on the two accumulators, in centipawns for the side to move, for a
    /// position with `pieces` men.
    #[inline]
    pub(super) fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let bucket = output_bucket(pieces, self.buckets());
        let weights = &self.output_weights[2 * self.hidden * bucket..][..2 * self.hidden];
        let (w_us, w_them) = weights.split_at(self.hidden);
        let sum = super::simd::screlu_dot(us, w_us) + super::simd::screlu_dot(them, w_them);
        (sum / QA + self.output_bias[bucket]) * self.scale / (QA * QB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Role;

    #[test]
    fn perspectives_mirror_each_other() {
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let black_pawn = Piece::new(Color::Black, Role::Pawn);
        assert_eq!(
            feature_index(Color::White, white_pawn, Square::E2),
            feature_index(Color::Black, black_pawn, Square::E7)
        );
        assert_eq!(feature_index(Color::White, black_pawn, Square::A1), 384);
        let king = Piece::new(Color::Black, Role::King);
        assert_eq!(feature_index(Color::White, king, Square::H8), 767);
    }

    #[test]
    fn buckets_split_the_material_evenly() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(32, 8), 7);
        let counts = (2..=32).fold([0; 8], |mut c, n| {
            c[output_bucket(n, 8)] += 1;
            c
        });
        assert!(counts.iter().all(|&c| (3..=5).contains(&c)), "{counts:?}");
    }
}
