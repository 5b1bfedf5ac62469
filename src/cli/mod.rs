//! One module per headless subcommand: argument structs and their `run` functions.
pub mod book;
pub mod bench;
pub mod perft;
pub mod uci;
pub mod pgn;
pub mod train;
