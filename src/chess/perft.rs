//! Perft: counting leaf nodes of the legal move tree, the standard correctness check for move
//! generation and a speed benchmark.

use super::moves::Move;
use super::position::Position;

/// Leaf count at `depth`. With `bulk`, the last ply counts moves instead of playing them.
pub fn perft(pos: &Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft(&child, depth - 1, bulk);
    }
    nodes
}

/// Perft per root move, in generation order.
pub fn divide(pos: &Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1, bulk))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_and_kiwipete() {
        let start = Position::startpos();
        assert_eq!(perft(&start, 4, true), 197_281);
        assert_eq!(perft(&start, 3, false), 8_902);
        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(perft(&kiwipete, 3, true), 97_862);
        let total: u64 = divide(&kiwipete, 2, true).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 2_039);
    }
}
