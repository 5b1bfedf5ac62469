//! The explorer panel's state: the database open in it, the report for the shown position,
//! which games count (all of them, or the configured player's as White or as Black), the row
//! chosen, and the games list of a position. The queries run on the explorer's thread
//! ([`worker`]); this only remembers what was asked and what came back.

pub mod worker;

use std::path::{Path, PathBuf};

use crate::chess::{Color, Move, Position};
use crate::db::{Filters, GameHeader, MoveStats, Report};

use worker::Request;

/// Which games the panel counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    All,
    /// The configured player's games with this colour: their repertoire.
    Mine(Color),
}

impl Scope {
    /// The next scope of the cycle all, mine as White, mine as Black.
    pub fn next(self) -> Scope {
        match self {
            Scope::All => Scope::Mine(Color::White),
            Scope::Mine(Color::White) => Scope::Mine(Color::Black),
            Scope::Mine(Color::Black) => Scope::All,
        }
    }

    fn of(filters: &Filters) -> Scope {
        match (&filters.player, filters.color) {
            (Some(_), Some(color)) => Scope::Mine(color),
            _ => Scope::All,
        }
    }
}

/// The explorer panel. Open while it names a database; shown in analyse mode.
#[derive(Clone, Debug, Default)]
pub struct ExplorerPanel {
    path: Option<PathBuf>,
    /// The database's games once it opened.
    games: Option<u64>,
    /// The latest report: the position's key, the scope, the report.
    report: Option<(u64, Scope, Box<Report>)>,
    /// The position and scope last asked about.
    asked: Option<(u64, Scope)>,
    /// The position and scope whose query failed, and why: not asked again (its answer would
    /// come straight back and ask again).
    error: Option<(u64, Scope, String)>,
    scope: Scope,
    focused: bool,
    selected: usize,
}

impl ExplorerPanel {
    /// Forgets the database shown and asks for `path`.
    pub fn open(&mut self, path: PathBuf) -> Request {
        *self = ExplorerPanel {
            path: Some(path.clone()),
            scope: self.scope,
            ..ExplorerPanel::default()
        };
        Request::Open(path)
    }

    pub fn close(&mut self) {
        *self = ExplorerPanel::default();
    }

    /// The database opened (`Ok`, with its games) or could not be (the panel closes).
    pub fn opened(&mut self, path: &Path, games: &Result<u64, String>) {
        if self.path.as_deref() != Some(path) {
            return;
        }
        match games {
            Ok(n) => self.games = Some(*n),
            Err(_) => self.close(),
        }
    }

    pub fn is_open(&self) -> bool {
        self.path.is_some()
    }

    /// The database's file name, for titles.
    pub fn name(&self) -> String {
        self.path
            .as_deref()
            .and_then(Path::file_name)
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn games(&self) -> Option<u64> {
        self.games
    }

    pub fn scope(&self) -> Scope {
        self.scope
    }

    pub fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
        self.selected = 0;
    }

    pub fn focused(&self) -> bool {
        self.focused
    }

    pub fn set_focus(&mut self, focused: bool) {
        self.focused = focused && self.is_open();
    }

    /// Why the query for `pos` in the panel's scope failed, if it did.
    pub fn error_for(&self, pos: &Position) -> Option<&str> {
        self.error
            .as_ref()
            .filter(|(key, scope, _)| *key == pos.hash() && *scope == self.scope)
            .map(|(_, _, why)| why.as_str())
    }

    /// The filters of the panel's scope; `player` is the configured name.
    pub fn filters(&self, player: Option<&str>) -> Filters {
        match (self.scope, player) {
            (Scope::Mine(color), Some(name)) => Filters {
                player: Some(name.to_owned()),
                color: Some(color),
                ..Filters::default()
            },
            _ => Filters::default(),
        }
    }

    /// The query to send for the shown position, unless its report is here or asked for.
    pub fn request_for(&mut self, pos: &Position, player: Option<&str>) -> Option<Request> {
        self.games?;
        let wanted = (pos.hash(), self.scope);
        let have = self.report.as_ref().map(|(key, scope, _)| (*key, *scope));
        let failed = self.error.as_ref().map(|(key, scope, _)| (*key, *scope));
        if have == Some(wanted) || self.asked == Some(wanted) || failed == Some(wanted) {
            return None;
        }
        self.asked = Some(wanted);
        Some(Request::Explore {
            position: Box::new(pos.clone()),
            filters: Box::new(self.filters(player)),
        })
    }

    /// A report (or why there is none) for `pos` under `filters` came back.
    pub fn explored(
        &mut self,
        pos: &Position,
        filters: &Filters,
        report: Result<Box<Report>, String>,
    ) {
        let key = (pos.hash(), Scope::of(filters));
        if self.asked == Some(key) {
            self.asked = None;
        }
        match report {
            Ok(report) => {
                let moved = self.report.as_ref().is_none_or(|(k, _, _)| *k != key.0);
                if moved {
                    self.selected = 0;
                }
                self.report = Some((key.0, key.1, report));
                self.error = None;
            }
            Err(why) => self.error = Some((key.0, key.1, why)),
        }
    }

    /// The report for `pos` in the panel's scope, once it came.
    pub fn report_for(&self, pos: &Position) -> Option<&Report> {
        self.report
            .as_ref()
            .filter(|(key, scope, _)| *key == pos.hash() && *scope == self.scope)
            .map(|(_, _, report)| report.as_ref())
    }

    /// Whether a query for the shown position is on its way.
    pub fn waiting(&self, pos: &Position) -> bool {
        self.asked == Some((pos.hash(), self.scope))
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Chooses row `row` (the last of `rows` when past it).
    pub fn select_row(&mut self, row: usize, rows: usize) {
        self.selected = row.min(rows.saturating_sub(1));
    }

    /// The chosen row's move in `pos`.
    pub fn selected_move(&self, pos: &Position) -> Option<Move> {
        let row: &MoveStats = self.report_for(pos)?.moves.get(self.selected)?;
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| pos.uci(m) == row.uci)
    }
}

/// The games that reached a position, to choose one to open there.
#[derive(Clone, Debug)]
pub struct GamesList {
    pub position: Box<Position>,
    pub games: Vec<GameHeader>,
    pub selected: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Tally;

    fn report(moves: &[&str]) -> Box<Report> {
        let pos = Position::startpos();
        let moves = moves
            .iter()
            .map(|uci| {
                let m = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|&m| pos.uci(m) == *uci);
                MoveStats {
                    uci: (*uci).into(),
                    san: pos.san(m.unwrap()),
                    tally: Tally::default(),
                }
            })
            .collect();
        Box::new(Report {
            fen: pos.fen(),
            total: Tally::default(),
            moves,
            ended: Tally::default(),
            top_games: Vec::new(),
            latest_games: Vec::new(),
            players: Vec::new(),
        })
    }

    #[test]
    fn asks_once_per_position_and_scope_and_keeps_the_answer() {
        let mut panel = ExplorerPanel::default();
        let start = Position::startpos();
        assert!(panel.request_for(&start, None).is_none(), "nothing open");
        panel.open("a.kdb".into());
        assert!(panel.request_for(&start, None).is_none(), "not opened yet");
        panel.opened(Path::new("a.kdb"), &Ok(10));
        assert!(panel.request_for(&start, None).is_some());
        assert!(panel.request_for(&start, None).is_none(), "asked already");
        assert!(panel.waiting(&start));
        // A failed query is not asked again.
        panel.explored(&start, &Filters::default(), Err("disk error".into()));
        assert_eq!(panel.error_for(&start), Some("disk error"));
        assert!(panel.request_for(&start, None).is_none());
        panel.explored(&start, &Filters::default(), Ok(report(&["e2e4", "d2d4"])));
        assert_eq!(panel.error_for(&start), None);
        assert!(!panel.waiting(&start));
        assert_eq!(panel.report_for(&start).unwrap().moves.len(), 2);
        assert!(panel.request_for(&start, None).is_none(), "answered");
        panel.select_row(5, 2);
        assert_eq!(
            panel.selected_move(&start).map(|m| start.uci(m)),
            Some("d2d4".into())
        );

        // Another scope is another question; its answer is not shown for all games.
        panel.set_scope(Scope::Mine(Color::Black));
        assert!(panel.report_for(&start).is_none());
        let Some(Request::Explore { filters, .. }) = panel.request_for(&start, Some("me")) else {
            panic!("asks with the player's filter");
        };
        assert_eq!(
            (filters.player.as_deref(), filters.color),
            (Some("me"), Some(Color::Black))
        );
    }

    #[test]
    fn a_database_that_does_not_open_closes_the_panel() {
        let mut panel = ExplorerPanel::default();
        panel.open("bad.kdb".into());
        panel.opened(Path::new("other.kdb"), &Err("x".into()));
        assert!(panel.is_open(), "a reply for another file changes nothing");
        panel.opened(Path::new("bad.kdb"), &Err("not a database".into()));
        assert!(!panel.is_open());
        panel.set_focus(true);
        assert!(!panel.focused());
    }
}
