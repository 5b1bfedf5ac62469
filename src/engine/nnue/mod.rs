//! NNUE evaluation: a (768 -> H) x 2 -> 1 network with SCReLU and int16 weights, evaluated
//! through per-ply accumulators that each move updates with a few feature columns.
//!
//! [`Network`] is the immutable, shared weights; [`NnueState`] is one search thread's
//! accumulator stack. The file format is in [`format`].

mod accumulator;
pub mod data;
pub mod format;
pub mod games;
mod network;
pub mod scale;
mod simd;
pub mod train;

pub use accumulator::NnueState;
pub use format::NetworkFileError;
pub use network::{
    INPUTS, Network, QA, QB, SCALE, active_features, feature_index, valid_hidden_width,
};
