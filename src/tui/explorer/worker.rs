//! The explorer's thread: it owns the open database and answers one request at a time, so the
//! interface never waits on a query. Of the positions asked for while it was busy, only the
//! last is explored: the others are no longer on the board.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use crate::chess::Position;
use crate::db::{Database, Explorer, Filters, GameHeader, Report};
use crate::game::Game;

/// Games listed by the games list of a position, the latest of those that reached it.
pub const LISTED_GAMES: usize = 300;

#[derive(Clone, Debug)]
pub enum Request {
    /// Open this database; what follows is asked of it.
    Open(PathBuf),
    Explore {
        position: Box<Position>,
        filters: Box<Filters>,
    },
    /// The games that reached the position, latest first.
    Games {
        position: Box<Position>,
        filters: Box<Filters>,
    },
    /// One game, to open at `position`.
    Load { id: u64, position: Box<Position> },
}

#[derive(Clone, Debug)]
pub enum Reply {
    /// The database opened, with its number of games, or why not.
    Opened {
        path: PathBuf,
        games: Result<u64, String>,
    },
    Explored {
        position: Box<Position>,
        filters: Box<Filters>,
        report: Result<Box<Report>, String>,
    },
    Games {
        position: Box<Position>,
        games: Result<Vec<GameHeader>, String>,
    },
    Loaded {
        id: u64,
        position: Box<Position>,
        game: Result<Box<Game>, String>,
    },
}

/// Starts the thread; `send` hands each reply to the interface and says whether it still listens.
pub fn spawn(send: impl FnMut(Reply) -> bool + Send + 'static) -> io::Result<Sender<Request>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("explorer".into())
        .spawn(move || serve(&rx, send))?;
    Ok(tx)
}

fn serve(rx: &Receiver<Request>, mut send: impl FnMut(Reply) -> bool) {
    let mut queue = VecDeque::new();
    while let Some(request) = next(rx, &mut queue) {
        let Request::Open(path) = request else {
            if !send(refused(request, "no database is open".into())) {
                return;
            }
            continue;
        };
        let db = match Database::open(&path) {
            Ok(db) => db,
            Err(e) => {
                let games = Err(e.to_string());
                if !send(Reply::Opened { path, games }) {
                    return;
                }
                continue;
            }
        };
        let games = db.game_count().map_err(|e| e.to_string());
        if !send(Reply::Opened { path, games }) {
            return;
        }
        // One explorer for the database's lifetime: it keeps what every query reads.
        let mut explorer = Explorer::new(&db);
        while let Some(request) = next(rx, &mut queue) {
            if let Request::Open(_) = request {
                queue.push_front(request);
                break;
            }
            if !send(answer(&mut explorer, request)) {
                return;
            }
        }
    }
}

/// The next request to answer, waiting for one; `None` once the interface is gone.
fn next(rx: &Receiver<Request>, queue: &mut VecDeque<Request>) -> Option<Request> {
    if queue.is_empty() {
        queue.push_back(rx.recv().ok()?);
    }
    queue.extend(rx.try_iter());
    let is_explore = |r: &Request| matches!(r, Request::Explore { .. });
    if let Some(last) = queue.iter().rposition(is_explore) {
        let mut at = 0;
        queue.retain(|r| {
            at += 1;
            at - 1 == last || !is_explore(r)
        });
    }
    queue.pop_front()
}

fn answer(explorer: &mut Explorer<'_>, request: Request) -> Reply {
    match request {
        Request::Open(_) => refused(request, "opened elsewhere".into()),
        Request::Explore { position, filters } => {
            let report = explorer
                .explore(&position, &filters)
                .map(Box::new)
                .map_err(|e| e.to_string());
            Reply::Explored {
                position,
                filters,
                report,
            }
        }
        Request::Games { position, filters } => {
            let games = latest_games(explorer, &position, &filters).map_err(|e| e.to_string());
            Reply::Games { position, games }
        }
        Request::Load { id, position } => {
            let game = explorer
                .load(&[id])
                .map_err(|e| e.to_string())
                .and_then(|games| {
                    games
                        .first()
                        .and_then(|g| g.to_game())
                        .map(Box::new)
                        .ok_or_else(|| format!("game {id} is damaged in the database"))
                });
            Reply::Loaded { id, position, game }
        }
    }
}

fn latest_games(
    explorer: &mut Explorer<'_>,
    position: &Position,
    filters: &Filters,
) -> Result<Vec<GameHeader>, crate::db::DbError> {
    let latest = explorer.latest_game_ids(position, filters, LISTED_GAMES)?;
    let mut games = explorer.headers(&latest)?;
    // Latest played first; games without a date after those with one, latest imported first.
    games.sort_by(|a, b| b.date.cmp(&a.date));
    Ok(games)
}

/// The reply to a request that could not be asked, saying why.
fn refused(request: Request, why: String) -> Reply {
    match request {
        Request::Open(path) => Reply::Opened {
            path,
            games: Err(why),
        },
        Request::Explore { position, filters } => Reply::Explored {
            position,
            filters,
            report: Err(why),
        },
        Request::Games { position, .. } => Reply::Games {
            position,
            games: Err(why),
        },
        Request::Load { id, position } => Reply::Loaded {
            id,
            position,
            game: Err(why),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explore(fen: &str) -> Request {
        Request::Explore {
            position: Box::new(Position::from_fen(fen).unwrap()),
            filters: Box::default(),
        }
    }

    #[test]
    fn only_the_last_position_asked_for_is_explored() {
        let (tx, rx) = mpsc::channel();
        let start = Position::startpos().fen();
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        tx.send(explore(&start)).unwrap();
        tx.send(Request::Load {
            id: 3,
            position: Box::new(Position::startpos()),
        })
        .unwrap();
        tx.send(explore(after_e4)).unwrap();
        drop(tx);
        let mut queue = VecDeque::new();
        let first = next(&rx, &mut queue).unwrap();
        assert!(matches!(first, Request::Load { id: 3, .. }));
        let Some(Request::Explore { position, .. }) = next(&rx, &mut queue) else {
            panic!("the last explore is kept");
        };
        assert_eq!(position.fen(), after_e4);
        assert!(next(&rx, &mut queue).is_none());
    }

    #[test]
    fn requests_without_a_database_are_refused_and_a_bad_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let not_db = dir.path().join("games.pgn");
        std::fs::write(&not_db, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        let (replies_tx, replies) = mpsc::channel();
        let tx = spawn(move |r| replies_tx.send(r).is_ok()).unwrap();
        tx.send(explore(&Position::startpos().fen())).unwrap();
        tx.send(Request::Open(not_db.clone())).unwrap();
        let Reply::Explored {
            report: Err(why), ..
        } = replies.recv().unwrap()
        else {
            panic!("refused");
        };
        assert!(why.contains("no database"), "{why}");
        let Reply::Opened {
            path,
            games: Err(why),
        } = replies.recv().unwrap()
        else {
            panic!("not a database");
        };
        assert_eq!(path, not_db);
        assert!(why.contains("games.pgn"), "{why}");
    }
}
