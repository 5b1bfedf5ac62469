//! Play mode against the engine: clocks, the engine's moves, takeback, hint, resign, draw
//! offers, and recording the finished game.

use std::time::Instant;

use crate::chess::{Color, Move};

use super::app::Purpose;
use super::app::{App, Effect, Mode};
use super::component::{Component, Wanted, board_command};
use super::config::{ColorChoice, Config};
use super::keymap::Command;
use super::mode::PlayState;
use crate::chess::Position;
use crate::engines::service::GoLimits;
use crate::game::NodeId;

use super::clock::TimeControl;
use super::saving::save_game;
use crate::game::Ending;

/// The engine accepts a draw when it is at least this much worse (centipawns, its view)...
const DRAW_ACCEPT_WORSE_CP: i32 = 50;
/// ...or when the game is this long and the score this close to level.
const DRAW_ACCEPT_LEVEL_CP: i32 = 25;
const DRAW_ACCEPT_MIN_PLY: usize = 60;

pub fn configured_color(config: &Config, now: Instant) -> Color {
    match config.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        // A coin from the clock's sub-second digits is random enough for choosing colours.
        ColorChoice::Random => {
            let nanos = now.elapsed().subsec_nanos() ^ std::process::id();
            if nanos & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
    }
}

/// Checks for a fallen flag.
pub fn tick(app: &mut App) {
    let now = app.now();
    if app.game().end().is_some() {
        return;
    }
    let Mode::Play(p) = app.mode_mut() else {
        return;
    };
    if let Some(loser) = p.clocks.flagged(now) {
        let winner = !loser;
        let end = if can_mate(app.game().last(), winner) {
            Ending::TimeForfeit {
                winner: Some(winner),
            }
        } else {
            Ending::TimeForfeit { winner: None }
        };
        app.game_mut().adjudicate(end);
    }
}

/// Whether `color` has any material that could mate (anything beyond a lone king).
fn can_mate(pos: &crate::chess::Position, color: Color) -> bool {
    pos.by_color(color).count() > 1
}

/// When the game has just ended: stop the clocks and record it once.
pub fn check_end(app: &mut App) {
    let Some(end) = app.game().end() else {
        return;
    };
    let now = app.now();
    let Mode::Play(p) = app.mode_mut() else {
        return;
    };
    if p.recorded {
        return;
    }
    p.clocks.stop(now);
    // Marked first so a failed save is reported once, not on every update.
    p.recorded = true;
    app.info(format!("game over: {end} ({})", end.result()));
    save_game(app, None);
}

/// The opponent plays from the opening book while it has a move, without searching.
pub fn book_reply(app: &mut App) {
    let Mode::Play(p) = app.mode() else {
        return;
    };
    if app.overlay().is_some() || app.game().end().is_some() || app.game().last().turn() == p.human
    {
        return;
    }
    let rule = app.config().book_rule(p.level);
    let Some(m) = app.book_pick(rule) else {
        return;
    };
    let san = app.game().last().san(m);
    engine_moved(app, app.game().main_end(), Some(m), None);
    app.info(format!("book move {san}"));
}

/// The engine's move `best` from the main line's end `at` (ignored if the game moved on), and
/// the reply it expects.
pub fn engine_moved(app: &mut App, at: NodeId, best: Option<Move>, ponder: Option<Move>) {
    let Mode::Play(p) = app.mode() else {
        return;
    };
    if at != app.game().main_end()
        || app.game().end().is_some()
        || app.game().last().turn() == p.human
    {
        return;
    }
    let Some(m) = best.filter(|&m| app.game().last().is_legal(m)) else {
        app.error("the engine returned no legal move");
        return;
    };
    let mover = app.game().last().turn();
    // If the player is looking back through the game, the view stays there.
    let node = app.game_mut().push_main(m);
    let expected = ponder.filter(|&r| app.game().last().is_legal(r));
    let now = app.now();
    if let Mode::Play(p) = app.mode_mut() {
        p.expected = expected.map(|r| (node, r));
        p.clocks.press(mover, now);
        if p.clocks.is_timed() {
            let left = p.clocks.remaining(mover, now);
            app.game_mut().set_clock(node, left);
        }
    }
    app.game_mut().mark_changed();
    app.effect(Effect::Autosave(app.snapshot().to_text()));
}

fn takeback(app: &mut App) {
    let Some(human) = app.human() else {
        return;
    };
    if let Mode::Play(p) = app.mode_mut() {
        p.premove = None;
    }
    // Back to the player's last move: the engine's reply (if made) and the player's move.
    let mut popped = 0;
    while !app.game().is_empty() {
        let mover = !app.game().last().turn();
        if app.game_mut().pop_main().is_none() {
            break;
        }
        popped += 1;
        if mover == human {
            break;
        }
    }
    if popped == 0 {
        return app.info("nothing to take back");
    }
    let end = app.game().main_end();
    app.game_mut().goto(end);
    app.clear_marks();
    let (turn, now) = (app.game().last().turn(), app.now());
    if let Mode::Play(p) = app.mode_mut() {
        p.recorded = false;
        p.hint_pending = false;
        p.expected = None;
        p.clocks.start(turn, now);
    }
    app.effect(Effect::Autosave(app.snapshot().to_text()));
    app.info("took back your last move");
}

fn hint(app: &mut App) {
    let (over, turn) = (app.game().end().is_some(), app.game().last().turn());
    match app.mode_mut() {
        Mode::Play(p) if !over && turn == p.human => {
            p.hint_pending = true;
            app.info("thinking about a hint...");
        }
        _ => app.info("a hint is for your move"),
    }
}

pub fn resign(app: &mut App) {
    match app.mode() {
        Mode::Play(p) if app.game().end().is_none() => {
            let winner = !p.human;
            app.game_mut().adjudicate(Ending::Resignation { winner });
        }
        _ => app.info("no game in progress"),
    }
}

fn offer_draw(app: &mut App) {
    let Mode::Play(p) = app.mode() else {
        return;
    };
    if app.game().end().is_some() {
        return app.info("the game is over");
    }
    let engine = !p.human;
    let latest = std::iter::successors(Some(app.game().main_end()), |&n| {
        app.game().tree().previous(n)
    })
    .find_map(|n| app.game().eval(n));
    let accepts = latest.is_some_and(|s| {
        let cp = s.as_cp() * engine.fold(1, -1);
        cp <= -DRAW_ACCEPT_WORSE_CP
            || (cp.abs() <= DRAW_ACCEPT_LEVEL_CP && app.game().len() >= DRAW_ACCEPT_MIN_PLY)
    });
    if accepts {
        app.game_mut().adjudicate(Ending::Agreement);
    } else {
        app.info("the engine declines the draw");
    }
}

/// Names the players and the event of a new game against the engine in its headers.
pub fn set_headers(app: &mut App) {
    let Mode::Play(p) = app.mode() else {
        return;
    };
    let engine = format!("kibitzer level {}", p.level);
    let (white, black) = p.human.fold(
        ("Player".to_owned(), engine.clone()),
        (engine, "Player".to_owned()),
    );
    let tc = match p.clocks.control() {
        TimeControl::Untimed => "-".to_owned(),
        TimeControl::Fischer { base, increment } => {
            format!("{}+{}", base.as_secs(), increment.as_secs())
        }
    };
    let headers = app.game_mut().headers_mut();
    headers.set("Event", "Game against kibitzer");
    headers.set("Site", "kibitzer");
    headers.set("Date", &today());
    headers.set("Round", "-");
    headers.set("White", &white);
    headers.set("Black", &black);
    headers.set("TimeControl", &tc);
}

/// Today's date from the system clock (UTC), `YYYY.MM.DD`.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

impl Component for PlayState {
    fn name(&self) -> &'static str {
        "PLAY"
    }

    fn takes(&self, command: Command) -> bool {
        use Command::*;
        board_command(command) || matches!(command, Takeback | Hint | NewGame | Resign | OfferDraw)
    }

    fn suggested(&self) -> &'static [(Command, &'static str)] {
        &[
            (Command::Takeback, "takeback"),
            (Command::Hint, "hint"),
            (Command::Resign, "resign"),
            (Command::NewGame, "new"),
        ]
    }

    fn can_move(&self, app: &App) -> bool {
        app.game().at_main_end()
            && app.game().end().is_none()
            && app.position().turn() == self.human
    }

    fn command(app: &mut App, command: Command) -> bool {
        match command {
            Command::Takeback => takeback(app),
            Command::Hint => hint(app),
            Command::OfferDraw => offer_draw(app),
            _ => return false,
        }
        true
    }

    /// The opponent's move on its turn; on the player's, a hint asked for, else pondering on
    /// the reply it expects.
    fn wanted_search(&self, app: &App) -> Option<Wanted> {
        let end = app.game().main_end();
        if app.game().end().is_some() {
            None
        } else if app.game().last().turn() != self.human {
            Some((Purpose::Opponent, end, app.opponent_limits()))
        } else if self.hint_pending {
            Some((
                Purpose::Hint,
                end,
                GoLimits::MoveTime(std::time::Duration::from_secs(1)),
            ))
        } else if let Some((node, reply)) = self.expected
            && app.config().ponder
            && node == end
            && ponder_root(app, node, reply).is_some()
        {
            // The limits the engine will have after the expected reply: its own clock is
            // stopped now, and starts at the ponder hit.
            Some((Purpose::Ponder(reply), end, app.opponent_limits()))
        } else {
            None
        }
    }
}

/// The position after the expected reply `reply` at `node`, if the game goes on there.
pub fn ponder_root(app: &App, node: NodeId, reply: Move) -> Option<Position> {
    let after = app.game().position(node).play(reply).ok()?;
    (after.count_legal_moves() > 0).then_some(after)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod ponder_tests;
