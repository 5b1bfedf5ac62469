//! Keeping the engine busy with what the state needs: which search should run (the opponent's
//! move, pondering, a hint, analysis, the whole-game pass), starting and stopping it, and
//! taking its reports.

use crate::chess::Position;
use crate::game::{GameMove, NodeId};

use super::app::{App, Mode, Overlay, Purpose};
use super::component::Wanted;
use super::learn;
use super::play;
use crate::engines::external::EngineSpec;
use crate::engines::service::{EngineCommand, EngineEvent, SearchId};

pub fn engine_event(app: &mut App, id: SearchId, event: EngineEvent) {
    let Some(search) = app.searches().with_id(id) else {
        return;
    };
    let (purpose, node) = (search.purpose, search.node);
    match event {
        EngineEvent::Engine(name) => app.lines_mut().set_engine(name),
        EngineEvent::Notice(msg) => app.error(msg),
        EngineEvent::Lost(msg) => {
            // Forget the search; `sync_engine` asks again (the built-in engine answers).
            app.searches_mut().end();
            app.error(msg);
        }
        EngineEvent::Info(info) => {
            let root = search.root.clone();
            // A ponder or grading search's score belongs to a position not in the game.
            match (purpose, info.score) {
                (_, None) => {}
                (_, Some(_)) if info.multipv != 1 => {}
                (Purpose::Ponder(_), _) => {}
                (Purpose::Grade(_), Some(score)) => learn::note_score(app, score),
                (_, Some(score)) => {
                    app.game_mut().set_eval(node, score);
                    app.game_mut().set_line(node, info.pv.clone());
                    // The whole-game analysis is work to keep; a glance at one position is not.
                    if purpose == Purpose::GamePass {
                        app.game_mut().mark_changed();
                    }
                }
            }
            let shown = app.config().multipv.max(1) as usize;
            app.lines_mut().report(&root, info, shown);
        }
        EngineEvent::BestMove { best, ponder } => {
            app.searches_mut().end();
            match purpose {
                Purpose::Opponent => play::engine_moved(app, node, best, ponder),
                Purpose::Ponder(_) => {
                    // It ended on its own (the engine holds a ponder move back until told):
                    // not started again on this move.
                    if let Mode::Play(p) = app.mode_mut() {
                        p.expected = None;
                    }
                }
                Purpose::Hint => {
                    if let (Some(m), Mode::Play(p)) = (best, app.mode_mut()) {
                        p.hint_pending = false;
                        app.set_hint(Some(m));
                        let san = app.game().last().san(m);
                        app.info(format!("hint: {san}"));
                    }
                }
                Purpose::GamePass => {
                    let tree = app.game().tree();
                    let next = tree.is_mainline(node).then(|| tree.next(node)).flatten();
                    if let Mode::Analyse(a) = app.mode_mut() {
                        a.game_pass = next;
                        if next.is_none() {
                            game_pass_finished(app);
                        }
                    }
                }
                Purpose::Grade(_) => learn::graded(app),
                Purpose::Analysis => {}
            }
        }
    }
}

/// The end of the whole-game pass: the summary `annotate` writes goes before the first move.
fn game_pass_finished(app: &mut App) {
    let text = super::review::summary_text(app.game());
    let (white, black) = super::review::summary(app.game());
    app.game_mut().set_summary(&text);
    super::saving::autosave_analysis(app);
    app.info(format!(
        "game analysed: accuracy White {:.0}%, Black {:.0}% (summary at the top of the moves; :learn)",
        white.accuracy(),
        black.accuracy()
    ));
}

/// The external engine configured for `purpose` (`None`: the built-in one). The engine
/// service stands in with the built-in engine for one that failed.
pub fn engine_for(app: &App, purpose: Purpose) -> Option<EngineSpec> {
    let name = match purpose {
        Purpose::Opponent | Purpose::Hint | Purpose::Ponder(_) => &app.config().opponent,
        Purpose::Analysis | Purpose::GamePass | Purpose::Grade(_) => &app.config().analysis,
    };
    app.config().engine(name).cloned()
}

/// What the engine should be doing for the current state.
fn wanted_search(app: &App) -> Option<Wanted> {
    if matches!(
        app.overlay(),
        Some(Overlay::Resume(_) | Overlay::NewGame(_))
    ) {
        return None;
    }
    app.mode().component().wanted_search(app)
}

/// The position a search for `purpose` at `node` starts from.
fn search_root(app: &App, purpose: Purpose, node: NodeId) -> Option<Position> {
    match purpose {
        Purpose::Ponder(reply) => play::ponder_root(app, node, reply),
        Purpose::Grade(tried) => app.game().position(node).play(tried).ok(),
        _ => Some(app.game().position(node).clone()),
    }
}

/// Whether the ponder search running predicted the player's move that led to `node`: it then
/// goes on as the opponent's search there.
fn ponder_hit(app: &App, node: NodeId) -> bool {
    let tree = app.game().tree();
    app.searches().current().is_some_and(|s| {
        matches!(s.purpose, Purpose::Ponder(reply)
            if tree.previous(node) == Some(s.node)
                && tree.node(node).game_move() == Some(GameMove::Move(reply))
                && s.root == *app.game().position(node))
    })
}

/// Starts, replaces or stops the search so it matches `wanted_search`.
pub fn sync_engine(app: &mut App) {
    let wanted = wanted_search(app);
    if let Some((Purpose::Opponent, node, _)) = wanted
        && ponder_hit(app, node)
    {
        app.engine(EngineCommand::PonderHit);
        let now = app.now();
        app.searches_mut().ponder_hit(node, now);
        return;
    }
    let current = app
        .searches()
        .current()
        .map(|s| (s.purpose, s.node, s.root.clone()));
    let same = match (&wanted, &current) {
        (Some((p, node, _)), Some((cp, cnode, root))) => {
            p == cp && node == cnode && search_root(app, *p, *node).as_ref() == Some(root)
        }
        (None, None) => true,
        _ => false,
    };
    if same {
        return;
    }
    if app.searches_mut().end() {
        app.engine(EngineCommand::Stop);
    }
    if let Some((purpose, node, limits)) = wanted {
        let Some(root) = search_root(app, purpose, node) else {
            return;
        };
        let (start, mut moves) = app.game().engine_line(node);
        if let Purpose::Ponder(extra) | Purpose::Grade(extra) = purpose {
            moves.push(extra);
        }
        let now = app.now();
        let id = app.searches_mut().start(purpose, node, root, now);
        app.engine(EngineCommand::Go {
            id,
            engine: engine_for(app, purpose).map(Box::new),
            start: Box::new(start),
            moves,
            limits,
            ponder: matches!(purpose, Purpose::Ponder(_)),
        });
    }
}
