//! Kibitzer: a terminal chess program with its own engine.
pub mod book;
pub mod chess;
pub mod tui;
