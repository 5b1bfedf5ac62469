//! A game record: headers, the move tree, the result token, and how the game ended.

use std::fmt;
use std::str::FromStr;

use crate::chess::{CastlingMode, Color, FenError, Outcome, Position};

use super::headers::Headers;
use super::tree::{NodeId, Tree};

/// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    #[default]
    Unknown,
}

impl GameResult {
    pub fn winner(win: Color) -> GameResult {
        win.fold(GameResult::WhiteWins, GameResult::BlackWins)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameResult {
    type Err = ();

    fn from_str(s: &str) -> Result<GameResult, ()> {
        Ok(match s.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return Err(()),
        })
    }
}

/// Which rules the game is played under. Only standard chess and Chess960 are supported.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    Standard,
    Chess960,
}

impl Variant {
    /// Reads the `Variant` tag; `Err` carries the name of a variant we do not play.
    pub fn from_tag(tag: Option<&str>) -> Result<Variant, String> {
        let Some(name) = tag else {
            return Ok(Variant::Standard);
        };
        let key: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => {
                Ok(Variant::Standard)
            }
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Ok(Variant::Chess960),
            _ => Err(name.to_owned()),
        }
    }

    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }
}

/// Why a game is over: by the rules on the board, or by what the players or arbiter did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Ending {
    Rules(Outcome),
    Resignation {
        winner: Color,
    },
    /// A flag fell; `None` when the other side had no mating material (a draw).
    TimeForfeit {
        winner: Option<Color>,
    },
    Agreement,
    /// Decided otherwise (adjudication, forfeit, abandonment) with this result.
    Other(GameResult),
}

impl Ending {
    pub fn result(self) -> GameResult {
        match self {
            Ending::Rules(Outcome::Checkmate { winner })
            | Ending::Resignation { winner }
            | Ending::TimeForfeit {
                winner: Some(winner),
            } => GameResult::winner(winner),
            Ending::Rules(Outcome::Draw(_))
            | Ending::Agreement
            | Ending::TimeForfeit { winner: None } => GameResult::Draw,
            Ending::Other(result) => result,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |c: Color| c.fold("White", "Black");
        match *self {
            Ending::Rules(outcome) => write!(f, "{outcome}"),
            Ending::Resignation { winner } => write!(f, "{} resigns", side(!winner)),
            Ending::TimeForfeit {
                winner: Some(winner),
            } => write!(f, "{} wins on time", side(winner)),
            Ending::TimeForfeit { winner: None } => {
                f.write_str("Draw: flag fell, no mating material")
            }
            Ending::Agreement => f.write_str("Draw by agreement"),
            Ending::Other(result) => write!(f, "Result {result}"),
        }
    }
}

/// A game: headers, moves with variations and annotations, and the result token.
#[derive(Clone, Debug)]
pub struct Game {
    pub headers: Headers,
    pub tree: Tree,
    pub result: GameResult,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.headers == other.headers
            && self.result == other.result
            && self.tree.same_as(&other.tree)
    }
}

impl Game {
    /// A new game from `start`; a non-standard start gets `SetUp`/`FEN` tags (and `Variant`
    /// for Chess960 castling).
    pub fn new(start: Position) -> Game {
        let mut headers = Headers::default();
        if start != Position::startpos() {
            if start.castling_mode() == CastlingMode::Chess960 {
                headers.set("Variant", "Chess960");
            }
            headers.set("SetUp", "1");
            headers.set("FEN", &start.fen());
        }
        Game {
            headers,
            tree: Tree::new(start),
            result: GameResult::Unknown,
        }
    }

    pub fn variant(&self) -> Variant {
        Variant::from_tag(self.headers.get("Variant")).unwrap_or(Variant::Standard)
    }

    /// How the mainline ended: by the rules at its last position, else from the result token
    /// and the `Termination` tag. `None` while the game is going on.
    pub fn ending(&self) -> Option<Ending> {
        let last = self.tree.end(NodeId::ROOT);
        if let Some(outcome) = self.tree.position(last).outcome(&self.tree.history(last)) {
            return Some(Ending::Rules(outcome));
        }
        let termination = self
            .headers
            .get("Termination")
            .unwrap_or("")
            .to_ascii_lowercase();
        let winner = match self.result {
            GameResult::Unknown => return None,
            GameResult::Draw if termination.contains("time") => {
                return Some(Ending::TimeForfeit { winner: None });
            }
            GameResult::Draw if termination.contains("adjudicat") => {
                return Some(Ending::Other(GameResult::Draw));
            }
            GameResult::Draw => return Some(Ending::Agreement),
            GameResult::WhiteWins => Color::White,
            GameResult::BlackWins => Color::Black,
        };
        Some(if termination.contains("time") {
            Ending::TimeForfeit {
                winner: Some(winner),
            }
        } else if termination.is_empty() || termination == "normal" {
            Ending::Resignation { winner }
        } else {
            Ending::Other(self.result)
        })
    }

    /// Records how the game ended: the result token and the `Result`/`Termination` tags.
    pub fn set_ending(&mut self, ending: Ending) {
        self.result = ending.result();
        self.headers.set("Result", self.result.as_str());
        let termination = match ending {
            Ending::TimeForfeit { .. } => "time forfeit",
            Ending::Other(_) => "adjudication",
            _ => "normal",
        };
        self.headers.set("Termination", termination);
    }
}

/// The starting position named by the `FEN` tag (Chess960 castling when the variant says so).
pub fn start_position(fen: Option<&str>, variant: Variant) -> Result<Position, FenError> {
    match (fen, variant) {
        (None, Variant::Standard) => Ok(Position::startpos()),
        (None, Variant::Chess960) => {
            Position::from_fen_with_mode(crate::chess::STARTPOS, CastlingMode::Chess960)
        }
        (Some(fen), Variant::Standard) => Position::from_fen(fen),
        (Some(fen), Variant::Chess960) => Position::from_fen_with_mode(fen, CastlingMode::Chess960),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_endings() {
        assert_eq!(
            Variant::from_tag(Some("fischerandom")),
            Ok(Variant::Chess960)
        );
        assert_eq!(Variant::from_tag(Some("Chess 960")), Ok(Variant::Chess960));
        assert_eq!(Variant::from_tag(Some("Standard")), Ok(Variant::Standard));
        assert!(Variant::from_tag(Some("Crazyhouse")).is_err());
        let mut game = Game::default();
        assert_eq!(game.ending(), None);
        game.set_ending(Ending::TimeForfeit {
            winner: Some(Color::Black),
        });
        assert_eq!(game.headers.get("Result"), Some("0-1"));
        assert_eq!(
            game.ending(),
            Some(Ending::TimeForfeit {
                winner: Some(Color::Black)
            })
        );
        game.set_ending(Ending::TimeForfeit { winner: None });
        assert_eq!(game.headers.get("Result"), Some("1/2-1/2"));
        assert_eq!(game.ending(), Some(Ending::TimeForfeit { winner: None }));
        let mut mate = Game::default();
        let mut at = NodeId::ROOT;
        for san in ["f3", "e5", "g4", "Qh4#"] {
            at = mate.tree.add_san(at, san).unwrap();
        }
        assert_eq!(
            mate.ending(),
            Some(Ending::Rules(Outcome::Checkmate {
                winner: Color::Black
            }))
        );
    }
}
