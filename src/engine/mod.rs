//! The engine.
pub mod nnue;
