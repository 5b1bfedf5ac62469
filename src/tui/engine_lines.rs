//! The engine's lines as the analysis panel shows them: the position they start from, the
//! engine that reported them, and how far into the first line the board looks.

use crate::chess::Position;
use crate::engines::service::{ENGINE_NAME, PvInfo};

#[derive(Clone, Debug)]
pub struct EngineLines {
    lines: Vec<PvInfo>,
    /// The position the lines start from (`None`: no lines yet).
    root: Option<Position>,
    /// The engine answering, as the engine service said.
    engine: String,
    /// How far into the first line the board looks (0: the game's position).
    cursor: usize,
}

impl Default for EngineLines {
    fn default() -> EngineLines {
        EngineLines {
            lines: Vec::new(),
            root: None,
            engine: ENGINE_NAME.into(),
            cursor: 0,
        }
    }
}

impl EngineLines {
    /// A report of a search from `root`: the lines of another position go, then it is merged
    /// in (distinct first moves, complete lines, at most `shown`).
    pub fn report(&mut self, root: &Position, info: PvInfo, shown: usize) {
        if self.root.as_ref() != Some(root) {
            self.lines.clear();
            self.cursor = 0;
            self.root = Some(root.clone());
        }
        merge_line(&mut self.lines, info, shown);
    }

    /// The lines if they start from `pos`, else none.
    pub fn for_position(&self, pos: &Position) -> &[PvInfo] {
        if self.root.as_ref() == Some(pos) {
            &self.lines
        } else {
            &[]
        }
    }

    /// Whether any position has lines (possibly not the one shown).
    pub fn has_root(&self) -> bool {
        self.root.is_some()
    }

    pub fn clear(&mut self) {
        self.lines.clear();
        self.root = None;
    }

    /// Keeps at most `n` lines (fewer lines asked for).
    pub fn truncate(&mut self, n: usize) {
        self.lines.truncate(n);
    }

    pub fn engine(&self) -> &str {
        &self.engine
    }

    pub fn set_engine(&mut self, name: String) {
        self.engine = name;
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Back to the game's own position.
    pub fn reset_cursor(&mut self) {
        self.cursor = 0;
    }

    /// One move further into (or back out of) a first line `len` moves long.
    pub fn step_cursor(&mut self, forward: bool, len: usize) {
        self.cursor = if forward {
            (self.cursor + 1).min(len)
        } else {
            self.cursor.saturating_sub(1)
        };
    }

    /// The first line's moves, where a test makes one up.
    #[cfg(test)]
    pub fn first_pv_mut(&mut self) -> Option<&mut Vec<crate::chess::Move>> {
        self.lines.first_mut().map(|l| &mut l.pv)
    }
}

/// Keeps the engine's lines distinct and complete: a line replaces the one shown with the same
/// first move; a partial line (a bound, its line cut short) leaves a complete one in place; at
/// most `shown` lines stay, the newest iteration's first, in the engine's order.
fn merge_line(lines: &mut Vec<PvInfo>, info: PvInfo, shown: usize) {
    let first = info.pv.first().copied();
    let same = |l: &PvInfo| l.pv.first().copied() == first;
    if info.partial && lines.iter().any(|l| same(l) && !l.partial) {
        return;
    }
    lines.retain(|l| !same(l));
    lines.push(info);
    lines.sort_by_key(|l| (std::cmp::Reverse(l.depth), l.multipv));
    lines.truncate(shown);
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::merge_line;
    use crate::chess::{Move, Position};
    use crate::engines::service::{
        EngineCommand, EngineEvent, EngineService, EngineSettings, GoLimits, PvInfo,
    };

    /// Multi-PV: each first move once, a line replaced only by a complete one, the newest
    /// iteration's lines first.
    #[test]
    fn engine_lines_stay_distinct_and_complete() {
        let start = Position::startpos();
        let line = |depth: u32, multipv: u32, moves: &[&str], partial: bool| {
            let mut pos = start.clone();
            let pv = moves
                .iter()
                .map(|m| {
                    let m = pos.parse_uci(m).unwrap();
                    pos.play_unchecked(m);
                    m
                })
                .collect();
            PvInfo {
                depth,
                multipv,
                pv,
                partial,
                ..PvInfo::default()
            }
        };
        let firsts = |lines: &[PvInfo]| -> Vec<String> {
            lines.iter().map(|l| start.uci(l.pv[0])).collect()
        };
        let mut lines = Vec::new();
        merge_line(&mut lines, line(14, 1, &["e2e4", "e7e5", "g1f3"], false), 2);
        merge_line(&mut lines, line(14, 2, &["d2d4", "d7d5", "c2c4"], false), 2);
        // Depth 15 finds d4 best first: it is not shown twice, and e4's depth-14 line stays.
        merge_line(&mut lines, line(15, 1, &["d2d4", "g8f6", "c2c4"], false), 2);
        assert_eq!(firsts(&lines), ["d2d4", "e2e4"]);
        // A bound for e4 with a line cut short leaves its complete line shown.
        merge_line(&mut lines, line(15, 2, &["e2e4"], true), 2);
        assert_eq!(lines[1].pv.len(), 3);
        merge_line(&mut lines, line(15, 2, &["e2e4", "c7c5", "g1f3"], false), 2);
        assert_eq!(firsts(&lines), ["d2d4", "e2e4"]);
        assert!(lines.iter().all(|l| l.depth == 15 && l.pv.len() == 3));
        // A third first move at MultiPV 2: only two lines are kept.
        merge_line(&mut lines, line(16, 1, &["c2c4", "e7e5"], false), 2);
        assert_eq!(firsts(&lines), ["c2c4", "d2d4"]);
    }

    /// Whether `pv` from `start` ends in mate, stalemate or a position it has already been in.
    fn ends_game(start: &Position, pv: &[Move]) -> bool {
        let mut pos = start.clone();
        let mut seen = vec![pos.hash()];
        for &m in pv {
            pos.play_unchecked(m);
            seen.push(pos.hash());
        }
        pos.legal_moves().is_empty() || seen[..seen.len() - 1].contains(&pos.hash())
    }

    /// The built-in engine at MultiPV 5, its every report shown as the analysis panel shows it:
    /// five different first moves, and every line as long as its depth unless it ends the game
    /// (or repeats a position: a draw).
    #[test]
    fn the_engine_at_multipv_5_shows_five_distinct_complete_lines() {
        let (tx, rx) = mpsc::channel();
        let service = EngineService::spawn(move |_, event| {
            let _ = tx.send(event);
        });
        service.send(EngineCommand::Options(EngineSettings {
            hash_mb: 16,
            threads: 1,
            multipv: 5,
            level: 20,
        }));
        // A middlegame with many reasonable moves (the Two Knights after 4. Ng5 d5 5. exd5).
        let start =
            Position::from_fen("r1bqkb1r/ppp2ppp/2n2n2/3Pp1N1/2B5/8/PPPP1PPP/RNBQK2R b KQkq - 0 5")
                .unwrap();
        service.send(EngineCommand::Go {
            id: 1,
            engine: None,
            start: Box::new(start.clone()),
            moves: Vec::new(),
            limits: GoLimits::MoveTime(Duration::from_millis(1500)),
            ponder: false,
        });
        let mut lines = Vec::new();
        let mut deepest = 0;
        loop {
            match rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the engine answers")
            {
                EngineEvent::Info(info) => {
                    deepest = deepest.max(info.depth);
                    merge_line(&mut lines, info, 5);
                    let mut firsts: Vec<_> = lines.iter().map(|l| l.pv[0]).collect();
                    firsts.sort_by_key(|m| start.uci(*m));
                    firsts.dedup();
                    assert_eq!(firsts.len(), lines.len(), "a first move twice: {lines:?}");
                    for line in lines.iter().filter(|l| !l.partial) {
                        assert!(
                            line.pv.len() >= line.depth as usize || ends_game(&start, &line.pv),
                            "depth {} line of {} moves",
                            line.depth,
                            line.pv.len()
                        );
                    }
                }
                EngineEvent::BestMove { .. } => break,
                _ => {}
            }
        }
        assert_eq!(lines.len(), 5);
        assert!(deepest >= 6, "searched to depth {deepest} only");
    }
}
