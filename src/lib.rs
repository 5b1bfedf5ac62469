//! Kibitzer: a terminal chess program with its own engine.
//!
//! `chess` depends on nothing; `engine` and `game` build on it; `book`, `tablebase`, `engines`
//! (external UCI engines), `uci` (our UCI front end) and `analysis` on those; the interface
//! (`tui`) on all but `uci`. ARCHITECTURE.md is the map, and
//! `tests/layering.rs` fails on any import it does not allow.
pub mod analysis;
pub mod book;
pub mod chess;
pub mod db;
pub mod engine;
pub mod engines;
pub mod game;
pub mod tablebase;
#[cfg(test)]
mod test_data;
pub mod tui;
pub mod uci;
pub mod xboard;
