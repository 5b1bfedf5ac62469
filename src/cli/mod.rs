//! One module per headless subcommand: argument structs and their `run` functions.
pub mod perft;
pub mod tui;
