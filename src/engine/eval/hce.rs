//! The hand-crafted evaluation: material and piece-square tables, mobility, pawn structure,
//! passed pawns, king safety, bishop pair and rooks on open files, tapered by game phase.
//! Weights are hand-set starting values (a Texel tuner is future work).

use std::fmt::Write as _;

use crate::chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, File, Position, Role, Square};

use super::{S, pst};

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;
const TEMPO: i32 = 12;

/// Per reachable square, and the typical count subtracted first: knight, bishop, rook, queen.
const MOBILITY: [S; 4] = [S(4, 4), S(5, 5), S(2, 4), S(1, 2)];
const MOBILITY_CENTRE: [i32; 4] = [4, 6, 6, 13];

const DOUBLED_PAWN: S = S(-10, -20);
const ISOLATED_PAWN: S = S(-10, -12);
/// By relative rank (rank 1 first), on top of the pawn tables.
const PASSED_PAWN: [S; 8] = [
    S(0, 0),
    S(0, 5),
    S(3, 10),
    S(8, 20),
    S(18, 40),
    S(35, 70),
    S(55, 110),
    S(0, 0),
];
/// Endgame weight per square of king distance to an advanced passer's stop square.
const PASSER_THEIR_KING: i32 = 5;
const PASSER_OUR_KING: i32 = 2;

const BISHOP_PAIR: S = S(30, 55);
const ROOK_OPEN_FILE: S = S(25, 10);
const ROOK_SEMI_OPEN_FILE: S = S(12, 6);

/// King safety: attack units per square of the king zone hit, by attacker (N, B, R, Q).
const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// Danger is units^2 / DIV (middlegame), capped.
const KING_DANGER_DIV: i32 = 4;
const KING_DANGER_MAX: i32 = 400;
const PAWN_SHIELD_NEAR: S = S(12, 0);
const PAWN_SHIELD_FAR: S = S(6, 0);
const KING_OPEN_FILE: S = S(-15, 0);

/// Endgame scale (out of 4) when the stronger side has no pawns and at most a minor more.
const NO_PAWN_SCALE: i32 = 1;

/// The hand-crafted evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandCrafted;

/// The evaluation split into named terms, per colour, for `eval`.
struct Terms {
    names: [&'static str; 7],
    white: [S; 7],
    black: [S; 7],
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

fn pawn_attacks_all(pawns: Bitboard, color: Color) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p << 7) & !FILE_H) | ((p << 9) & !FILE_A),
        Color::Black => ((p >> 9) & !FILE_H) | ((p >> 7) & !FILE_A),
    })
}

/// Squares on ranks strictly in front of `sq` from `color`'s side.
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index() as u32;
    Bitboard(match color {
        Color::White if r < 7 => !0u64 << (8 * (r + 1)),
        Color::Black => (1u64 << (8 * r)) - 1,
        _ => 0,
    })
}

fn adjacent_files(file: File) -> Bitboard {
    [file.offset(-1), file.offset(1)]
        .into_iter()
        .flatten()
        .fold(Bitboard::EMPTY, |b, f| b | Bitboard::from_file(f))
}

fn side_terms(pos: &Position, us: Color) -> [S; 7] {
    let them = !us;
    let occ = pos.occupied();
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let all_pawns = our_pawns | their_pawns;
    let their_king = pos.king(them);
    let our_king = pos.king(us);

    let mut material = S::ZERO;
    for role in Role::ALL {
        for sq in pos.pieces(us, role) {
            let idx = match us {
                Color::White => sq.index() ^ 56,
                Color::Black => sq.index(),
            };
            material += pst::MATERIAL[role.index()];
            material += S(pst::MG[role.index()][idx], pst::EG[role.index()][idx]);
        }
    }

    // Mobility and attacks on the enemy king zone.
    let area = !(our_pawns | Bitboard::from_square(our_king) | pawn_attacks_all(their_pawns, them));
    let zone = king_attacks(their_king).with(their_king);
    let mut mobility = S::ZERO;
    let mut attackers = 0;
    let mut units = 0;
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in pos.pieces(us, role) {
            let att = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                _ => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
            };
            mobility += MOBILITY[i] * ((att & area).count() as i32 - MOBILITY_CENTRE[i]);
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += KING_ATTACK_UNITS[i] * hits;
            }
        }
    }
    let mut king_attack = S::ZERO;
    if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
        king_attack = S(
            (units * units / KING_DANGER_DIV).min(KING_DANGER_MAX),
            units,
        );
    }

    // Our king's shelter.
    let mut shelter = S::ZERO;
    if our_king.rank().relative(us).index() <= 1 {
        for file in [
            our_king.file().offset(-1),
            Some(our_king.file()),
            our_king.file().offset(1),
        ]
        .into_iter()
        .flatten()
        {
            let on_file = our_pawns & Bitboard::from_file(file);
            let ahead = on_file & ranks_ahead(us, our_king);
            let near = ahead
                .into_iter()
                .map(|sq| sq.rank().index().abs_diff(our_king.rank().index()))
                .min();
            shelter += match near {
                Some(1) => PAWN_SHIELD_NEAR,
                Some(2) => PAWN_SHIELD_FAR,
                Some(_) => S::ZERO,
                None => KING_OPEN_FILE,
            };
        }
    }

    // Pawn structure and passed pawns.
    let mut pawns = S::ZERO;
    let mut passed = S::ZERO;
    for sq in our_pawns {
        let file = Bitboard::from_file(sq.file());
        let ahead = ranks_ahead(us, sq);
        if (our_pawns & file & ahead).any() {
            pawns += DOUBLED_PAWN;
        }
        if (our_pawns & adjacent_files(sq.file())).is_empty() {
            pawns += ISOLATED_PAWN;
        }
        let span = ahead & (file | adjacent_files(sq.file()));
        if (their_pawns & span).is_empty() && (our_pawns & file & ahead).is_empty() {
            let rank = sq.rank().relative(us).index();
            passed += PASSED_PAWN[rank];
            if rank >= 3
                && let Some(stop) = sq.offset(us.fold(8, -8))
            {
                let weight = rank as i32 - 2;
                let d_them = stop.distance(their_king) as i32;
                let d_us = stop.distance(our_king) as i32;
                passed += S(
                    0,
                    (PASSER_THEIR_KING * d_them - PASSER_OUR_KING * d_us) * weight,
                );
            }
        }
    }

    let mut pieces = S::ZERO;
    if pos.pieces(us, Role::Bishop).more_than_one() {
        pieces += BISHOP_PAIR;
    }
    for sq in pos.pieces(us, Role::Rook) {
        let file = Bitboard::from_file(sq.file());
        if (all_pawns & file).is_empty() {
            pieces += ROOK_OPEN_FILE;
        } else if (our_pawns & file).is_empty() {
            pieces += ROOK_SEMI_OPEN_FILE;
        }
    }

    [
        material,
        mobility,
        pawns,
        passed,
        king_attack,
        shelter,
        pieces,
    ]
}

fn terms(pos: &Position) -> Terms {
    Terms {
        names: [
            "Material+PST",
            "Mobility",
            "Pawns",
            "Passed pawns",
            "King attack",
            "King shelter",
            "Pieces",
        ],
        white: side_terms(pos, Color::White),
        black: side_terms(pos, Color::Black),
    }
}

fn phase(pos: &Position) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHT[r.index()] * pos.by_role(r).count() as i32)
        .sum::<i32>()
        .min(PHASE_MAX)
}

fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| pst::MATERIAL[r.index()].0 * pos.pieces(color, r).count() as i32)
        .sum()
}

/// Blends the phases and scales hard-to-win endgames; white's point of view.
fn blend(pos: &Position, total: S) -> i32 {
    let strong = if total.1 >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut eg = total.1;
    if pos.pieces(strong, Role::Pawn).is_empty()
        && non_pawn_material(pos, strong) - non_pawn_material(pos, !strong)
            <= pst::MATERIAL[Role::Bishop.index()].0
    {
        eg = eg * NO_PAWN_SCALE / 4;
    }
    let phase = phase(pos);
    (total.0 * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

impl HandCrafted {
    /// The position's value in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let t = terms(pos);
        let total = t
            .white
            .iter()
            .zip(t.black.iter())
            .fold(S::ZERO, |acc, (&w, &b)| acc + w - b);
        let white = blend(pos, total);
        pos.turn().fold(white, -white) + TEMPO
    }

    /// Every term for both sides (the UCI `eval` command).
    pub fn trace(&self, pos: &Position) -> String {
        let t = terms(pos);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<14} {:>11} {:>11} {:>11}",
            "Term", "White", "Black", "Total"
        );
        let _ = writeln!(
            out,
            "{:<14} {:>11} {:>11} {:>11}",
            "", "mg   eg", "mg   eg", "mg   eg"
        );
        let mut total = S::ZERO;
        for i in 0..t.names.len() {
            let (w, b) = (t.white[i], t.black[i]);
            total += w - b;
            let _ = writeln!(
                out,
                "{:<14} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}",
                t.names[i],
                w.0,
                w.1,
                b.0,
                b.1,
                w.0 - b.0,
                w.1 - b.1
            );
        }
        let _ = writeln!(
            out,
            "Phase {} / {PHASE_MAX}; tapered total (white's view): {} cp",
            phase(pos),
            blend(pos, total)
        );
        let _ = write!(
            out,
            "Evaluation (side to move, with tempo): {} cp",
            self.evaluate(pos)
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        HandCrafted.evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        assert_eq!(eval(crate::chess::STARTPOS), TEMPO);
        let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b, "colour-flipped positions evaluate the same");
    }

    #[test]
    fn material_and_drawish_endings() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        // A lone minor piece cannot win: scaled well below its value.
        assert!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1") < 150);
        assert!(eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
    }
}
