//! Training records: one position in 32 bytes, written by `kibitzer datagen` and read by
//! `kibitzer train`. Files are plain concatenations of records, so appending and resuming are
//! trivial and a torn final record is detected by the length.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy bitboard, little-endian |
//! | 8..24 | pieces in occupancy order, 4 bits each (low nibble first): colour * 6 + role |
//! | 24..26 | search score, centipawns from White's view, i16 little-endian |
//! | 26 | game result from White's view: 0 loss, 1 draw, 2 win |
//! | 27 | side to move: 0 White, 1 Black |
//! | 28..30 | best move (our 16-bit move code), little-endian |
//! | 30..32 | fullmove number, little-endian |

use std::io::{self, Read, Write};

use crate::chess::{
    Bitboard, CastlingMode, Color, Move, Piece, Position, PositionErrors, Role, Setup, Square,
};

pub const RECORD_LEN: usize = 32;

/// A game result from White's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WhiteResult {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl WhiteResult {
    /// 0.0, 0.5 or 1.0.
    pub fn score(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One training position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrainingRecord {
    pub occupancy: Bitboard,
    /// Piece codes in occupancy order; only the first `occupancy.count()` are meaningful.
    pub pieces: [u8; 32],
    pub white_score: i16,
    pub result: WhiteResult,
    pub turn: Color,
    pub best_move: Option<Move>,
    pub fullmoves: u16,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("record {index}: {reason}")]
    Invalid { index: u64, reason: &'static str },
    #[error("file length {0} is not a multiple of {RECORD_LEN} bytes (truncated record?)")]
    Truncated(u64),
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl TrainingRecord {
    pub fn new(
        pos: &Position,
        white_score: i16,
        result: WhiteResult,
        best_move: Option<Move>,
    ) -> TrainingRecord {
        let occupancy = pos.occupied();
        let mut pieces = [0u8; 32];
        for (slot, sq) in pieces.iter_mut().zip(occupancy) {
            if let Some(p) = pos.piece_at(sq) {
                *slot = piece_code(p);
            }
        }
        TrainingRecord {
            occupancy,
            pieces,
            white_score,
            result,
            turn: pos.turn(),
            best_move,
            fullmoves: pos.fullmoves().min(u16::MAX as u32) as u16,
        }
    }

    /// Pieces with their squares.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        self.occupancy
            .zip(self.pieces.iter())
            .map(|(sq, &code)| (decode_piece(code), sq))
    }

    /// The same position with the a- and h-files swapped: as good a training position, since
    /// records keep no castling rights. The best move is dropped.
    pub fn mirrored(&self) -> TrainingRecord {
        let mut placed: Vec<(Square, u8)> = self
            .pieces()
            .map(|(piece, sq)| (sq.flip_horizontal(), piece_code(piece)))
            .collect();
        placed.sort_unstable_by_key(|&(sq, _)| sq);
        let mut pieces = [0u8; 32];
        let mut occupancy = Bitboard::EMPTY;
        for (slot, &(sq, code)) in pieces.iter_mut().zip(&placed) {
            *slot = code;
            occupancy = occupancy.with(sq);
        }
        TrainingRecord {
            occupancy,
            pieces,
            best_move: None,
            ..*self
        }
    }

    /// The position, without castling rights or en passant (records do not keep them).
    pub fn to_position(&self) -> Result<Position, PositionErrors> {
        let mut setup = Setup::empty();
        for (piece, sq) in self.pieces() {
            setup.board[sq.index()] = Some(piece);
        }
        setup.turn = self.turn;
        setup.fullmoves = u32::from(self.fullmoves.max(1));
        Position::from_setup(setup, CastlingMode::Standard)
    }

    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        out[0..8].copy_from_slice(&self.occupancy.0.to_le_bytes());
        for (i, pair) in self.pieces.chunks_exact(2).enumerate() {
            out[8 + i] = pair[0] | pair[1] << 4;
        }
        out[24..26].copy_from_slice(&self.white_score.to_le_bytes());
        out[26] = self.result as u8;
        out[27] = self.turn as u8;
        out[28..30].copy_from_slice(&self.best_move.map_or(0, Move::to_u16).to_le_bytes());
        out[30..32].copy_from_slice(&self.fullmoves.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8; RECORD_LEN], index: u64) -> Result<TrainingRecord, RecordError> {
        let invalid = |reason| RecordError::Invalid { index, reason };
        let occupancy = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().expect("8")));
        if occupancy.count() > 32 {
            return Err(invalid("more than 32 pieces"));
        }
        let mut pieces = [0u8; 32];
        for i in 0..16 {
            pieces[2 * i] = bytes[8 + i] & 15;
            pieces[2 * i + 1] = bytes[8 + i] >> 4;
        }
        if pieces[..occupancy.count() as usize]
            .iter()
            .any(|&c| c >= 12)
        {
            return Err(invalid("bad piece code"));
        }
        let result = match bytes[26] {
            0 => WhiteResult::Loss,
            1 => WhiteResult::Draw,
            2 => WhiteResult::Win,
            _ => return Err(invalid("bad result")),
        };
        let turn = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(invalid("bad side to move")),
        };
        Ok(TrainingRecord {
            occupancy,
            pieces,
            white_score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result,
            turn,
            best_move: Move::from_u16(u16::from_le_bytes([bytes[28], bytes[29]])),
            fullmoves: u16::from_le_bytes([bytes[30], bytes[31]]),
        })
    }
}

fn piece_code(p: Piece) -> u8 {
    p.color as u8 * 6 + p.role as u8
}

fn decode_piece(code: u8) -> Piece {
    let color = if code >= 6 {
        Color::Black
    } else {
        Color::White
    };
    Piece::new(color, Role::from_index(code as usize % 6))
}

/// Appends records to a writer.
pub fn write_records<W: Write>(out: &mut W, records: &[TrainingRecord]) -> io::Result<()> {
    for r in records {
        out.write_all(&r.to_bytes())?;
    }
    Ok(())
}

/// Reads every record of a reader whose total length is `len` bytes.
pub fn read_records<R: Read>(mut input: R, len: u64) -> Result<Vec<TrainingRecord>, RecordError> {
    if !len.is_multiple_of(RECORD_LEN as u64) {
        return Err(RecordError::Truncated(len));
    }
    let count = len / RECORD_LEN as u64;
    let mut records = Vec::with_capacity(count as usize);
    let mut buf = [0u8; RECORD_LEN];
    for index in 0..count {
        input.read_exact(&mut buf)?;
        records.push(TrainingRecord::from_bytes(&buf, index)?);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_the_position() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17",
        )
        .unwrap();
        let best = pos.legal_moves()[3];
        let record = TrainingRecord::new(&pos, -57, WhiteResult::Draw, Some(best));
        let bytes = record.to_bytes();
        let back = TrainingRecord::from_bytes(&bytes, 0).unwrap();
        assert_eq!(back, record);
        let placed: Vec<(Piece, Square)> = back.pieces().collect();
        assert_eq!(placed.len(), pos.occupied().count() as usize);
        for (piece, sq) in placed {
            assert_eq!(pos.piece_at(sq), Some(piece));
        }
        assert_eq!(back.turn, Color::Black);
        assert_eq!(back.fullmoves, 17);
        let mirrored = back.mirrored().to_position().unwrap();
        assert_eq!(
            mirrored.fen(),
            "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R b - - 0 17"
        );
        assert_eq!(back.mirrored().mirrored().pieces, back.pieces);
        // Castling rights, en passant and the fifty-move counter are not kept.
        assert_eq!(
            back.to_position().unwrap().fen(),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 17"
        );
    }

    #[test]
    fn bad_bytes_are_reported() {
        let mut bytes = [0u8; RECORD_LEN];
        bytes[26] = 7;
        assert!(matches!(
            TrainingRecord::from_bytes(&bytes, 4),
            Err(RecordError::Invalid { index: 4, .. })
        ));
        assert!(matches!(
            read_records(&[0u8; 40][..], 40),
            Err(RecordError::Truncated(40))
        ));
    }
}
