//! Progress reports of the main search thread: info lines per multi-PV line, bounds during
//! aspiration re-searches and the current root move (the latter two only in long searches).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::chess::{Move, Position};

use super::score::{INFINITY, Score, is_decisive};
use super::search::{Searcher, full_line};
use super::thread::{RootMove, SearchContext};
use super::{Bound, SearchEvent, SearchInfo};

/// The info line for one root move from `root` after `depth` plies (its last completed value when
/// this iteration has not scored it yet); `None` before it has any value.
pub(super) fn root_move_info(
    ctx: &SearchContext,
    root: &Position,
    rm: &RootMove,
    depth: i32,
    multipv: usize,
    started: Instant,
    nodes: u64,
) -> Option<SearchInfo> {
    let (depth, value, bound) = if rm.score > -INFINITY {
        (depth, rm.score, rm.bound)
    } else if rm.prev_score > -INFINITY && depth > 1 {
        (depth - 1, rm.prev_score, Bound::Exact)
    } else {
        return None;
    };
    let value = match ctx.root_tb_value {
        Some(tb) if !is_decisive(value) || value.signum() != tb.signum() => tb,
        _ => value,
    };
    let time = started.elapsed();
    let score = Score::from_value(value);
    let pv = match score {
        Score::Mate(_) => rm.pv.clone(),
        Score::Cp(_) => full_line(ctx.tt, root, &rm.pv, depth as usize),
    };
    Some(SearchInfo {
        depth: depth as u32,
        seldepth: rm.seldepth.max(depth as usize) as u32,
        multipv,
        score,
        bound,
        wdl: score.wdl(),
        nodes,
        nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
        hashfull: ctx.tt.hashfull(),
        tbhits: ctx.tb_hits.load(Ordering::Relaxed),
        time,
        pv,
    })
}

impl Searcher<'_> {
    fn info(&self, depth: i32, index: usize) -> Option<SearchInfo> {
        let main = self.main.as_ref()?;
        let nodes = self.ctx.total_nodes().max(self.td.nodes);
        root_move_info(
            self.ctx,
            &self.td.root,
            &self.td.root_moves[index],
            depth,
            index + 1,
            main.started,
            nodes,
        )
    }

    pub(super) fn report(&self, depth: i32) {
        let Some(main) = &self.main else { return };
        for i in 0..self.ctx.multipv {
            if let Some(info) = self.info(depth, i) {
                let _ = main.events.send(SearchEvent::Info(info));
            }
        }
    }

    /// Fail-high/fail-low lines, only in longer searches (they are noise in fast games).
    pub(super) fn report_bound(&self, depth: i32) {
        let Some(main) = &self.main else { return };
        if main.started.elapsed() < REPORT_BOUNDS_AFTER {
            return;
        }
        if let Some(info) = self.info(depth, self.td.pv_idx) {
            let _ = main.events.send(SearchEvent::Info(info));
        }
    }

    pub(super) fn report_currmove(&self, m: Move, number: usize) {
        let Some(main) = &self.main else { return };
        if main.started.elapsed() >= REPORT_BOUNDS_AFTER {
            let _ = main.events.send(SearchEvent::CurrMove {
                depth: self.td.root_depth as u32,
                mv: m,
                number: number + self.td.pv_idx,
            });
        }
    }
}

/// Bound and current-move reports start after this much thinking.
const REPORT_BOUNDS_AFTER: Duration = Duration::from_secs(3);
