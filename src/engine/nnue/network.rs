//! The quantised network: (768 x K -> H) x 2 perspectives -> 1 with SCReLU, int16 weights. The
//! first layer may have one set of 768 inputs per king bucket (K of them: where the
//! perspective's own king stands, from its own side, the board never mirrored), the output
//! layer one set of weights per material bucket.

use crate::chess::{Color, Piece, Position, Square};

use super::format::{self, NetworkFileError};

/// Inputs per perspective and king bucket: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;

/// King bucket counts a network may have: 1 (no buckets); 3, by the king's file (a-c, d-e,
/// f-h); 6, by its file and whether it is on its first two ranks.
///
/// The buckets are not mirrored to one half of the board, as HalfKA-style inputs often are:
/// in the mix the network corrects the hand-crafted evaluation, whose piece-square tables are
/// not symmetric left to right, so its correction is not either; a mirrored board cannot say
/// which half the king was on (NETWORKS.md, "King buckets unmirrored"). Unmirrored, a network
/// without buckets is one with every bucket the same, which a warm start copies exactly.
pub const KING_BUCKETS: [usize; 3] = [1, 3, 6];

/// Where a perspective's features go, fixed by where its own king stands: the first input of
/// its king bucket.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KingFrame {
    base: usize,
}

impl KingFrame {
    /// The frame of every perspective in a network without king buckets.
    pub const PLAIN: KingFrame = KingFrame { base: 0 };

    /// The frame for `perspective` with its king on `king`, in a network of `king_buckets`.
    #[inline]
    pub fn new(king_buckets: usize, perspective: Color, king: Square) -> KingFrame {
        if king_buckets == 1 {
            return KingFrame::PLAIN;
        }
        let relative = match perspective {
            Color::White => king.index(),
            Color::Black => king.index() ^ 56,
        };
        let file_group = match relative % 8 {
            0..=2 => 0,
            3 | 4 => 1,
            _ => 2,
        };
        let advanced = usize::from(king_buckets == 6 && relative >= 16);
        KingFrame {
            base: (file_group + 3 * advanced) * INPUTS,
        }
    }

    /// Index of `piece` on `sq` seen from `perspective` in this frame: own pieces first, board
    /// mirrored for Black, so both perspectives share one set of weights.
    #[inline]
    pub fn feature(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        self.base + feature_index(perspective, piece, sq)
    }
}
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

/// Feature indices of every piece on the board, for one perspective, in a network of
/// `king_buckets`.
pub fn active_features(
    pos: &Position,
    perspective: Color,
    king_buckets: usize,
) -> impl Iterator<Item = usize> + '_ {
    let frame = KingFrame::new(king_buckets, perspective, pos.king(perspective));
    pos.occupied().filter_map(move |sq| {
        pos.piece_at(sq)
            .map(|piece| frame.feature(perspective, piece, sq))
    })
}

/// A loaded network. Immutable and shared by every search thread.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    hidden: usize,
    king_buckets: usize,
    /// `INPUTS` rows of `hidden` weights per king bucket.
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
    /// buckets as output biases, and as many king buckets as sets of `INPUTS` feature rows.
    pub fn new(
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkFileError> {
        let hidden = feature_bias.len();
        let king_buckets = feature_weights.len() / (INPUTS * hidden.max(1));
        if !valid_hidden_width(hidden)
            || !BUCKET_RANGE.contains(&output_bias.len())
            || !KING_BUCKETS.contains(&king_buckets)
            || feature_weights.len() != INPUTS * king_buckets * hidden
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
            king_buckets,
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

    /// Reads the network file format (see [`format`](mod@super::format)).
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

    /// King buckets (1: one set of inputs wherever the kings stand).
    pub fn king_buckets(&self) -> usize {
        self.king_buckets
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
            for feature in active_features(pos, *perspective, self.king_buckets) {
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
    fn king_frames_keep_the_board_and_choose_a_set_of_inputs() {
        let knight = Piece::new(Color::White, Role::Knight);
        let plain = feature_index(Color::White, knight, Square::G1);
        assert_eq!(
            KingFrame::new(1, Color::White, Square::G1),
            KingFrame::PLAIN
        );
        // A king on g1, bucket 2 of three: the knight on g1 stays on g1, in the third set.
        let g1 = KingFrame::new(3, Color::White, Square::G1);
        assert_eq!(
            g1.feature(Color::White, knight, Square::G1),
            2 * INPUTS + plain
        );
        // Black's king on g8 is White's on g1, seen from its side.
        assert_eq!(KingFrame::new(3, Color::Black, Square::G8), g1);
        let bucket = |buckets, king| KingFrame::new(buckets, Color::White, king).base / INPUTS;
        let kings = [
            Square::A1,
            Square::C2,
            Square::D1,
            Square::E2,
            Square::F1,
            Square::H2,
            Square::B3,
            Square::E4,
            Square::G8,
        ];
        assert_eq!(kings.map(|k| bucket(3, k)), [0, 0, 1, 1, 2, 2, 0, 1, 2]);
        assert_eq!(kings.map(|k| bucket(6, k)), [0, 0, 1, 1, 2, 2, 3, 4, 5]);
        assert_eq!(
            KingFrame::new(6, Color::Black, Square::C7),
            KingFrame::new(6, Color::White, Square::C2)
        );
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
