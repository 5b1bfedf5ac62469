//! Opening names: the lichess chess-openings list (CC0, assets/openings/COPYING.txt), 3,807
//! named lines with their ECO codes, embedded in the binary. A position is named by the line
//! that reaches it, by any move order; a game by the deepest named position it passes.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::chess::Position;

const ECO_TSV: &str = include_str!("../../assets/openings/eco.tsv");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `B90`.
    pub eco: &'static str,
    /// `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

/// Named positions by their Polyglot key. Built on first use (a few milliseconds); where two
/// lines reach one position, the first in the list names it.
static BY_POSITION: LazyLock<HashMap<u64, Opening>> = LazyLock::new(|| {
    let mut map = HashMap::new();
    for line in ECO_TSV.lines().skip(1) {
        let mut fields = line.split('\t');
        let (Some(eco), Some(name), Some(moves)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        // The list is checked by a test; a line that does not replay names nothing.
        if let Ok(pos) = Position::startpos().play_sans(moves) {
            map.entry(pos.hash()).or_insert(Opening { eco, name });
        }
    }
    map
});

/// The opening this position belongs to, if a named line reaches it.
pub fn name_of(pos: &Position) -> Option<Opening> {
    BY_POSITION.get(&pos.hash()).copied()
}

/// The deepest named position among `positions` (a game's, in order).
pub fn classify<'a>(positions: impl IntoIterator<Item = &'a Position>) -> Option<Opening> {
    positions.into_iter().filter_map(name_of).last()
}

/// The opening of a game: the deepest named position of its main line.
pub fn of_game(game: &crate::game::Game) -> Option<Opening> {
    let tree = &game.tree;
    let line = std::iter::once(crate::game::NodeId::ROOT).chain(tree.mainline());
    classify(line.map(|n| tree.position(n)))
}

/// Sets the `ECO` and `Opening` tags from the game's main line where the game has none;
/// whether it set them.
pub fn fill_tags(game: &mut crate::game::Game) -> bool {
    let has = |tag: &str| {
        game.headers
            .get(tag)
            .is_some_and(|v| !v.is_empty() && v != "?")
    };
    if has("ECO") || has("Opening") {
        return false;
    }
    let Some(opening) = of_game(game) else {
        return false;
    };
    game.headers.set("ECO", opening.eco);
    game.headers.set("Opening", opening.name);
    true
}

/// How many lines the list names (for tests and `--help` texts).
pub fn count() -> usize {
    BY_POSITION.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(sans: &str) -> Vec<Position> {
        let mut positions = vec![Position::startpos()];
        for san in sans.split_whitespace() {
            let pos = positions.last().unwrap();
            let m = pos.parse_san(san).unwrap();
            positions.push(pos.play(m).unwrap());
        }
        positions
    }

    #[test]
    fn every_line_replays_and_names_its_position() {
        assert_eq!(ECO_TSV.lines().count(), 3808);
        for line in ECO_TSV.lines().skip(1) {
            let moves = line.split('\t').nth(2).unwrap();
            let sans: Vec<&str> = moves
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            assert_eq!(after(&sans.join(" ")).len(), sans.len() + 1, "{line}");
        }
        // Different lines may reach one position; nearly all name their own.
        assert!(count() > 3_500, "{}", count());
        let najdorf = classify(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"));
        assert_eq!(
            najdorf.map(|o| o.to_string()).as_deref(),
            Some("B90 Sicilian Defense: Najdorf Variation")
        );
    }

    #[test]
    fn transpositions_and_moves_past_the_book_keep_the_deepest_name() {
        // The Najdorf by another move order, then a move no line has.
        let other_order = classify(&after("e4 d6 d4 Nf6 Nc3 c5 Nf3 cxd4 Nxd4 a6 Rg1"));
        assert_eq!(other_order.map(|o| o.eco), Some("B90"));
        let queens_gambit = classify(&after("d4 d5 c4"));
        assert_eq!(queens_gambit.map(|o| o.name), Some("Queen's Gambit"));
        assert_eq!(classify(&after("")), None);
    }

    #[test]
    fn missing_tags_are_filled_and_present_ones_kept() {
        let mut game = crate::game::parse_all("1. d4 d5 2. c4 *").remove(0).game;
        assert!(fill_tags(&mut game));
        assert_eq!(game.headers.get("ECO"), Some("D06"));
        assert_eq!(game.headers.get("Opening"), Some("Queen's Gambit"));
        let mut tagged = crate::game::parse_all("[ECO \"A00\"]\n\n1. d4 d5 2. c4 *")
            .remove(0)
            .game;
        assert!(!fill_tags(&mut tagged));
        assert_eq!(tagged.headers.get("Opening"), None);
    }
}
