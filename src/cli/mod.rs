//! One module per headless subcommand: argument structs and their `run` functions.
pub mod annotate;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod perft;
pub mod pgn;
pub mod tb;
pub mod train;
pub mod tui;
pub mod uci;
