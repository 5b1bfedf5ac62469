//! Compact training data: whole self-play games, about 4 bytes a ply instead of 32 a position.
//! A game is its start position and, for every ply the engine searched, the move it played and
//! its score; the result comes once. Training positions are the quiet ones (not in check, a
//! quiet best move), found again by replaying.
//!
//! A file is `KBGAMES1` and then games:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | length n of the start FEN |
//! | n | the start position as FEN (ASCII) |
//! | 1 | game result from White's view: 0 loss, 1 draw, 2 win |
//! | 2 | plies, u16 little-endian |
//! | 4 a ply | move (our 16-bit code), then the search score in centipawns from White's view (i16), little-endian |

use std::io::{self, Read, Write};

use crate::chess::{Color, Move, Position};

use super::data::{TrainingRecord, WhiteResult};

pub const MAGIC: &[u8; 8] = b"KBGAMES1";

/// One self-play game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    pub start: Position,
    pub result: WhiteResult,
    /// Each searched ply: the move played and its score, White's view.
    pub plies: Vec<(Move, i16)>,
}

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("game {game} (byte {offset}): {reason}")]
    Invalid {
        game: u64,
        offset: u64,
        reason: String,
    },
    #[error("game {game} (byte {offset}) is cut short: the file ends inside it")]
    Truncated { game: u64, offset: u64 },
    #[error(
        "not a games file (it does not start with {})",
        String::from_utf8_lossy(MAGIC)
    )]
    NoMagic,
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl GameRecord {
    pub fn write_to<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let fen = self.start.fen();
        let plies = u16::try_from(self.plies.len()).unwrap_or(u16::MAX);
        out.write_all(&[fen.len() as u8])?;
        out.write_all(fen.as_bytes())?;
        out.write_all(&[self.result as u8])?;
        out.write_all(&plies.to_le_bytes())?;
        for &(mv, score) in &self.plies[..usize::from(plies)] {
            out.write_all(&mv.to_u16().to_le_bytes())?;
            out.write_all(&score.to_le_bytes())?;
        }
        Ok(())
    }

    /// Bytes this game takes in a file.
    pub fn encoded_len(&self) -> usize {
        1 + self.start.fen().len() + 1 + 2 + 4 * self.plies.len()
    }

    /// The training positions: every quiet ply (not in check, a quiet move), with its score and
    /// the game's result.
    pub fn positions(&self) -> Vec<TrainingRecord> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.plies.len());
        for &(mv, score) in &self.plies {
            if !pos.in_check() && !mv.is_noisy() {
                out.push(TrainingRecord::new(&pos, score, self.result, Some(mv)));
            }
            pos.play_unchecked(mv);
        }
        out
    }
}

/// Reads games one by one after the magic; the reader knows where the last whole game ended.
pub struct GameReader<R> {
    input: R,
    game: u64,
    /// Bytes read so far, magic included: the end of the last whole game.
    offset: u64,
}

impl<R: Read> GameReader<R> {
    /// Checks the magic.
    pub fn new(mut input: R) -> Result<GameReader<R>, GameError> {
        let mut magic = [0u8; 8];
        match input.read_exact(&mut magic) {
            Ok(()) if &magic == MAGIC => {}
            Ok(()) => return Err(GameError::NoMagic),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Err(GameError::NoMagic),
            Err(e) => return Err(e.into()),
        }
        Ok(GameReader {
            input,
            game: 0,
            offset: MAGIC.len() as u64,
        })
    }

    /// Where the last whole game read ends.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game, `None` at a clean end of the file.
    pub fn next_game(&mut self) -> Result<Option<GameRecord>, GameError> {
        let (game, offset) = (self.game, self.offset);
        let invalid = |reason: String| GameError::Invalid {
            game,
            offset,
            reason,
        };
        let mut len = [0u8; 1];
        if self.input.read(&mut len)? == 0 {
            return Ok(None);
        }
        let mut fen = vec![0u8; usize::from(len[0])];
        let mut head = [0u8; 3];
        self.read_all(&mut fen)?;
        self.read_all(&mut head)?;
        let fen = String::from_utf8(fen).map_err(|_| invalid("the FEN is not text".into()))?;
        let start = Position::from_fen(&fen).map_err(|e| invalid(format!("FEN '{fen}': {e}")))?;
        let result = match head[0] {
            0 => WhiteResult::Loss,
            1 => WhiteResult::Draw,
            2 => WhiteResult::Win,
            other => return Err(invalid(format!("result {other} is not 0, 1 or 2"))),
        };
        let count = usize::from(u16::from_le_bytes([head[1], head[2]]));
        let mut bytes = vec![0u8; 4 * count];
        self.read_all(&mut bytes)?;
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(count);
        for (ply, chunk) in bytes.chunks_exact(4).enumerate() {
            let code = u16::from_le_bytes([chunk[0], chunk[1]]);
            let mv = Move::from_u16(code)
                .filter(|&m| pos.legal_moves().contains(m))
                .ok_or_else(|| {
                    invalid(format!(
                        "ply {}: move code {code:#06x} is not legal",
                        ply + 1
                    ))
                })?;
            pos.play_unchecked(mv);
            plies.push((mv, i16::from_le_bytes([chunk[2], chunk[3]])));
        }
        self.game += 1;
        self.offset += (1 + fen.len() + 3 + bytes.len()) as u64;
        Ok(Some(GameRecord {
            start,
            result,
            plies,
        }))
    }

    fn read_all(&mut self, buf: &mut [u8]) -> Result<(), GameError> {
        self.input.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => GameError::Truncated {
                game: self.game,
                offset: self.offset,
            },
            _ => e.into(),
        })
    }
}

/// Every game of a games file.
pub fn read_games<R: Read>(input: R) -> Result<Vec<GameRecord>, GameError> {
    let mut reader = GameReader::new(input)?;
    let mut games = Vec::new();
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok(games)
}

/// The result of a finished game for White, from its winner.
pub fn white_result(winner: Color) -> WhiteResult {
    match winner {
        Color::White => WhiteResult::Win,
        Color::Black => WhiteResult::Loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (uci, score) in [("e2e4", 30), ("d7d5", 25), ("e4d5", 40), ("d8d5", 20)] {
            let mv = pos.parse_uci(uci).unwrap();
            pos.play_unchecked(mv);
            plies.push((mv, score));
        }
        GameRecord {
            start,
            result: WhiteResult::Draw,
            plies,
        }
    }

    #[test]
    fn games_round_trip_in_about_four_bytes_a_ply() {
        let game = sample();
        let mut bytes = MAGIC.to_vec();
        game.write_to(&mut bytes).unwrap();
        game.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len(), 8 + 2 * game.encoded_len());
        assert_eq!(game.encoded_len(), 1 + 56 + 3 + 16);
        let back = read_games(bytes.as_slice()).unwrap();
        assert_eq!(back, [game.clone(), game.clone()]);
        // The two captures are no training positions; the two quiet moves are.
        let positions = game.positions();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[1].white_score, 25);
        assert!(positions.iter().all(|r| r.result == WhiteResult::Draw));
    }

    #[test]
    fn damage_is_an_error_naming_the_game() {
        let game = sample();
        let mut bytes = MAGIC.to_vec();
        game.write_to(&mut bytes).unwrap();
        let whole = bytes.len();
        game.write_to(&mut bytes).unwrap();
        // Cut inside the second game: the first is whole, and the reader says where.
        let mut reader = GameReader::new(&bytes[..whole + 10]).unwrap();
        assert!(reader.next_game().unwrap().is_some());
        assert_eq!(reader.offset(), whole as u64);
        assert!(matches!(
            reader.next_game(),
            Err(GameError::Truncated { game: 1, .. })
        ));
        // An illegal move.
        let mut bad = bytes.clone();
        let first_move = 8 + 1 + 56 + 3;
        bad[first_move..first_move + 2].copy_from_slice(&0xffffu16.to_le_bytes());
        let err = read_games(bad.as_slice()).unwrap_err().to_string();
        assert!(err.contains("game 0") && err.contains("ply 1"), "{err}");
        assert!(matches!(
            read_games(&b"KBGAMES2"[..]),
            Err(GameError::NoMagic)
        ));
    }
}
