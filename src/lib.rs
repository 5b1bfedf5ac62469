//! Kibitzer: a terminal chess program with its own engine.
pub mod chess;
pub mod tui;
