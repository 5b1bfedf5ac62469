//! The game tree: an arena of nodes, each the position after one move, with the mainline as the
//! first child and variations as the later ones. Node ids stay valid while the tree is edited;
//! deleted subtrees are only unlinked.

use crate::chess::{Move, Position, San};

use super::annotation::{Comment, Nag};

/// Index of a node in its game's arena. The root (the starting position) is `NodeId::ROOT`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    pub const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move in a game record: a chess move, or a null move (`--`, used in analysis).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameMove {
    Move(Move),
    Null,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EditError {
    #[error("{0} is not legal here")]
    Illegal(String),
    #[error("a null move is not allowed while in check")]
    NullInCheck,
    #[error("the starting position cannot be changed this way")]
    Root,
}

/// A node's continuations. Most nodes have one or none, which need no allocation: reading a
/// file of games makes millions of nodes.
#[derive(Clone, Debug, Default)]
enum Children {
    #[default]
    None,
    One(NodeId),
    Many(Vec<NodeId>),
}

impl Children {
    fn as_slice(&self) -> &[NodeId] {
        match self {
            Children::None => &[],
            Children::One(id) => std::slice::from_ref(id),
            Children::Many(ids) => ids,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [NodeId] {
        match self {
            Children::None => &mut [],
            Children::One(id) => std::slice::from_mut(id),
            Children::Many(ids) => ids,
        }
    }

    fn push(&mut self, id: NodeId) {
        *self = match std::mem::take(self) {
            Children::None => Children::One(id),
            Children::One(first) => Children::Many(vec![first, id]),
            Children::Many(mut ids) => {
                ids.push(id);
                Children::Many(ids)
            }
        };
    }

    fn remove(&mut self, id: NodeId) {
        let mut ids: Vec<NodeId> = self
            .as_slice()
            .iter()
            .copied()
            .filter(|&c| c != id)
            .collect();
        *self = match ids.len() {
            0 => Children::None,
            1 => Children::One(ids.remove(0)),
            _ => Children::Many(ids),
        };
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    parent: Option<NodeId>,
    children: Children,
    mv: Option<GameMove>,
    position: Position,
    pub nags: Vec<Nag>,
    /// Comment written before the move (at the start of a variation).
    pub comment_before: Option<Comment>,
    /// Comment after the move; on the root, the comment before the first move of the game.
    pub comment_after: Option<Comment>,
}

impl Node {
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// Continuations: the first is the main one, the rest are variations.
    pub fn children(&self) -> &[NodeId] {
        self.children.as_slice()
    }

    /// The move that led here (`None` on the root).
    pub fn game_move(&self) -> Option<GameMove> {
        self.mv
    }

    /// The position after this node's move.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// A tree of moves from one starting position.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    pub fn new(start: Position) -> Tree {
        let mut nodes = Vec::with_capacity(128);
        nodes.push(Node {
            parent: None,
            children: Children::None,
            mv: None,
            position: start,
            nags: Vec::new(),
            comment_before: None,
            comment_after: None,
        });
        Tree { nodes }
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    pub fn start(&self) -> &Position {
        &self.nodes[0].position
    }

    pub fn position(&self, id: NodeId) -> &Position {
        &self.node(id).position
    }

    /// Resolves a move against the position at `at` without changing the tree.
    pub fn resolve(&self, at: NodeId, mv: GameMove) -> Result<Position, EditError> {
        let pos = self.position(at);
        match mv {
            GameMove::Move(m) => pos.play(m).map_err(|_| EditError::Illegal(pos.uci(m))),
            GameMove::Null if pos.in_check() => Err(EditError::NullInCheck),
            GameMove::Null => {
                let mut next = pos.clone();
                next.play_null();
                Ok(next)
            }
        }
    }

    /// Appends a child whose position the caller already computed.
    pub(crate) fn push_child(&mut self, at: NodeId, mv: GameMove, position: Position) -> NodeId {
        self.push_with(at, mv, position)
    }

    /// Appends a child of `at` reached by a move known to be legal there (the reader's fast
    /// path: the position is made in place, without extra copies).
    pub(crate) fn push_legal(&mut self, at: NodeId, mv: GameMove) -> NodeId {
        let position = self.nodes[at.index()].position.clone();
        let id = self.push_with(at, mv, position);
        let node = &mut self.nodes[id.index()];
        match mv {
            GameMove::Move(m) => node.position.play_unchecked(m),
            GameMove::Null => node.position.play_null(),
        }
        id
    }

    fn push_with(&mut self, at: NodeId, mv: GameMove, position: Position) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            parent: Some(at),
            children: Children::None,
            mv: Some(mv),
            position,
            nags: Vec::new(),
            comment_before: None,
            comment_after: None,
        });
        self.nodes[at.index()].children.push(id);
        id
    }

    /// Plays `mv` after `at`: returns the existing child with that move, or adds it as the
    /// mainline if `at` has no continuation yet, else as a new last variation.
    pub fn add_move(&mut self, at: NodeId, mv: GameMove) -> Result<NodeId, EditError> {
        if let Some(&existing) = self
            .node(at)
            .children()
            .iter()
            .find(|&&c| self.node(c).mv == Some(mv))
        {
            return Ok(existing);
        }
        let position = self.resolve(at, mv)?;
        Ok(self.push_child(at, mv, position))
    }

    /// Parses SAN (or `--`) at `at` and adds it like [`Tree::add_move`].
    pub fn add_san(&mut self, at: NodeId, san: &str) -> Result<NodeId, EditError> {
        let mv = match san.parse::<San>() {
            Ok(San::Null) => GameMove::Null,
            _ => GameMove::Move(
                self.position(at)
                    .parse_san(san)
                    .map_err(|e| EditError::Illegal(e.to_string()))?,
            ),
        };
        self.add_move(at, mv)
    }

    /// SAN of the move leading to `id`, with check marks; `None` on the root.
    pub fn san(&self, id: NodeId) -> Option<String> {
        let node = self.node(id);
        match node.mv? {
            GameMove::Null => Some("--".to_owned()),
            GameMove::Move(m) => Some(self.position(node.parent?).san(m)),
        }
    }

    /// Moves the variation `id` one place towards the mainline among its siblings.
    pub fn promote(&mut self, id: NodeId) -> Result<(), EditError> {
        self.shift(id, -1)
    }

    /// Moves the variation `id` one place away from the mainline.
    pub fn demote(&mut self, id: NodeId) -> Result<(), EditError> {
        self.shift(id, 1)
    }

    /// Makes `id` and each of its ancestors the main continuation of its parent.
    pub fn promote_to_main(&mut self, id: NodeId) {
        let mut cur = id;
        while let Some(parent) = self.node(cur).parent {
            let children = self.nodes[parent.index()].children.as_mut_slice();
            if let Some(i) = children.iter().position(|&c| c == cur) {
                children[..=i].rotate_right(1);
            }
            cur = parent;
        }
    }

    fn shift(&mut self, id: NodeId, delta: isize) -> Result<(), EditError> {
        let parent = self.node(id).parent.ok_or(EditError::Root)?;
        let children = self.nodes[parent.index()].children.as_mut_slice();
        if let Some(i) = children.iter().position(|&c| c == id) {
            let j = i as isize + delta;
            if j >= 0 && (j as usize) < children.len() {
                children.swap(i, j as usize);
            }
        }
        Ok(())
    }

    /// Removes `id` and everything after it; returns the parent, where a cursor should go.
    pub fn delete(&mut self, id: NodeId) -> Result<NodeId, EditError> {
        let parent = self.node(id).parent.ok_or(EditError::Root)?;
        self.nodes[parent.index()].children.remove(id);
        Ok(parent)
    }

    /// Removes every continuation after `id`.
    pub fn truncate(&mut self, id: NodeId) {
        self.nodes[id.index()].children = Children::None;
    }

    /// The main continuation after `id`.
    pub fn next(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).children().first().copied()
    }

    pub fn previous(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).parent
    }

    /// The alternatives to `id`'s move, `id` included, in order.
    pub fn siblings(&self, id: NodeId) -> &[NodeId] {
        match self.node(id).parent {
            Some(p) => self.node(p).children(),
            None => std::slice::from_ref(&NodeId::ROOT),
        }
    }

    /// Moves in the tree, variations included.
    pub fn move_count(&self) -> usize {
        let mut stack = vec![NodeId::ROOT];
        let mut count = 0;
        while let Some(id) = stack.pop() {
            count += self.node(id).children().len();
            stack.extend_from_slice(self.node(id).children());
        }
        count
    }

    /// The next (`delta` = 1) or previous (-1) alternative to `id`'s move, if any.
    pub fn sibling(&self, id: NodeId, delta: isize) -> Option<NodeId> {
        let siblings = self.siblings(id);
        let i = siblings.iter().position(|&c| c == id)? as isize + delta;
        siblings.get(usize::try_from(i).ok()?).copied()
    }

    /// The last node of the main continuation from `id`.
    pub fn end(&self, id: NodeId) -> NodeId {
        let mut cur = id;
        while let Some(next) = self.next(cur) {
            cur = next;
        }
        cur
    }

    /// The mainline, root excluded.
    pub fn mainline(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.next(NodeId::ROOT), |&id| self.next(id))
    }

    /// Whether `id` lies on the mainline.
    pub fn is_mainline(&self, id: NodeId) -> bool {
        let mut cur = id;
        while let Some(parent) = self.node(cur).parent {
            if self.next(parent) != Some(cur) {
                return false;
            }
            cur = parent;
        }
        true
    }

    /// Nodes from the root to `id`, both included.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path: Vec<NodeId> =
            std::iter::successors(Some(id), |&c| self.node(c).parent).collect();
        path.reverse();
        path
    }

    /// Keys of the positions before `id`, oldest first, for repetition detection.
    pub fn history(&self, id: NodeId) -> Vec<u64> {
        let mut path = self.path(id);
        path.pop();
        path.iter().map(|&n| self.position(n).hash()).collect()
    }

    /// Whether two trees hold the same moves, annotations and order (arena layout aside).
    pub fn same_as(&self, other: &Tree) -> bool {
        fn same(a: &Tree, x: NodeId, b: &Tree, y: NodeId) -> bool {
            let (n, m) = (a.node(x), b.node(y));
            n.mv == m.mv
                && n.nags == m.nags
                && n.comment_before == m.comment_before
                && n.comment_after == m.comment_after
                && n.children().len() == m.children().len()
                && n.children()
                    .iter()
                    .zip(m.children())
                    .all(|(&c, &d)| same(a, c, b, d))
        }
        self.start() == other.start() && same(self, NodeId::ROOT, other, NodeId::ROOT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_and_navigation() {
        let mut t = Tree::new(Position::startpos());
        let e4 = t.add_san(NodeId::ROOT, "e4").unwrap();
        let e5 = t.add_san(e4, "e5").unwrap();
        let c5 = t.add_san(e4, "c5").unwrap();
        assert_eq!(
            t.add_san(e4, "e5").unwrap(),
            e5,
            "same move reuses the child"
        );
        assert_eq!(t.node(e4).children(), &[e5, c5]);
        assert_eq!(t.sibling(e5, 1), Some(c5));
        assert_eq!(t.sibling(c5, -1), Some(e5));
        assert!(t.is_mainline(e5) && !t.is_mainline(c5));
        t.promote(c5).unwrap();
        assert_eq!(t.node(e4).children(), &[c5, e5]);
        t.demote(c5).unwrap();
        let nf3 = t.add_san(c5, "Nf3").unwrap();
        t.promote_to_main(nf3);
        assert_eq!(t.mainline().collect::<Vec<_>>(), vec![e4, c5, nf3]);
        assert_eq!(t.end(NodeId::ROOT), nf3);
        assert_eq!(t.san(nf3).as_deref(), Some("Nf3"));
        assert_eq!(t.delete(c5), Ok(e4));
        assert_eq!(t.mainline().collect::<Vec<_>>(), vec![e4, e5]);
        t.truncate(NodeId::ROOT);
        assert_eq!(t.next(NodeId::ROOT), None);
        assert!(t.add_san(NodeId::ROOT, "e5").is_err());
        assert_eq!(t.delete(NodeId::ROOT), Err(EditError::Root));
    }

    #[test]
    fn null_moves() {
        let mut t = Tree::new(Position::startpos());
        let null = t.add_move(NodeId::ROOT, GameMove::Null).unwrap();
        assert_eq!(t.position(null).turn(), crate::chess::Color::Black);
        assert_eq!(t.san(null).as_deref(), Some("--"));
        let checked = Position::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1").unwrap();
        let mut t = Tree::new(checked);
        assert_eq!(
            t.add_move(NodeId::ROOT, GameMove::Null),
            Err(EditError::NullInCheck)
        );
    }
}
