//! Helpers for tests across the crate.

use super::{Move, Position, Rng};

/// A game of random legal moves from `fen`, at most `plies` long (shorter if it reaches mate or
/// stalemate): each position with the move played from it. `rng` is left where it stopped, so
/// successive games differ.
pub fn random_game(fen: &str, plies: usize, rng: &mut Rng) -> Vec<(Position, Move)> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut game = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        game.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    game
}
