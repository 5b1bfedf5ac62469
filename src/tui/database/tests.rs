//! The explorer panel through the update loop: keys and the explorer thread's replies in,
//! requests out (the thread itself is tested in `explorer::worker`, and end to end in tmux).

use crate::chess::{Color, Position};
use crate::db::{Filters, GameHeader, MoveStats, Report, Tally};
use crate::game::{Game, GameMove};

use super::super::action::Action;
use super::super::app::{App, Effect, Overlay};
use super::super::explorer::worker::{Reply, Request};
use super::super::tests::{app, keys, playing, sans};
use super::super::update::update;

/// The requests sent to the explorer's thread since the effects were drained.
fn requests(app: &mut App) -> Vec<Request> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Explorer(r) => Some(r),
            _ => None,
        })
        .collect()
}

fn tally(games: u64) -> Tally {
    let mut tally = Tally::default();
    tally.games = games;
    tally.white = games;
    tally
}

fn report(pos: &Position, moves: &[(&str, u64)]) -> Box<Report> {
    let moves: Vec<MoveStats> = moves
        .iter()
        .map(|&(uci, games)| MoveStats {
            uci: uci.into(),
            san: pos.san(pos.parse_uci(uci).unwrap()),
            tally: tally(games),
        })
        .collect();
    Box::new(Report {
        fen: pos.fen(),
        total: tally(moves.iter().map(|m| m.tally.games).sum()),
        moves,
        ended: Tally::default(),
        top_games: Vec::new(),
        latest_games: Vec::new(),
        players: Vec::new(),
    })
}

fn header(id: u64) -> GameHeader {
    GameHeader {
        id,
        white: "Anna".into(),
        black: "Boris".into(),
        white_elo: Some(2100),
        black_elo: None,
        result: "1-0".into(),
        date: "2024.05.01".into(),
        event: "Club".into(),
    }
}

/// Opens `games.kdb` (of `games` games) and answers the query for the start position.
fn opened(app: &mut App) {
    keys(app, ":db games.kdb<Enter>");
    assert!(matches!(&requests(app)[..], [Request::Open(p)] if p.ends_with("games.kdb")));
    let reply = Reply::Opened {
        path: "games.kdb".into(),
        games: Ok(3),
    };
    update(app, Action::Explorer(reply));
    let [Request::Explore { position, filters }] = &requests(app)[..] else {
        panic!("the shown position is explored");
    };
    assert_eq!(**position, Position::startpos());
    let report = report(position, &[("e2e4", 2), ("d2d4", 1)]);
    let reply = Reply::Explored {
        position: position.clone(),
        filters: filters.clone(),
        report: Ok(report),
    };
    update(app, Action::Explorer(reply));
}

#[test]
fn enter_plays_a_row_and_the_games_list_opens_a_game_at_the_position() {
    let mut app = app();
    opened(&mut app);
    assert_eq!(
        app.explorer()
            .report_for(app.position())
            .unwrap()
            .moves
            .len(),
        2
    );
    keys(&mut app, "<Tab><Down><Enter>");
    assert_eq!(sans(&app), "d4");
    let [Request::Explore { position, .. }] = &requests(&mut app)[..] else {
        panic!("the new position is explored");
    };
    assert_eq!(position.turn(), Color::Black);

    keys(&mut app, "g");
    let [Request::Games { position, .. }] = &requests(&mut app)[..] else {
        panic!("the games are asked for");
    };
    let after_d4 = position.clone();
    let reply = Reply::Games {
        position: after_d4.clone(),
        games: Ok(vec![header(7), header(9)]),
    };
    update(&mut app, Action::Explorer(reply));
    assert!(matches!(app.overlay(), Some(Overlay::DbGames(l)) if l.games.len() == 2));
    keys(&mut app, "<Down><Enter>");
    let [Request::Load { id: 9, .. }] = &requests(&mut app)[..] else {
        panic!("the chosen game is loaded");
    };

    // The game opens where its main line first has the position, not at its start.
    let mut game = Game::new(Position::startpos());
    let mut node = crate::game::NodeId::ROOT;
    let mut pos = Position::startpos();
    for uci in ["d2d4", "d7d5", "c2c4"] {
        let m = pos.parse_uci(uci).unwrap();
        node = game.tree.add_move(node, GameMove::Move(m)).unwrap();
        pos = game.tree.position(node).clone();
    }
    game.headers.set("White", "Anna");
    let reply = Reply::Loaded {
        id: 9,
        position: after_d4,
        game: Ok(Box::new(game)),
    };
    update(&mut app, Action::Explorer(reply));
    // The edited game (1. d4 played here) is not thrown away without a question.
    assert!(matches!(app.overlay(), Some(Overlay::Confirm(_))));
    keys(&mut app, "y");
    assert_eq!(sans(&app), "d4 d5 c4");
    assert_eq!(
        app.game().ply(app.game().current_node()),
        1,
        "shown at the position"
    );
    assert!(app.message().unwrap().1.contains("game 9: Anna"));
}

#[test]
fn the_panel_waits_for_analyse_mode_and_says_what_is_missing() {
    let mut app = playing(Color::White);
    keys(&mut app, ":db games.kdb<Enter>");
    requests(&mut app);
    let reply = Reply::Opened {
        path: "games.kdb".into(),
        games: Ok(3),
    };
    update(&mut app, Action::Explorer(reply));
    assert!(requests(&mut app).is_empty(), "no query during a game");
    keys(&mut app, "<Tab>");
    assert!(app.message().unwrap().1.contains("analyse mode"));

    let mut app = super::super::tests::app();
    keys(&mut app, "<Tab>");
    assert!(app.message().unwrap().1.contains("no database open"));
    opened(&mut app);
    keys(&mut app, "<Tab>m");
    assert!(app.message().unwrap().1.contains("[database] player"));
    app.config_mut().database_player = Some("Anna".into());
    keys(&mut app, "m");
    let [Request::Explore { filters, .. }] = &requests(&mut app)[..] else {
        panic!("explored again for the player's games");
    };
    assert_eq!(filters.player.as_deref(), Some("Anna"));
    assert_eq!(filters.color, Some(Color::White));
    assert!(
        app.explorer().report_for(app.position()).is_none(),
        "not all games' report"
    );
}

#[test]
fn a_database_that_does_not_open_is_named_and_closed() {
    let mut app = app();
    keys(&mut app, ":db nope.kdb<Enter>");
    requests(&mut app);
    let reply = Reply::Opened {
        path: "nope.kdb".into(),
        games: Err("nope.kdb: not a kibitzer database".into()),
    };
    update(&mut app, Action::Explorer(reply));
    assert!(!app.explorer().is_open());
    assert!(app.message().unwrap().1.contains("nope.kdb"));
    let filters = Filters::default();
    let reply = Reply::Explored {
        position: Box::new(Position::startpos()),
        filters: Box::new(filters),
        report: Err("late".into()),
    };
    update(&mut app, Action::Explorer(reply));
    assert!(requests(&mut app).is_empty());
}
