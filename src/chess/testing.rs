//! Helpers for tests across the crate.

use super::{Move, Position};

/// A game of random legal moves from `fen`, at most `plies` long (shorter if it reaches mate or
/// stalemate): each position with the move played from it. `seed` drives a small LCG and is
/// left where it stopped, so successive games differ.
pub fn random_game(fen: &str, plies: usize, seed: &mut u64) -> Vec<(Position, Move)> {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut game = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(*seed >> 33) as usize % moves.len()];
        game.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    game
}
