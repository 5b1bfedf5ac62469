//! The engines the interface plays and analyses with, below it: the client for external UCI
//! engines (the built-in engine is `crate::engine`), and the one crossing from the engine's
//! side-to-move scores to the White's-view scores of games and screens.

pub mod cecp;
pub mod external;
pub mod policy;
pub mod protocol;
pub mod score;
pub mod service;
pub mod settings;
