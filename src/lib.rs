//! Kibitzer: a terminal chess program with its own engine.
//!
//! `chess` depends on nothing; `engine` builds on it; `uci`, `book`, `tablebase` and `game`
//! build on those; `analysis` grades and annotates games with all of them.
pub mod analysis;
pub mod book;
pub mod chess;
pub mod engine;
pub mod game;
pub mod tablebase;
#[cfg(test)]
mod test_data;
pub mod tui;
pub mod uci;
