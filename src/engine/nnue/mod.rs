//! NNUE evaluation: a (768 x K -> H) x 2 -> 1 network with SCReLU and int16 weights (one set of
//! inputs per king bucket and one output layer per material bucket where the file has them),
//! evaluated
//! through per-ply accumulators that each move updates with a few feature columns.
//!
//! [`Network`] is the immutable, shared weights; [`NnueState`] is one search thread's
//! accumulator stack. The file format is in [`format`](mod@format).

mod accumulator;
pub mod data;
pub mod format;
pub mod games;
mod model;
mod network;
pub mod scale;
mod simd;
pub mod train;

pub use accumulator::{Delta, NnueState};
pub use format::NetworkFileError;
pub use network::{
    BUCKET_RANGE, INPUTS, KING_BUCKETS, KingFrame, Network, QA, QB, SCALE, SCALE_RANGE,
    active_features, feature_index, output_bucket, valid_hidden_width,
};
