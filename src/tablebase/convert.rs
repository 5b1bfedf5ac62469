//! Our position as a shakmaty `Chess`, built straight from the bitboards; and shakmaty's errors
//! as ours.

use std::num::NonZeroU32;

use shakmaty::{Bitboard as SBitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup};
use shakmaty_syzygy::{Metric, SyzygyError};

use super::error::TbError;
use crate::chess::{Color, Position, Role};

/// Positions with castling rights never reach here (tables hold none).
pub fn to_shakmaty(pos: &Position) -> Result<Chess, TbError> {
    let bb = |role| SBitboard(pos.by_role(role).0);
    let by_role = ByRole {
        pawn: bb(Role::Pawn),
        knight: bb(Role::Knight),
        bishop: bb(Role::Bishop),
        rook: bb(Role::Rook),
        queen: bb(Role::Queen),
        king: bb(Role::King),
    };
    let by_color = ByColor {
        white: SBitboard(pos.by_color(Color::White).0),
        black: SBitboard(pos.by_color(Color::Black).0),
    };
    let board = Board::try_from_bitboards(by_role, by_color)
        .map_err(|e| TbError::Position(format!("{e:?}")))?;
    let setup = shakmaty::Setup {
        board,
        promoted: SBitboard::EMPTY,
        pockets: None,
        turn: pos
            .turn()
            .fold(shakmaty::Color::White, shakmaty::Color::Black),
        castling_rights: SBitboard::EMPTY,
        ep_square: pos
            .ep_square()
            .map(|sq| shakmaty::Square::new(sq.index() as u32)),
        remaining_checks: None,
        halfmoves: pos.halfmoves(),
        fullmoves: NonZeroU32::new(pos.fullmoves()).unwrap_or(NonZeroU32::MIN),
    };
    Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| TbError::Position(e.to_string()))
}

fn file_name(metric: Metric, material: &shakmaty_syzygy::Material) -> String {
    let ext = match metric {
        Metric::Wdl => "rtbw",
        Metric::Dtz => "rtbz",
    };
    format!("{material}.{ext}")
}

pub fn map_error(e: SyzygyError, pieces: u32, max: u32) -> TbError {
    match e {
        SyzygyError::Castling => TbError::Castling,
        SyzygyError::TooManyPieces => TbError::TooManyPieces { pieces, max },
        SyzygyError::MissingTable { metric, material } => TbError::MissingTable {
            file: file_name(metric, &material),
        },
        SyzygyError::ProbeFailed {
            metric,
            material,
            error,
        } => TbError::Corrupted {
            file: file_name(metric, &material),
            reason: match *error {
                // The backtrace is noise to a user; the file name says what to fix.
                shakmaty_syzygy::ProbeError::CorruptedTable { .. } => "corrupted table".into(),
                other => other.to_string(),
            },
        },
    }
}
