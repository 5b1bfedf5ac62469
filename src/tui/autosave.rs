//! The current game, saved in the data directory after every move and offered back on the next
//! start. Our own small TOML record (start FEN, UCI moves, play settings, clocks).

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::chess::{Color, Move, Position};
use crate::game::GameMove;

use super::app::{App, Mode};
use super::clock::TimeControl;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    pub fen: String,
    pub moves: Vec<String>,
    /// "white"/"black" when playing the engine; absent in analysis.
    pub human: Option<String>,
    pub level: Option<u8>,
    pub time_control: Option<String>,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutosaveError {
    #[error("autosave: {0}")]
    Format(String),
    #[error("autosave: bad FEN {0}")]
    Fen(String),
    #[error("autosave: move {index} '{uci}' is not legal")]
    Move { index: usize, uci: String },
}

pub fn path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("kibitzer").join("autosave.toml"))
}

/// Where finished games of play mode are appended.
pub fn games_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("kibitzer").join("games.pgn"))
}

impl Saved {
    pub fn capture(app: &App) -> Saved {
        let game = &app.game;
        let tree = game.tree();
        let moves = game
            .mainline()
            .map_while(|n| match tree.node(n).game_move() {
                Some(GameMove::Move(m)) => tree.previous(n).map(|p| tree.position(p).uci(m)),
                _ => None,
            })
            .collect();
        let mut saved = Saved {
            fen: game.start().fen(),
            moves,
            human: None,
            level: None,
            time_control: None,
            white_ms: None,
            black_ms: None,
        };
        if let Mode::Play(p) = &app.mode {
            saved.human = Some(p.human.fold("white", "black").into());
            saved.level = Some(p.level);
            saved.time_control = Some(p.clocks.control().to_string());
            saved.white_ms = Some(p.clocks.remaining(Color::White, app.now).as_millis() as u64);
            saved.black_ms = Some(p.clocks.remaining(Color::Black, app.now).as_millis() as u64);
        }
        saved
    }

    pub fn to_text(&self) -> String {
        toml::to_string(self).expect("the record serialises")
    }

    pub fn parse(text: &str) -> Result<Saved, AutosaveError> {
        toml::from_str(text).map_err(|e| AutosaveError::Format(e.to_string()))
    }

    /// The start position and moves, checked.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), AutosaveError> {
        let start =
            Position::from_fen(&self.fen).map_err(|_| AutosaveError::Fen(self.fen.clone()))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (index, uci) in self.moves.iter().enumerate() {
            let m = pos.parse_uci(uci).map_err(|_| AutosaveError::Move {
                index,
                uci: uci.clone(),
            })?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok((start, moves))
    }

    pub fn human(&self) -> Option<Color> {
        match self.human.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        }
    }

    pub fn time_control(&self) -> TimeControl {
        self.time_control
            .as_deref()
            .and_then(|s| s.parse().ok())
            .unwrap_or(TimeControl::Untimed)
    }

    pub fn remaining(&self) -> Option<(Duration, Duration)> {
        Some((
            Duration::from_millis(self.white_ms?),
            Duration::from_millis(self.black_ms?),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_input() {
        let s = Saved {
            fen: crate::chess::STARTPOS.into(),
            moves: vec!["e2e4".into(), "e7e5".into()],
            human: Some("black".into()),
            level: Some(7),
            time_control: Some("5+3".into()),
            white_ms: Some(1000),
            black_ms: Some(2000),
        };
        let back = Saved::parse(&s.to_text()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.replay().unwrap().1.len(), 2);
        assert_eq!(back.human(), Some(Color::Black));
        let mut bad = s.clone();
        bad.moves.push("e4e5".into());
        assert_eq!(
            bad.replay().unwrap_err(),
            AutosaveError::Move {
                index: 2,
                uci: "e4e5".into()
            }
        );
        assert!(Saved::parse("fen = 3").is_err());
    }
}
