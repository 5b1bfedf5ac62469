//! The game being played or analysed: the library's game tree (variations, comments, NAGs)
//! with a cursor on the shown node, the engine's evaluation of each node, and how the game
//! ended when it ended off the board (resignation, flag, agreement). Side to move, check and
//! the rules' verdict are derived from the positions, never stored.

use std::collections::HashMap;
use std::time::Duration;

use crate::analysis::judgement::{Judgement, winning_chances};
use crate::chess::{Color, Move, Position, Square};
use crate::engine;
use crate::engines::score::side_score;
use crate::game::{
    self, Command, Comment, Ending, Game, GameMove, GameResult, Nag, NodeId, Score, Tree,
};

/// A game record: the tree, the shown node, evaluations per node, the off-board ending, and
/// whether it changed since it was saved.
#[derive(Clone, Debug)]
pub struct Record {
    game: Game,
    current: NodeId,
    /// Engine evaluation of the position at each node (White's view), when known.
    evals: HashMap<NodeId, Score>,
    /// The engine's best line from the position at each node, when it said one.
    lines: HashMap<NodeId, Vec<Move>>,
    /// Set when the game ended off the board; cleared by any change to the main line's end.
    adjudication: Option<Ending>,
    /// The file and game this record was read from, for writing it back in place.
    origin: Option<game::GameOrigin>,
    /// Nothing changed since it was last saved (or read, or started).
    saved: bool,
}

impl Record {
    pub fn new(start: Position) -> Record {
        Record::from_game(Game::new(start))
    }

    /// A record of a game read from PGN; its `%eval` annotations fill the evaluations.
    pub fn from_game(game: Game) -> Record {
        let mut evals = HashMap::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            let node = game.tree.node(id);
            if let Some(eval) = node.comment_after.as_ref().and_then(Comment::eval) {
                evals.insert(id, eval.score);
            }
            stack.extend_from_slice(node.children());
        }
        Record {
            game,
            current: NodeId::ROOT,
            evals,
            lines: HashMap::new(),
            adjudication: None,
            origin: None,
            saved: true,
        }
    }

    /// Nothing changed since the game was last saved, read or started.
    pub fn is_saved(&self) -> bool {
        self.saved
    }

    /// Something changed that a save would keep.
    pub fn mark_changed(&mut self) {
        self.saved = false;
    }

    /// The game as it is was saved (or needs no saving).
    pub fn mark_saved(&mut self) {
        self.saved = true;
    }

    /// Where the game was read from (`None` for a game made here).
    pub fn origin(&self) -> Option<&game::GameOrigin> {
        self.origin.as_ref()
    }

    pub fn set_origin(&mut self, origin: Option<game::GameOrigin>) {
        self.origin = origin;
    }

    pub fn tree(&self) -> &Tree {
        &self.game.tree
    }

    pub fn headers(&self) -> &game::Headers {
        &self.game.headers
    }

    pub fn headers_mut(&mut self) -> &mut game::Headers {
        &mut self.game.headers
    }

    pub fn start(&self) -> &Position {
        self.game.tree.start()
    }

    /// The shown node.
    pub fn current_node(&self) -> NodeId {
        self.current
    }

    /// The shown position.
    pub fn current(&self) -> &Position {
        self.position(self.current)
    }

    pub fn position(&self, id: NodeId) -> &Position {
        self.game.tree.position(id)
    }

    /// The last node of the main line (where play continues).
    pub fn main_end(&self) -> NodeId {
        self.game.tree.end(NodeId::ROOT)
    }

    /// The position at the end of the main line.
    pub fn last(&self) -> &Position {
        self.position(self.main_end())
    }

    /// The main line, root excluded.
    pub fn mainline(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.game.tree.mainline()
    }

    /// Moves of the main line.
    pub fn len(&self) -> usize {
        self.mainline().count()
    }

    pub fn is_empty(&self) -> bool {
        self.game.tree.next(NodeId::ROOT).is_none()
    }

    /// Whether the shown node is the end of the main line.
    pub fn at_main_end(&self) -> bool {
        self.current == self.main_end()
    }

    /// Moves from the start to `id`.
    pub fn ply(&self, id: NodeId) -> usize {
        self.game.tree.path(id).len() - 1
    }

    /// What an engine needs to search `id`: a start position and the moves from it. A null
    /// move cannot be sent, so the line restarts after the last one.
    pub fn engine_line(&self, id: NodeId) -> (Position, Vec<Move>) {
        let tree = &self.game.tree;
        let mut start = NodeId::ROOT;
        let mut moves = Vec::new();
        for &n in &tree.path(id)[1..] {
            match tree.node(n).game_move() {
                Some(GameMove::Move(m)) => moves.push(m),
                _ => {
                    start = n;
                    moves.clear();
                }
            }
        }
        (self.position(start).clone(), moves)
    }

    /// The move that led to the shown position, and the position it was played in.
    pub fn last_move(&self) -> Option<(Move, &Position)> {
        let node = self.game.tree.node(self.current);
        match node.game_move()? {
            GameMove::Move(m) => Some((m, self.position(node.parent()?))),
            GameMove::Null => None,
        }
    }

    /// Shows `id`.
    pub fn goto(&mut self, id: NodeId) {
        self.current = id;
    }

    /// Plays `m` (legal in the shown position) after the shown node: follows the existing
    /// continuation with that move, else adds it as the main continuation if there is none, or
    /// as a new variation. Returns the node now shown.
    pub fn play(&mut self, m: Move) -> NodeId {
        let at = self.current;
        let was_end = self.game.tree.next(at).is_none() && self.game.tree.is_mainline(at);
        match self.game.tree.add_move(at, GameMove::Move(m)) {
            Ok(id) => {
                self.current = id;
                if was_end {
                    self.adjudication = None;
                }
            }
            Err(e) => debug_assert!(false, "play of an illegal move: {e}"),
        }
        self.current
    }

    /// Extends the main line with `m` (legal at its end); the cursor follows only if it was
    /// at the end.
    pub fn push_main(&mut self, m: Move) -> NodeId {
        let follow = self.at_main_end();
        let shown = self.current;
        self.current = self.main_end();
        let id = self.play(m);
        if !follow {
            self.current = shown;
        }
        id
    }

    /// Removes the last move of the main line; the cursor moves back if it was on it.
    pub fn pop_main(&mut self) -> Option<Move> {
        let end = self.main_end();
        let m = match self.game.tree.node(end).game_move()? {
            GameMove::Move(m) => m,
            GameMove::Null => return None,
        };
        let parent = self.game.tree.delete(end).ok()?;
        if !self.game.tree.is_mainline(self.current) || self.current == end {
            self.current = parent;
        }
        self.adjudication = None;
        Some(m)
    }

    /// Removes the shown move and everything after it; shows the position before it.
    pub fn cut(&mut self) -> Option<NodeId> {
        let parent = self.game.tree.delete(self.current).ok()?;
        self.current = parent;
        self.adjudication = None;
        Some(parent)
    }

    /// The first move of the variation holding `id` (the node where it leaves its parent
    /// line); `None` on the main line.
    pub fn variation_start(&self, id: NodeId) -> Option<NodeId> {
        let tree = &self.game.tree;
        let mut cur = id;
        while let Some(parent) = tree.previous(cur) {
            if tree.next(parent) != Some(cur) {
                return Some(cur);
            }
            cur = parent;
        }
        None
    }

    /// Moves the shown variation one place up among its alternatives (into the main line
    /// when it is the first). Returns whether anything changed.
    pub fn promote_variation(&mut self) -> bool {
        let Some(start) = self.variation_start(self.current) else {
            return false;
        };
        self.game.tree.promote(start).is_ok()
    }

    /// Makes the shown line the main line.
    pub fn promote_to_main(&mut self) -> bool {
        if self.game.tree.is_mainline(self.current) {
            return false;
        }
        self.game.tree.promote_to_main(self.current);
        self.adjudication = None;
        true
    }

    /// Deletes the shown variation from where it leaves its parent line; shows the position
    /// before it. `None` on the main line.
    pub fn delete_variation(&mut self) -> Option<NodeId> {
        let start = self.variation_start(self.current)?;
        let parent = self.game.tree.delete(start).ok()?;
        self.current = parent;
        Some(parent)
    }

    /// The comment after the shown move (on the start position: before the first move).
    pub fn comment(&self) -> &str {
        self.game
            .tree
            .node(self.current)
            .comment_after
            .as_ref()
            .map_or("", |c| c.text.as_str())
    }

    /// Replaces the text of the comment after the shown move, keeping its commands
    /// (`%clk`, `%eval`...). Empty text removes it.
    pub fn set_comment(&mut self, text: &str) {
        let node = self.game.tree.node_mut(self.current);
        let mut comment = node.comment_after.take().unwrap_or_default();
        comment.text = Comment::text(text).text;
        node.comment_after = (!comment.is_empty()).then_some(comment);
    }

    /// Toggles a move assessment (`$1`..`$6`) on the shown move: set replaces any other
    /// assessment, set again removes it. Returns whether it is now set.
    pub fn toggle_nag(&mut self, nag: Nag) -> bool {
        let nags = &mut self.game.tree.node_mut(self.current).nags;
        let had = nags.contains(&nag);
        nags.retain(|n| !is_assessment(*n));
        if !had {
            nags.insert(0, nag);
        }
        !had
    }

    /// Records the clock of the side that made the shown move (`%clk`).
    pub fn set_clock(&mut self, id: NodeId, left: Duration) {
        let node = self.game.tree.node_mut(id);
        let comment = node.comment_after.get_or_insert_with(Comment::default);
        comment.commands.retain(|c| c.name() != "clk");
        // Whole milliseconds: what %clk can write back.
        let left = Duration::from_millis(left.as_millis() as u64);
        comment.commands.insert(0, Command::Clock(left));
    }

    pub fn eval(&self, id: NodeId) -> Option<Score> {
        self.evals.get(&id).copied()
    }

    pub fn set_eval(&mut self, id: NodeId, score: Score) {
        self.evals.insert(id, score);
    }

    /// Records the engine's best line from the position at `id`.
    pub fn set_line(&mut self, id: NodeId, line: Vec<Move>) {
        if !line.is_empty() {
            self.lines.insert(id, line);
        }
    }

    /// Whether the move leading to `id` is the engine's best move there.
    pub fn is_best_move(&self, id: NodeId) -> bool {
        let tree = &self.game.tree;
        let best = tree
            .previous(id)
            .and_then(|parent| self.lines.get(&parent))
            .and_then(|line| line.first());
        best.is_some_and(|&m| tree.node(id).game_move() == Some(GameMove::Move(m)))
    }

    /// The better line instead of the move leading to `id`: the engine's line from before
    /// it, else the first variation beside it (where `annotate` writes the better line).
    pub fn better_line(&self, id: NodeId) -> Option<Vec<Move>> {
        let tree = &self.game.tree;
        let parent = tree.previous(id)?;
        if let Some(line) = self.lines.get(&parent) {
            return (!self.is_best_move(id)).then(|| line.clone());
        }
        let &start = tree.node(parent).children().iter().find(|&&c| c != id)?;
        let mut line = Vec::new();
        let mut cur = Some(start);
        while let Some(node) = cur {
            match tree.node(node).game_move() {
                Some(GameMove::Move(m)) => line.push(m),
                _ => break,
            }
            cur = tree.next(node);
        }
        Some(line)
    }

    /// Puts the analysis summary before the first move, replacing an earlier one and keeping
    /// any other text there.
    pub fn set_summary(&mut self, summary: &str) {
        const START: &str = "Annotated by kibitzer.";
        let root = self.game.tree.node_mut(NodeId::ROOT);
        let mut comment = root.comment_after.take().unwrap_or_default();
        let mut rest = comment.text.clone();
        if let Some(at) = rest.find(START) {
            // An earlier summary runs to its second side's "blunders."
            let end = rest[at..]
                .match_indices("blunders.")
                .nth(1)
                .map_or(rest.len(), |(i, m)| at + i + m.len());
            rest.replace_range(at..end, "");
        }
        comment.text = Comment::text(summary).text;
        comment.merge(Comment::text(rest.trim()));
        root.comment_after = Some(comment);
    }

    pub fn adjudicate(&mut self, end: Ending) {
        self.adjudication = Some(end);
    }

    /// How the game ended, if it did: an off-board event, or the rules at the end of the main
    /// line.
    pub fn end(&self) -> Option<Ending> {
        self.adjudication.or_else(|| {
            let end = self.main_end();
            self.position(end)
                .outcome(&self.game.tree.history(end))
                .map(Ending::Rules)
        })
    }

    /// Sets the result after the moves and the Result tag both.
    pub fn set_result(&mut self, result: GameResult) {
        self.game.result = result;
        self.game.headers.set("Result", result.as_str());
    }

    /// The result: how the game ended, else the result the file gave (`*` while going on).
    pub fn result(&self) -> GameResult {
        self.end().map_or(self.game.result, Ending::result)
    }

    /// The line shown in the graph: from the start through `id` to the end of its main
    /// continuation, root included (the main line when `id` is on it).
    /// The opening of the shown position: the deepest named position on the way to it.
    pub fn opening(&self) -> Option<game::openings::Opening> {
        let path = self.game.tree.path(self.current);
        game::openings::classify(path.iter().map(|&n| self.position(n)))
    }

    pub fn line_through(&self, id: NodeId) -> Vec<NodeId> {
        let tree = &self.game.tree;
        let mut line = tree.path(id);
        let mut cur = id;
        while let Some(next) = tree.next(cur) {
            line.push(next);
            cur = next;
        }
        line
    }

    /// The game for writing as PGN: the result token and `Result`/`Termination` tags follow
    /// how it ended (or keep what the file said while it goes on).
    /// The game as PGN will hold it, with what the screen shows: each known evaluation as
    /// `[%eval]`, and the moves the evaluations judge marked with a NAG and a note, the way
    /// `annotate` writes them (a move the user already assessed keeps their mark).
    pub fn to_game(&self) -> Game {
        let mut game = self.game.clone();
        if let Some(end) = self.end() {
            game.set_ending(end);
        }
        for (&id, &score) in &self.evals {
            let finished = self.position(id).legal_moves().is_empty();
            if finished {
                continue;
            }
            let node = game.tree.node_mut(id);
            let comment = node.comment_after.get_or_insert_with(Comment::default);
            let eval = game::Eval { score, depth: None };
            comment.commands.retain(|c| c.name() != "eval");
            comment.commands.push(Command::Eval(eval));
            let judged = judge_move(self, id);
            let Some(judgement) = judged.filter(|_| !node.nags.iter().any(|&n| is_assessment(n)))
            else {
                continue;
            };
            node.nags.push(judgement.nag());
            let better = self.better_line(id).unwrap_or_default();
            let parent = self
                .game
                .tree
                .previous(id)
                .expect("a judged move has a parent");
            let note = match better.first() {
                Some(&m) => format!(
                    "{}. {} was best.",
                    judgement.name(),
                    self.position(parent).san(m)
                ),
                None => format!("{}.", judgement.name()),
            };
            comment.merge(Comment::text(&note));
            let mut at = parent;
            for &m in better.iter().take(MAX_VARIATION_PLIES) {
                match game.tree.add_move(at, GameMove::Move(m)) {
                    Ok(next) => at = next,
                    Err(_) => break,
                }
            }
        }
        game
    }
}

/// Longest better line written as a variation (as `annotate` writes them).
const MAX_VARIATION_PLIES: usize = 10;

/// `$1`..`$6`: good, mistake, brilliant, blunder, speculative, dubious (one per move).
fn is_assessment(nag: Nag) -> bool {
    (1..=6).contains(&nag.0)
}

/// Where the king lands for a castling move (which is encoded king-takes-rook).
pub fn king_target(m: Move) -> Square {
    if m.is_castle() {
        let file = if m.to() > m.from() { 6 } else { 2 };
        Square::from_coords(crate::chess::File::new(file), m.from().rank())
    } else {
        m.to()
    }
}

/// The mover and the evaluations before and after the move leading to `id`, mover's view.
pub fn graded(game: &Record, id: NodeId) -> Option<(Color, engine::Score, engine::Score)> {
    let parent = game.tree().previous(id)?;
    let mover = game.position(parent).turn();
    let before = side_score(game.eval(parent)?, mover);
    let after = side_score(game.eval(id)?, mover);
    // The engine's own choice is never judged: a deeper look after it is no loss.
    let after = if game.is_best_move(id) { before } else { after };
    Some((mover, before, after))
}

/// The judgement of the move leading to `id`, when the evaluations before and after it are
/// known.
pub fn judge_move(game: &Record, id: NodeId) -> Option<Judgement> {
    let (_, before, after) = graded(game, id)?;
    Judgement::from_drop(winning_chances(before) - winning_chances(after))
}

/// Edits remembered (undo); the oldest are forgotten past this.
const UNDO_LIMIT: usize = 200;

/// A state of the shown game that undo or redo returns to.
pub struct Snapshot {
    /// With whether it was saved.
    pub game: Record,
    /// The edit that followed this state, for the message ("undid: variation deleted").
    pub edit: &'static str,
}

/// The states before the edits of analyse mode (undo), and those undone (redo).
#[derive(Default)]
pub struct UndoHistory {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

impl UndoHistory {
    /// Forgets everything: another game is shown.
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }

    /// Remembers the state before an edit; what could be redone is gone.
    pub fn remember(&mut self, before: Snapshot) {
        if self.undo.len() == UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.redo.clear();
    }

    /// The state to go back to (`back`) or forward to, taken off its stack.
    pub fn take(&mut self, back: bool) -> Option<Snapshot> {
        if back {
            self.undo.pop()
        } else {
            self.redo.pop()
        }
    }

    /// The state left by going back (`back`) or forward, kept to return to.
    pub fn keep(&mut self, back: bool, left: Snapshot) {
        if back {
            self.redo.push(left);
        } else {
            self.undo.push(left);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Color, Outcome};

    fn record(ucis: &[&str]) -> Record {
        let mut g = Record::new(Position::startpos());
        for u in ucis {
            let m = g.current().parse_uci(u).unwrap();
            g.play(m);
        }
        g
    }

    fn sans(g: &Record) -> Vec<String> {
        g.mainline().map(|n| g.tree().san(n).unwrap()).collect()
    }

    #[test]
    fn moves_off_the_main_line_make_variations() {
        let mut g = record(&["e2e4", "e7e5", "g1f3"]);
        assert_eq!(sans(&g), ["e4", "e5", "Nf3"]);
        assert_eq!(g.current().turn(), Color::Black);
        let e4 = g.mainline().next().unwrap();
        g.goto(e4);
        let c5 = g.current().parse_uci("c7c5").unwrap();
        let var = g.play(c5);
        assert_eq!(sans(&g), ["e4", "e5", "Nf3"], "the main line stays");
        assert_eq!(g.variation_start(var), Some(var));
        g.goto(e4);
        assert_eq!(g.play(c5), var, "the same move enters the variation");
        let m = g.current().parse_uci("g1f3").unwrap();
        let deep = g.play(m);
        assert_eq!(g.variation_start(deep), Some(var));
        assert!(g.promote_variation());
        assert_eq!(sans(&g), ["e4", "c5", "Nf3"]);
        assert_eq!(g.variation_start(deep), None);
        let e5 = g.tree().sibling(var, 1).unwrap();
        g.goto(e5);
        assert_eq!(g.delete_variation(), Some(e4));
        assert_eq!(g.tree().node(e4).children(), &[var]);
        assert_eq!(g.engine_line(deep).1.len(), 3);
        assert_eq!(g.ply(deep), 3);
    }

    #[test]
    fn main_line_push_pop_and_promote_to_main() {
        let mut g = record(&["e2e4"]);
        let root = NodeId::ROOT;
        g.goto(root);
        let m = g.last().parse_uci("e7e5").unwrap();
        g.push_main(m);
        assert_eq!(g.current_node(), root, "the cursor stays where it was");
        assert_eq!(sans(&g), ["e4", "e5"]);
        g.goto(g.main_end());
        assert_eq!(g.pop_main(), Some(m));
        assert!(g.at_main_end());
        let d4 = g.start().parse_uci("d2d4").unwrap();
        g.goto(root);
        let var = g.play(d4);
        assert!(g.promote_to_main());
        assert_eq!(sans(&g), ["d4"]);
        assert_eq!(g.current_node(), var);
        assert_eq!(g.cut(), Some(root));
        assert_eq!(sans(&g), ["e4"]);
    }

    #[test]
    fn comments_nags_clocks_and_evals() {
        let mut g = record(&["e2e4"]);
        let id = g.current_node();
        g.set_clock(id, Duration::from_millis(299_500));
        g.set_comment("  the   best  ");
        assert_eq!(g.comment(), "the best");
        assert!(g.toggle_nag(Nag::GOOD));
        assert!(g.toggle_nag(Nag::SPECULATIVE));
        assert_eq!(g.tree().node(id).nags, [Nag::SPECULATIVE]);
        assert!(!g.toggle_nag(Nag::SPECULATIVE));
        assert!(g.tree().node(id).nags.is_empty());
        g.set_comment("");
        let pgn = g.to_game().to_pgn();
        assert!(pgn.contains("1. e4 {[%clk 0:04:59.5]} *"), "{pgn}");
        let back = crate::game::parse_all("1. e4 {[%eval 0.31]} e5 {[%eval #-2]}");
        let r = Record::from_game(back[0].game.clone());
        let nodes: Vec<_> = r.mainline().collect();
        assert_eq!(r.eval(nodes[0]), Some(Score::Cp(31)));
        assert_eq!(r.eval(nodes[1]), Some(Score::Mate(-2)));
    }

    #[test]
    fn end_by_rules_and_by_event() {
        let mut g = record(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            g.end(),
            Some(Ending::Rules(Outcome::Checkmate {
                winner: Color::Black
            }))
        );
        assert_eq!(g.end().unwrap().result(), GameResult::BlackWins);
        g.pop_main();
        assert_eq!(g.end(), None);
        g.adjudicate(Ending::Resignation {
            winner: Color::White,
        });
        assert_eq!(g.end().unwrap().to_string(), "Black resigns");
        let game = g.to_game();
        assert_eq!(game.result, GameResult::WhiteWins);
        assert_eq!(game.headers.get("Termination"), Some("normal"));
        g.adjudicate(Ending::TimeForfeit { winner: None });
        assert_eq!(g.to_game().headers.get("Termination"), Some("time forfeit"));
    }

    #[test]
    fn castling_target_is_king_square() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = pos.parse_uci("e1g1").unwrap();
        assert_eq!(king_target(m), Square::G1);
        let m = pos.parse_uci("e1c1").unwrap();
        assert_eq!(king_target(m), Square::C1);
    }
}
