//! One module per headless subcommand: argument structs and their `run` functions.
pub mod book;
pub mod perft;
pub mod tui;
