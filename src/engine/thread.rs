//! Lazy SMP: per-thread search state ([`ThreadData`]) and the driver that runs one search on
//! N threads with `std::thread::scope`. Threads share only the transposition table, the stop
//! flag and their published node counts; each owns its histories. The main thread manages
//! time and reports progress; when the search ends, the threads vote on the move.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::chess::{Move, Position};

use super::eval::{Evaluation, ThreadEval};
use super::history::{Correction, History, PieceTo};
use super::limits::SearchLimits;
use super::report::root_move_info;
use super::score::{DRAW, INFINITY, MAX_PLY, Score, TB_WIN, is_decisive, mated_in};
use super::search::{MainThread, Searcher};
use super::strength::Strength;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::{Bound, SearchEvent, SearchInfo, TablebaseConfig, TbRootMove};
use crate::chess::TbWdl;

/// Flags shared between the engine handle and the running search.
#[derive(Default)]
pub struct Flags {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
}

/// A root move with what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// This iteration's value, `-INFINITY` until searched (or when it failed low).
    pub score: i32,
    pub prev_score: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// Search state of one stack frame (one ply).
#[derive(Clone, Copy, Default)]
pub struct Frame {
    /// Static evaluation, `None` in check.
    pub static_eval: Option<i32>,
    /// The move played from this ply (for continuation history); `None` for a null move.
    pub piece_to: Option<PieceTo>,
    /// The move excluded by a singular-extension search at this ply.
    pub excluded: Option<Move>,
    pub double_extensions: i32,
}

/// Everything one search thread owns.
pub struct ThreadData {
    pub id: usize,
    pub history: History,
    pub correction: Correction,
    pub killers: Vec<[Option<Move>; 2]>,
    pub frames: Vec<Frame>,
    pub pv: Vec<Vec<Move>>,
    /// Keys of the game before the root, the root and the current path, oldest first.
    pub keys: Vec<u64>,
    /// Index of the root's key in `keys` (those before it are the game's).
    pub root_key: usize,
    pub root: Position,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub completed_depth: i32,
    pub nodes: u64,
    pub seldepth: usize,
    /// Null-move verification: no null move before this ply.
    pub nmp_min_ply: usize,
    /// Static evaluation, kept in step with the moves on the current path.
    pub eval: ThreadEval,
}

/// Frames before ply 0, so that `ply - 2` is always valid.
pub const FRAME_OFFSET: usize = 2;

impl ThreadData {
    pub fn new(id: usize) -> ThreadData {
        ThreadData {
            id,
            history: History::default(),
            correction: Correction::default(),
            killers: vec![[None; 2]; MAX_PLY + 2],
            frames: vec![Frame::default(); MAX_PLY + FRAME_OFFSET + 2],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            keys: Vec::with_capacity(1024),
            root_key: 0,
            root: Position::startpos(),
            root_moves: Vec::new(),
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            nodes: 0,
            seldepth: 0,
            nmp_min_ply: 0,
            eval: ThreadEval::new(&Evaluation::HandCrafted),
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
        self.killers.fill([None; 2]);
    }

    fn prepare(&mut self, job: &Job, moves: &[Move]) {
        let (root, game_keys) = (&job.root, &job.game_keys);
        self.eval.set_root(&job.evaluation, root);
        self.root = root.clone();
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        self.root_key = self.keys.len();
        self.keys.push(root.hash());
        self.root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                prev_score: -INFINITY,
                bound: Bound::Exact,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        self.frames.fill(Frame::default());
        // Killers are refutations at a ply of the last search's tree: another position's now.
        self.killers.fill([None; 2]);
        self.pv_idx = 0;
        self.completed_depth = 0;
        self.nodes = 0;
        self.seldepth = 0;
        self.nmp_min_ply = 0;
    }
}

/// What stays fixed during one search, shared by all its threads.
pub struct SearchContext<'a> {
    pub tt: &'a TranspositionTable,
    pub tablebases: Option<&'a TablebaseConfig>,
    /// Tablebase probes that found the position, all threads together.
    pub tb_hits: &'a AtomicU64,
    /// The root's tablebase value, reported instead of any search score short of a mate.
    pub root_tb_value: Option<i32>,
    pub flags: &'a Flags,
    /// Node counts published by each thread.
    pub nodes: &'a [AtomicU64],
    pub multipv: usize,
}

impl SearchContext<'_> {
    pub fn stopped(&self) -> bool {
        self.flags.stop.load(Ordering::Relaxed)
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One search request as the engine hands it to the driver.
pub struct Job {
    pub root: Position,
    pub game_keys: Vec<u64>,
    pub limits: SearchLimits,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub strength: Option<Strength>,
    pub evaluation: Evaluation,
    pub tablebases: Option<TablebaseConfig>,
    pub start: Instant,
}

/// Runs a whole search on `threads` and sends its events, ending with `BestMove`.
pub fn run(
    job: Job,
    threads: &mut [ThreadData],
    tt: &TranspositionTable,
    flags: &Flags,
    events: &Sender<SearchEvent>,
) {
    let tb_hits = AtomicU64::new(0);
    let (moves, root_tb_value) = root_moves(&job, &tb_hits);
    if moves.is_empty() {
        let value = if job.root.in_check() {
            mated_in(0)
        } else {
            DRAW
        };
        let _ = events.send(SearchEvent::Info(SearchInfo::bare(Score::from_value(
            value,
        ))));
        wait_while_allowed(&job, flags);
        let _ = events.send(SearchEvent::BestMove {
            best: None,
            ponder: None,
        });
        return;
    }

    tt.new_search();
    let mut limits = job.limits.clone();
    let mut multipv = job.multipv.max(1);
    if let Some(s) = job.strength {
        limits.limits.push(super::Limit::Nodes(s.node_cap()));
        multipv = multipv.max(s.candidates());
    }
    let tm = TimeManager::new(&limits, job.root.turn(), job.move_overhead, job.start);
    let soft = tm.soft_limit();
    let node_counters: Vec<AtomicU64> = threads.iter().map(|_| AtomicU64::new(0)).collect();
    let ctx = SearchContext {
        tt,
        tablebases: job.tablebases.as_ref(),
        tb_hits: &tb_hits,
        root_tb_value,
        flags,
        nodes: &node_counters,
        multipv: multipv.min(moves.len()),
    };
    for td in threads.iter_mut() {
        td.prepare(&job, &moves);
    }
    let (main_td, helpers) = threads.split_first_mut().expect("at least one thread");
    std::thread::scope(|scope| {
        for td in helpers.iter_mut() {
            let ctx = &ctx;
            scope.spawn(move || Searcher::new(td, ctx, None).iterate());
        }
        let main = MainThread {
            tm,
            events,
            started: job.start,
            was_pondering: flags.pondering.load(Ordering::Relaxed),
        };
        Searcher::new(main_td, &ctx, Some(main)).iterate();
        wait_while_allowed(&job, flags);
        flags.stop.store(true, Ordering::Relaxed);
    });

    // A helper that got further may know better than the main thread: its line is played and
    // reported. (MultiPV and strength levels use the main thread's lines.)
    if ctx.multipv == 1 && job.strength.is_none() {
        adopt_voted_line(&job, &ctx, main_td, helpers, events);
    }

    let best_line = &main_td.root_moves[0];
    let mut best = best_line.mv;
    if let Some(s) = job.strength {
        let candidates: Vec<(Move, i32)> = main_td
            .root_moves
            .iter()
            .take(ctx.multipv)
            .filter(|rm| rm.score > -INFINITY)
            .map(|rm| (rm.mv, rm.score))
            .collect();
        let seed = job.start.elapsed().as_nanos() as u64 ^ job.root.hash();
        best = s.choose(&candidates, seed).unwrap_or(best);
        let min = s.min_think(soft);
        while job.start.elapsed() < min {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let line = main_td
        .root_moves
        .iter()
        .find(|rm| rm.mv == best)
        .expect("best is a root move");
    let ponder = line.pv.get(1).copied().or_else(|| {
        let mut next = job.root.clone();
        next.play_unchecked(best);
        let m = tt.probe(next.hash(), 0)?.mv?;
        next.legal_moves().contains(m).then_some(m)
    });
    let _ = events.send(SearchEvent::BestMove {
        best: Some(best),
        ponder,
    });
}

/// The root moves to search: all legal moves, or `searchmoves`' if any of them are legal, or
/// in the tablebases the best DTZ group alone (so the engine cannot throw a win away nor lose
/// one to the fifty-move rule), with the tables' value of the root.
fn root_moves(job: &Job, tb_hits: &AtomicU64) -> (Vec<Move>, Option<i32>) {
    let moves: Vec<Move> = job.root.legal_moves().iter().copied().collect();
    if !job.limits.search_moves.is_empty() {
        let only: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| job.limits.search_moves.contains(m))
            .collect();
        return (if only.is_empty() { moves } else { only }, None);
    }
    if let Some(tb) = &job.tablebases
        && let Some(root) = tb.tables.root_moves(&job.root, tb.rule50)
    {
        tb_hits.fetch_add(root.probes, Ordering::Relaxed);
        let best = root.best.iter().map(|rm| rm.mv).collect();
        return (best, Some(tb_root_value(&root.best[0], tb.rule50)));
    }
    (moves, None)
}

/// An infinite or pondering search does not answer before it is told to stop.
fn wait_while_allowed(job: &Job, flags: &Flags) {
    while !flags.stop.load(Ordering::Relaxed)
        && (job.limits.is_infinite() || flags.pondering.load(Ordering::Relaxed))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Puts the line of the thread the vote chose first in the main thread's root moves, and
/// reports it, when that thread is a helper.
fn adopt_voted_line(
    job: &Job,
    ctx: &SearchContext,
    main_td: &mut ThreadData,
    helpers: &[ThreadData],
    events: &Sender<SearchEvent>,
) {
    let chosen = vote(main_td, helpers);
    if chosen == 0 {
        return;
    }
    let helper = &helpers[chosen - 1];
    let line = helper.root_moves[0].clone();
    if let Some(i) = main_td.root_moves.iter().position(|rm| rm.mv == line.mv) {
        main_td.root_moves[i] = line;
        main_td.root_moves[..=i].rotate_right(1);
    }
    let nodes = ctx.total_nodes().max(main_td.nodes);
    if let Some(info) = root_move_info(
        ctx,
        &job.root,
        &main_td.root_moves[0],
        helper.root_depth,
        1,
        job.start,
        nodes,
    ) {
        let _ = events.send(SearchEvent::Info(info));
    }
}

/// The thread whose move to play (0: the main thread): each thread votes for its best move
/// with weight (value above the worst thread's + 14) x completed depth, as in Stockfish; a
/// decisive value instead goes to the best one.
fn vote(main: &ThreadData, helpers: &[ThreadData]) -> usize {
    let candidates: Vec<(usize, Move, i32, i32)> = std::iter::once(main)
        .chain(helpers)
        .enumerate()
        .filter(|(_, td)| td.completed_depth > 0)
        .filter_map(|(i, td)| {
            let rm = &td.root_moves[0];
            let value = if rm.score > -INFINITY {
                rm.score
            } else {
                rm.prev_score
            };
            (value > -INFINITY).then_some((i, rm.mv, value, td.completed_depth))
        })
        .collect();
    let Some(&first) = candidates.first().filter(|c| c.0 == 0) else {
        return 0;
    };
    let min = candidates.iter().map(|c| c.2).min().unwrap_or(0);
    let votes = |mv: Move| -> i64 {
        candidates
            .iter()
            .filter(|c| c.1 == mv)
            .map(|c| i64::from(c.2 - min + 14) * i64::from(c.3))
            .sum()
    };
    let mut best = first;
    for &c in &candidates[1..] {
        let better = if is_decisive(best.2) || is_decisive(c.2) {
            c.2 > best.2
        } else {
            let (ours, theirs) = (votes(c.1), votes(best.1));
            ours > theirs || (ours == theirs && c.3 > best.3)
        };
        if better {
            best = c;
        }
    }
    best.0
}

/// The root's value from its best tablebase move: a win nearer to zeroing scores higher.
fn tb_root_value(best: &TbRootMove, rule50: bool) -> i32 {
    let distance = best.dtz.unsigned_abs().min(MAX_PLY as u32 - 1) as i32;
    match best.wdl {
        TbWdl::Win => TB_WIN - distance,
        TbWdl::CursedWin if !rule50 => TB_WIN - distance,
        TbWdl::Loss => -TB_WIN + distance,
        TbWdl::BlessedLoss if !rule50 => -TB_WIN + distance,
        TbWdl::CursedWin => DRAW + 1,
        TbWdl::BlessedLoss => DRAW - 1,
        TbWdl::Draw => DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::mate_in;

    /// A thread whose best root move is `mv`, worth `value` after `depth` completed plies.
    fn thread(id: usize, mv: Move, value: i32, depth: i32) -> ThreadData {
        let mut td = ThreadData::new(id);
        td.completed_depth = depth;
        td.root_moves = vec![RootMove {
            mv,
            score: -INFINITY,
            prev_score: value,
            bound: Bound::Exact,
            seldepth: 0,
            pv: vec![mv],
        }];
        td
    }

    #[test]
    fn threads_vote_on_the_move() {
        let moves = Position::startpos().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        // A deeper helper with a better value outvotes the main thread.
        assert_eq!(vote(&thread(0, a, 20, 10), &[thread(1, b, 30, 12)]), 1);
        // Two shallower helpers agreeing on a move outvote one deeper thread.
        let helpers = [thread(1, b, 20, 9), thread(2, b, 20, 9)];
        assert_eq!(vote(&thread(0, a, 20, 12), &helpers), 1);
        // A helper that has not finished an iteration has no say.
        assert_eq!(vote(&thread(0, a, 20, 10), &[thread(1, b, 500, 0)]), 0);
        // A mate beats any number of votes.
        let helpers = [thread(1, b, 30, 14), thread(2, b, 30, 14)];
        assert_eq!(vote(&thread(0, a, mate_in(5), 8), &helpers), 0);
    }
}
