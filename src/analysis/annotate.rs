//! Annotating one game: an engine evaluation of every mainline position, a `[%eval]` on every
//! move, judgements with the better line as a variation, book and tablebase knowledge, and a
//! summary per side. Everything the game already had is kept.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

use crate::chess::{Color, Move, Position, TbWdl};
use crate::engine::{Engine, Score, SearchEvent, SearchLimits};
use crate::engines::external::UciClient;
use crate::engines::policy::{PROBE_DEPTH, PlayPolicy, RULE50};
use crate::engines::score::white_score;
use crate::game::{self, Command, Comment, Eval, Game, GameMove, NodeId};

use super::judgement::{Judgement, SideStats, winning_chances};

/// Longest engine line added as a variation.
const MAX_VARIATION_PLIES: usize = 10;

/// The engine's view of one position, from its side to move.
#[derive(Clone, Debug)]
pub struct PositionEval {
    pub score: Score,
    pub depth: u32,
    pub pv: Vec<Move>,
}

/// One graded mainline move, for the JSON report.
#[derive(Clone, Debug)]
pub struct MoveReport {
    pub ply: usize,
    pub san: String,
    /// Evaluation after the move, White's view.
    pub eval: game::Score,
    pub best: Option<String>,
    pub judgement: Option<Judgement>,
    pub book: bool,
}

#[derive(Clone, Debug, Default)]
pub struct GameSummary {
    pub white: SideStats,
    pub black: SideStats,
    pub moves: Vec<MoveReport>,
    /// The analysis was stopped before the end (Ctrl-C, or a null move in the mainline).
    pub incomplete: bool,
}

/// The engine an annotator asks: ours, or an external UCI engine.
pub enum AnalysisEngine {
    Builtin(Box<Engine>),
    Uci(UciClient),
}

impl AnalysisEngine {
    fn new_game(&mut self) -> Result<(), String> {
        match self {
            AnalysisEngine::Builtin(engine) => {
                engine.new_game();
                Ok(())
            }
            AnalysisEngine::Uci(client) => client.new_game().map_err(|e| e.to_string()),
        }
    }

    /// Starts a search of the position after `moves` from `start`.
    fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &SearchLimits,
    ) -> Result<(), String> {
        match self {
            AnalysisEngine::Builtin(engine) => {
                // The moves come from the game tree, which checked them.
                let _ = engine.set_position(start.clone(), moves);
                engine.go(limits.clone());
                Ok(())
            }
            AnalysisEngine::Uci(client) => {
                client.go(start, moves, limits).map_err(|e| e.to_string())
            }
        }
    }
}

/// An engine (one per worker) and the limits for each position.
pub struct Annotator {
    engine: AnalysisEngine,
    events: Receiver<SearchEvent>,
    limits: SearchLimits,
    /// Why the engine stopped answering, once it did.
    failure: Option<String>,
}

impl Annotator {
    pub fn new(
        engine: AnalysisEngine,
        events: Receiver<SearchEvent>,
        limits: SearchLimits,
    ) -> Annotator {
        Annotator {
            engine,
            events,
            limits,
            failure: None,
        }
    }

    /// Why the engine stopped answering (the games from then on are left incomplete).
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Evaluates the position reached by `moves` from `start` (the game so far, so repetitions
    /// count). Positions without legal moves are scored by the rules. `None` when the engine
    /// fails to answer.
    fn evaluate(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
    ) -> Option<PositionEval> {
        if pos.legal_moves().is_empty() {
            let score = if pos.in_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return Some(PositionEval {
                score,
                depth: 0,
                pv: Vec::new(),
            });
        }
        if let Err(e) = self.engine.go(start, moves, &self.limits) {
            self.failure = Some(e);
            return None;
        }
        let mut result = PositionEval {
            score: Score::Cp(0),
            depth: 0,
            pv: Vec::new(),
        };
        let mut answered = false;
        for event in self.events.iter() {
            match event {
                SearchEvent::Info(info) if info.multipv == 1 && !info.pv.is_empty() => {
                    result = PositionEval {
                        score: info.score,
                        depth: info.depth,
                        pv: info.pv,
                    };
                }
                SearchEvent::BestMove { best, .. } => {
                    if let Some(best) = best
                        && result.pv.first() != Some(&best)
                    {
                        result.pv = vec![best];
                    }
                    answered = true;
                    break;
                }
                _ => {}
            }
        }
        if !answered {
            // The events ended without a best move: the engine's process is gone.
            self.failure = Some("the engine stopped without an answer".into());
            return None;
        }
        Some(result)
    }

    /// The engine's view of every position in `nodes`; None when stopped or the engine failed.
    fn evaluate_mainline(
        &mut self,
        tree: &game::Tree,
        nodes: &[NodeId],
        moves: &[Move],
        stop: &AtomicBool,
    ) -> Option<Vec<PositionEval>> {
        let start = tree.start().clone();
        let mut evals = Vec::with_capacity(nodes.len());
        for (i, &id) in nodes.iter().enumerate() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            evals.push(self.evaluate(&start, &moves[..i], tree.position(id))?);
        }
        Some(evals)
    }

    /// Annotates the mainline of `game` in place: book moves and tablebase results by
    /// `policy`, the rest by the engine (searching with the policy's tables, as it plays).
    pub fn annotate(
        &mut self,
        game: &mut Game,
        policy: &PlayPolicy,
        stop: &AtomicBool,
    ) -> GameSummary {
        let mut summary = GameSummary::default();
        if self.failure.is_some() {
            summary.incomplete = true;
            return summary;
        }
        if let Err(e) = self.engine.new_game() {
            self.failure = Some(e);
            summary.incomplete = true;
            return summary;
        }
        if let AnalysisEngine::Builtin(engine) = &mut self.engine {
            engine.set_tablebases(policy.search_tables(PROBE_DEPTH, RULE50));
        }
        let (nodes, moves, truncated) = mainline_moves(&game.tree);
        summary.incomplete = truncated;
        let Some(evals) = self.evaluate_mainline(&game.tree, &nodes, &moves, stop) else {
            summary.incomplete = true;
            return summary;
        };

        let mut in_book = policy.book().is_some();
        // The last tablebase verdict noted, from White's side: a note is added when the game
        // enters the tables and whenever the exact result changes.
        let mut noted_wdl: Option<TbWdl> = None;
        for ply in 1..nodes.len() {
            let (parent, id) = (nodes[ply - 1], nodes[ply]);
            let before_pos = game.tree.position(parent).clone();
            let after_pos = game.tree.position(id).clone();
            let played = moves[ply - 1];
            let mover = before_pos.turn();
            let before = evals[ply - 1].score;
            let after = evals[ply].score.for_other_side();
            let best = evals[ply - 1].pv.first().copied();

            let book_move = in_book && policy.is_book_move(&before_pos, played);
            let mut notes: Vec<String> = Vec::new();
            if in_book && !book_move {
                in_book = false;
                notes.push("Out of book.".to_owned());
            }

            let tablebase = policy.tables().and_then(|tb| {
                let wdl_before = tb.probe_wdl(&before_pos).ok()?;
                let wdl_after = tb.probe_wdl(&after_pos).ok()?.flip();
                Some((wdl_before, wdl_after))
            });
            let judgement = if book_move || Some(played) == best {
                None
            } else if let Some((wdl_before, wdl_after)) = tablebase {
                // Exact knowledge: any step down in the result is a blunder.
                (wdl_after < wdl_before).then_some(Judgement::Blunder)
            } else {
                Judgement::from_drop(winning_chances(before) - winning_chances(after))
            };
            if !book_move {
                let stats = match mover {
                    Color::White => &mut summary.white,
                    Color::Black => &mut summary.black,
                };
                // When the engine's own choice was played, a deeper look after the move must
                // not count as a loss against the shallower look before it.
                let after = if Some(played) == best { before } else { after };
                stats.add(before, after, judgement);
            }

            let best_san = best.map(|m| before_pos.san(m));
            if let Some(judgement) = judgement {
                notes.push(judgement_note(judgement, best_san.as_deref(), tablebase));
                let node = game.tree.node_mut(id);
                node.nags.retain(|n| !is_move_quality_nag(*n));
                node.nags.push(judgement.nag());
                add_variation(&mut game.tree, parent, &evals[ply - 1].pv);
            }
            if let Some((_, wdl_after)) = tablebase {
                let white_wdl = match mover {
                    Color::White => wdl_after,
                    Color::Black => wdl_after.flip(),
                };
                if noted_wdl != Some(white_wdl) {
                    notes.push(format!("Tablebase: {} for White.", white_wdl.name()));
                    noted_wdl = Some(white_wdl);
                }
            }

            let eval = white_score(evals[ply].score, after_pos.turn());
            // A finished position (mate, stalemate) speaks for itself: no evaluation on it.
            let finished = after_pos.legal_moves().is_empty();
            set_eval(
                game.tree.node_mut(id),
                (!finished).then_some(Eval {
                    score: eval,
                    depth: Some(evals[ply].depth).filter(|&d| d > 0),
                }),
                &notes,
            );
            summary.moves.push(MoveReport {
                ply,
                san: game.tree.san(id).unwrap_or_default(),
                eval,
                best: best_san,
                judgement,
                book: book_move,
            });
        }

        let text = summary_text(&summary.white, &summary.black, summary.incomplete);
        let root = game.tree.node_mut(NodeId::ROOT);
        let mut comment = Comment::text(&text);
        if let Some(existing) = root.comment_after.take() {
            comment.merge(existing);
        }
        root.comment_after = Some(comment);
        summary
    }
}

fn is_move_quality_nag(nag: game::Nag) -> bool {
    (1..=6).contains(&nag.0)
}
/// The mainline's nodes from the root and the moves between them; true when it was cut short
/// at a null move, which the engine cannot take.
fn mainline_moves(tree: &game::Tree) -> (Vec<NodeId>, Vec<Move>, bool) {
    let mut nodes = vec![NodeId::ROOT];
    let mut moves = Vec::new();
    for id in tree.mainline() {
        match tree.node(id).game_move() {
            Some(GameMove::Move(m)) => {
                nodes.push(id);
                moves.push(m);
            }
            _ => return (nodes, moves, true),
        }
    }
    (nodes, moves, false)
}

/// "Mistake. Nf3 was best. Tablebase: win -> draw."
fn judgement_note(
    judgement: Judgement,
    best: Option<&str>,
    tablebase: Option<(TbWdl, TbWdl)>,
) -> String {
    let mut text = format!("{}.", judgement.name());
    if let Some(san) = best {
        text.push_str(&format!(" {san} was best."));
    }
    if let Some((before, after)) = tablebase {
        text.push_str(&format!(
            " Tablebase: {} -> {}.",
            before.name(),
            after.name()
        ));
    }
    text
}

/// Adds the engine's line after `at` as a variation (the played move stays the mainline).
fn add_variation(tree: &mut game::Tree, at: NodeId, pv: &[Move]) {
    let mut cur = at;
    for &m in pv.iter().take(MAX_VARIATION_PLIES) {
        match tree.add_move(cur, GameMove::Move(m)) {
            Ok(next) => cur = next,
            Err(_) => break,
        }
    }
}

/// Replaces any earlier `[%eval]` on the node with ours and appends the notes.
fn set_eval(node: &mut game::Node, eval: Option<Eval>, notes: &[String]) {
    if eval.is_none() && notes.is_empty() {
        return;
    }
    let comment = node.comment_after.get_or_insert_with(Comment::default);
    if let Some(eval) = eval {
        comment.commands.retain(|c| c.name() != "eval");
        comment.commands.push(Command::Eval(eval));
    }
    for note in notes {
        comment.merge(Comment::text(note));
    }
}

fn side_text(name: &str, stats: &SideStats) -> String {
    format!(
        "{name}: accuracy {:.1}%, average centipawn loss {}, {} inaccuracies, {} mistakes, {} blunders",
        stats.accuracy(),
        stats.acpl(),
        stats.inaccuracies,
        stats.mistakes,
        stats.blunders
    )
}

/// The summary line `annotate` puts before the first move: accuracy, average centipawn loss
/// and the count of each judgement, per side.
pub fn summary_text(white: &SideStats, black: &SideStats, incomplete: bool) -> String {
    format!(
        "Annotated by kibitzer. {}. {}.{}",
        side_text("White", white),
        side_text("Black", black),
        if incomplete {
            " Analysis incomplete."
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use crate::game::parse_all;

    #[test]
    fn a_blunder_is_marked_with_the_better_line() {
        // 3... Nf6?? allows the scholar's mate.
        let pgn = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
        let mut game = parse_all(pgn).remove(0).game;
        let (engine, events) = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        // Depth 8: at depth 6 the history the earlier moves left behind can prune Black's
        // defences to 3. Qh5, and 2... Nc6 then looks lost too.
        let mut annotator = Annotator::new(
            AnalysisEngine::Builtin(Box::new(engine)),
            events,
            SearchLimits::depth(8),
        );
        let stop = AtomicBool::new(false);
        let summary = annotator.annotate(&mut game, &PlayPolicy::default(), &stop);
        assert_eq!(summary.moves.len(), 7);
        let nf6 = &summary.moves[5];
        assert_eq!(nf6.san, "Nf6");
        assert_eq!(nf6.judgement, Some(Judgement::Blunder));
        assert_eq!(summary.black.blunders, 1);
        assert_eq!(nf6.eval, game::Score::Mate(1));
        let mut text = String::new();
        crate::game::write_game(&game, &mut text);
        assert!(text.contains("$4"), "{text}");
        assert!(text.contains("[%eval"), "{text}");
        assert!(text.contains("Blunder."), "{text}");
        // The mainline is unchanged and still ends in mate.
        assert_eq!(game.tree.mainline().count(), 7);
    }

    #[test]
    fn tablebase_results_are_noted() {
        let Some(tables) = crate::tablebase::tests::shared_tables() else {
            return;
        };
        let pgn =
            "[FEN \"8/8/8/8/8/4k3/8/R3K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Ra3+ Kd4 2. Kd2 *\n";
        let mut game = parse_all(pgn).remove(0).game;
        let (engine, events) = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        let mut annotator = Annotator::new(
            AnalysisEngine::Builtin(Box::new(engine)),
            events,
            SearchLimits::depth(4),
        );
        annotator.annotate(
            &mut game,
            &PlayPolicy::new(None, Some(tables)),
            &AtomicBool::new(false),
        );
        let mut text = String::new();
        crate::game::write_game(&game, &mut text);
        assert_eq!(
            text.matches("Tablebase: win for White.").count(),
            1,
            "{text}"
        );
    }
}
