//! Walking a line of the game tree in PGN order: each move with the comments around it, then
//! the alternatives to it as variations, with move numbers where the order calls for them
//! (`12.` before White's moves, `12...` before Black's after an interruption). The PGN writer
//! and the interface's move list both read the tree this way.

use crate::chess::Color;

use super::annotation::Comment;
use super::tree::{NodeId, Tree};

/// A move number as PGN prints it: `12.` before a White move, `12...` before a Black one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveNumber {
    pub fullmove: u32,
    pub black: bool,
}

impl std::fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dots = if self.black { "..." } else { "." };
        write!(f, "{}{dots}", self.fullmove)
    }
}

/// What a walk meets, in order.
pub trait LineVisitor {
    /// A comment before or after a move. Returns whether it was shown: a shown comment
    /// interrupts the moves, so the next Black move repeats its number.
    fn comment(&mut self, comment: &Comment) -> bool;
    /// The move of `node`, with its number when one is due.
    fn mv(&mut self, tree: &Tree, node: NodeId, number: Option<MoveNumber>);
    /// A variation (an alternative to the move just visited) begins.
    fn start_variation(&mut self);
    fn end_variation(&mut self);
    /// The variations after a move are done; `goes_on` when its line continues after them.
    fn end_variations(&mut self, _goes_on: bool) {}
}

/// Walks the line that starts with `child` (a move after `parent`) and, after each of its
/// moves, the alternatives to it. `force_number` gives the first move its number even when
/// Black plays it.
pub fn walk_line(
    tree: &Tree,
    mut parent: NodeId,
    mut child: NodeId,
    mut force_number: bool,
    v: &mut impl LineVisitor,
) {
    loop {
        let node = tree.node(child);
        if let Some(comment) = &node.comment_before {
            force_number |= v.comment(comment);
        }
        let pos = tree.position(parent);
        let black = pos.turn() == Color::Black;
        let number = (!black || force_number).then(|| MoveNumber {
            fullmove: pos.fullmoves(),
            black,
        });
        v.mv(tree, child, number);
        force_number = false;
        if let Some(comment) = &node.comment_after {
            force_number |= v.comment(comment);
        }
        let siblings = tree.node(parent).children();
        if siblings.first() == Some(&child) && siblings.len() > 1 {
            for &alternative in &siblings[1..] {
                v.start_variation();
                walk_line(tree, parent, alternative, true, v);
                v.end_variation();
            }
            v.end_variations(!node.children().is_empty());
            force_number = true;
        }
        match node.children().first() {
            Some(&next) => {
                parent = child;
                child = next;
            }
            None => break,
        }
    }
}
