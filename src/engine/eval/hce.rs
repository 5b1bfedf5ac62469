//! The hand-crafted evaluation: material and piece-square tables, mobility, king safety (attack
//! units, safe checks, shelter and storms), pawn structure, passed pawns, threats (in
//! `threats.rs`), outposts and rook placement, tapered by game phase and scaled down in drawish
//! endings and towards the fifty-move draw. Its weights are one table (`weights.rs`, laid out
//! by `terms.rs`) that `kibitzer tune` fits to game results; every term goes through
//! [`Trace`], which is how the tuner and the `eval` command see it.

use std::fmt::Write as _;

use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, pawn_attacks_all, rook_attacks,
};
use crate::chess::{Bitboard, Color, File, Piece, Position, Rank, Role, Square};

use super::S;
use super::pawn_cache::PawnCache;
use super::terms::{self as p, Term};
use super::threats::{self, AttackMap};
use super::weights::WEIGHTS;

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;
pub const TEMPO: i32 = 12;

/// Knight, bishop, rook, queen.
const MOBILITY: [usize; 4] = [
    p::KNIGHT_MOBILITY,
    p::BISHOP_MOBILITY,
    p::ROOK_MOBILITY,
    p::QUEEN_MOBILITY,
];
/// King safety: attack units per square of the king zone hit, by attacker (N, B, R, Q).
const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// Endgame scale (out of 4) when the stronger side has no pawns and at most a minor more.
const NO_PAWN_SCALE: i32 = 1;
/// Endgame scale (out of 4) with only pawns and one bishop each, on opposite colours.
const OPPOSITE_BISHOPS_SCALE: i32 = 2;

/// The hand-crafted evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandCrafted;

/// Receives every feature the evaluation counts: `count` times weight `param`, for `color`.
pub trait Trace {
    fn add(&mut self, color: Color, param: usize, count: i32);
}

/// No trace: the search's evaluation.
impl Trace for () {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
}

/// The evaluation from White's side before the phases are blended.
pub struct Tapered {
    pub total: S,
    /// From 0 (bare kings and pawns) to [`PHASE_MAX`] (all pieces on).
    pub phase: i32,
    /// Out of 4: drawish endings count less.
    pub eg_scale: i32,
}

impl Tapered {
    pub fn blend(&self) -> i32 {
        let eg = self.total.1 * self.eg_scale / 4;
        (self.total.0 * self.phase + eg * (PHASE_MAX - self.phase)) / PHASE_MAX
    }
}

/// Adds up weighted features, White's minus Black's.
pub(super) struct Sum<'a, T> {
    weights: &'a [S; p::COUNT],
    trace: &'a mut T,
    total: S,
}

impl<T: Trace> Sum<'_, T> {
    #[inline(always)]
    pub(super) fn add(&mut self, color: Color, param: usize, count: i32) {
        let value = self.weights[param] * count;
        self.total += color.fold(value, -value);
        self.trace.add(color, param, count);
    }
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

/// Index of `sq` in the piece-square tables, which are laid out from White's side.
fn pst_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    }
}

/// Material and piece squares: a sum over the pieces, which the search keeps move by move
/// ([`piece_square_value`]) instead of walking the board for each evaluation.
fn material_and_squares<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position, us: Color) {
    for role in Role::ALL {
        let pieces = pos.pieces(us, role);
        sum.add(us, p::MATERIAL + role.index(), pieces.count() as i32);
        for sq in pieces {
            sum.add(us, p::PST + 64 * role.index() + pst_index(us, sq), 1);
        }
    }
}

/// What `piece` on `sq` adds to [`material_and_squares`] with the compiled weights, White's view.
pub fn piece_square_value(piece: Piece, sq: Square) -> S {
    let role = piece.role.index();
    let value =
        WEIGHTS[p::MATERIAL + role] + WEIGHTS[p::PST + 64 * role + pst_index(piece.color, sq)];
    piece.color.fold(value, -value)
}

/// [`material_and_squares`] of both sides with the compiled weights, White's view.
pub fn piece_square_sum(pos: &Position) -> S {
    let mut sum = Sum {
        weights: &WEIGHTS,
        trace: &mut (),
        total: S::ZERO,
    };
    for us in Color::ALL {
        material_and_squares(&mut sum, pos, us);
    }
    sum.total
}

/// Mobility and attacks on the enemy king: the terms that walk our pieces, which also gather
/// where they attack.
fn piece_terms<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position, us: Color) -> AttackMap {
    let them = !us;
    let occ = pos.occupied();
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let their_king = pos.king(them);
    let our_king = pos.king(us);
    let mut map = AttackMap::new(pos, us);

    let area = !(our_pawns | Bitboard::from_square(our_king) | pawn_attacks_all(their_pawns, them));
    let zone = king_attacks(their_king).with(their_king);
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
            map.add(role, att);
            sum.add(us, MOBILITY[i] + (att & area).count() as usize, 1);
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += KING_ATTACK_UNITS[i] * hits;
            }
        }
    }
    if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
        let units = (units as usize).min(p::KING_DANGER_UNITS - 1);
        sum.add(us, p::KING_DANGER + units, 1);
    }
    map
}

/// Our king's shelter: pawns in front of it on its file and the two beside it, and enemy
/// pawns storming those files; in the endgame, how far it is from its pawns.
fn shelter_terms<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position, us: Color) {
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(!us, Role::Pawn);
    let our_king = pos.king(us);
    if let Some(nearest) = our_pawns.into_iter().map(|sq| sq.distance(our_king)).min() {
        sum.add(us, p::KING_PAWN_DISTANCE, nearest as i32);
    }
    if our_king.rank().relative(us).index() > 1 {
        return;
    }
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
        match near {
            Some(1) => sum.add(us, p::PAWN_SHIELD_NEAR, 1),
            Some(2) => sum.add(us, p::PAWN_SHIELD_FAR, 1),
            Some(_) => {}
            None => sum.add(us, p::KING_OPEN_FILE, 1),
        }
        let storm = their_pawns & Bitboard::from_file(file) & ranks_ahead(us, our_king);
        let closest = match us {
            Color::White => storm.first(),
            Color::Black => storm.last(),
        };
        if let Some(pawn) = closest {
            let distance = pawn.rank().index().abs_diff(our_king.rank().index());
            if distance <= 4 {
                let blocked = pawn
                    .offset(us.fold(-8, 8))
                    .is_some_and(|sq| our_pawns.contains(sq));
                sum.add(
                    us,
                    p::PAWN_STORM + 4 * usize::from(blocked) + distance - 1,
                    1,
                );
            }
        }
    }
}

/// Pawn structure, and passed pawns by rank and by the kings' distances to their stop squares:
/// the pawn terms that read nothing but pawns and kings. Returns our passed pawns.
fn pawn_structure_terms<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position, us: Color) -> Bitboard {
    let them = !us;
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let their_pawn_attacks = pawn_attacks_all(their_pawns, them);
    let their_king = pos.king(them);
    let our_king = pos.king(us);
    let mut passers = Bitboard::EMPTY;
    for sq in our_pawns {
        let file = Bitboard::from_file(sq.file());
        let beside = adjacent_files(sq.file());
        let ahead = ranks_ahead(us, sq);
        let rank = sq.rank().relative(us).index();
        let stop = sq.offset(us.fold(8, -8));
        if (our_pawns & file & ahead).any() {
            sum.add(us, p::DOUBLED_PAWN, 1);
        }
        if (our_pawns & beside).is_empty() {
            sum.add(us, p::ISOLATED_PAWN, 1);
        } else if (our_pawns & (beside - ahead)).is_empty()
            && stop.is_some_and(|stop| their_pawn_attacks.contains(stop))
        {
            sum.add(us, p::BACKWARD_PAWN, 1);
        }
        if (our_pawns & beside & Bitboard::from_rank(sq.rank())).any() {
            sum.add(us, p::PAWN_PHALANX + rank, 1);
        }
        if (our_pawns & pawn_attacks(them, sq)).any() {
            sum.add(us, p::PAWN_SUPPORTED + rank, 1);
        }
        let span = ahead & (file | beside);
        if (their_pawns & span).any() || (our_pawns & file & ahead).any() {
            continue;
        }
        passers = passers.with(sq);
        sum.add(us, p::PASSED_PAWN + rank, 1);
        if let Some(stop) = stop
            && rank >= 3
        {
            let weight = rank as i32 - 2;
            let d_them = stop.distance(their_king) as i32;
            let d_us = stop.distance(our_king) as i32;
            sum.add(us, p::PASSER_THEIR_KING, d_them * weight);
            sum.add(us, p::PASSER_OUR_KING, d_us * weight);
        }
    }
    passers
}

/// Passed pawns against the pieces: a free stop square, a rook behind, a race the lone king
/// cannot win. `theirs` is where the enemy attacks.
fn passer_piece_terms<T: Trace>(
    sum: &mut Sum<'_, T>,
    pos: &Position,
    us: Color,
    passers: Bitboard,
    theirs: &AttackMap,
) {
    let them = !us;
    let occ = pos.occupied();
    let our_rooks = pos.pieces(us, Role::Rook);
    let their_king = pos.king(them);
    // Only then can a passer outrun the king alone.
    let pawns_only_against = !pos.has_non_pawn_material(them);
    for sq in passers {
        let file = Bitboard::from_file(sq.file());
        let ahead = ranks_ahead(us, sq);
        let rank = sq.rank().relative(us).index();
        let Some(stop) = sq.offset(us.fold(8, -8)) else {
            continue;
        };
        if !occ.contains(stop) && !theirs.all.contains(stop) {
            sum.add(us, p::PASSER_FREE + rank, 1);
        }
        if (rook_attacks(sq, occ) & our_rooks & (file - ahead)).any() {
            sum.add(us, p::ROOK_BEHIND_PASSER, 1);
        }
        if pawns_only_against {
            let promotion = Square::from_coords(sq.file(), Rank::Eighth.relative(us));
            let pawn_moves = (7 - rank - usize::from(rank == 1)) as u32;
            let tempo = u32::from(pos.turn() == them);
            let path_clear = (occ & file & ahead).is_empty();
            if path_clear && promotion.distance(their_king) > pawn_moves + tempo {
                sum.add(us, p::UNSTOPPABLE_PASSER, 1);
            }
        }
    }
}

/// Every term that reads nothing but the pawns and the kings (king shelter, pawn structure,
/// passers by rank and king distance), which [`PawnCache`] keeps; returns each side's passers.
fn pawn_king_terms<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position) -> [Bitboard; 2] {
    Color::ALL.map(|us| {
        shelter_terms(sum, pos, us);
        pawn_structure_terms(sum, pos, us)
    })
}

/// Bishop pair, rooks on open files, outposts and bishops hemmed in by their own pawns.
fn minor_and_rook_terms<T: Trace>(sum: &mut Sum<'_, T>, pos: &Position, us: Color) {
    let them = !us;
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let all_pawns = our_pawns | their_pawns;
    if pos.pieces(us, Role::Bishop).more_than_one() {
        sum.add(us, p::BISHOP_PAIR, 1);
    }
    let seventh = Bitboard::relative_rank(us, Rank::Seventh);
    let their_king_home = Bitboard::relative_rank(us, Rank::Eighth).contains(pos.king(them));
    for sq in pos.pieces(us, Role::Rook) {
        if seventh.contains(sq) && (their_king_home || (their_pawns & seventh).any()) {
            sum.add(us, p::ROOK_ON_SEVENTH, 1);
        }
        let file = Bitboard::from_file(sq.file());
        if (all_pawns & file).is_empty() {
            sum.add(us, p::ROOK_OPEN_FILE, 1);
        } else if (our_pawns & file).is_empty() {
            sum.add(us, p::ROOK_SEMI_OPEN_FILE, 1);
        }
    }
    let outpost = |sq: Square| {
        (3..=5).contains(&sq.rank().relative(us).index())
            && (our_pawns & pawn_attacks(them, sq)).any()
            && (their_pawns & adjacent_files(sq.file()) & ranks_ahead(us, sq)).is_empty()
    };
    let knights = pos.pieces(us, Role::Knight);
    let minors = knights | pos.pieces(us, Role::Bishop);
    // A minor right behind one of our pawns: our pawns seen one rank back.
    let behind_pawns = minors & our_pawns.shift_forward(them);
    sum.add(us, p::MINOR_BEHIND_PAWN, behind_pawns.count() as i32);
    for sq in knights {
        if outpost(sq) {
            sum.add(us, p::KNIGHT_OUTPOST, 1);
        }
    }
    for sq in pos.pieces(us, Role::Bishop) {
        if outpost(sq) {
            sum.add(us, p::BISHOP_OUTPOST, 1);
        }
        let colour = if Bitboard::DARK_SQUARES.contains(sq) {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        sum.add(us, p::BISHOP_PAWNS, (our_pawns & colour).count() as i32);
    }
}

fn phase(pos: &Position) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHT[r.index()] * pos.by_role(r).count() as i32)
        .sum::<i32>()
        .min(PHASE_MAX)
}

fn non_pawn_material(weights: &[S; p::COUNT], pos: &Position, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| weights[p::MATERIAL + r.index()].0 * pos.pieces(color, r).count() as i32)
        .sum()
}

/// Every term of `pos` with `weights`, each reported to `trace`.
pub fn tapered<T: Trace>(pos: &Position, weights: &[S; p::COUNT], trace: &mut T) -> Tapered {
    let mut sum = Sum {
        weights,
        trace,
        total: S::ZERO,
    };
    for us in Color::ALL {
        material_and_squares(&mut sum, pos, us);
    }
    let passers = pawn_king_terms(&mut sum, pos);
    piece_dependent_terms(sum, pos, passers)
}

/// [`tapered`] with the compiled weights and no trace, given the material and piece squares
/// ([`piece_square_sum`]), the pawn and king terms read from `cache` where it holds them.
fn tapered_cached(pos: &Position, cache: &mut PawnCache, piece_squares: S) -> Tapered {
    let (pawn_king_total, passers) = cache.get_or_insert_with(pos, || {
        let mut sum = Sum {
            weights: &WEIGHTS,
            trace: &mut (),
            total: S::ZERO,
        };
        let passers = pawn_king_terms(&mut sum, pos);
        (sum.total, passers)
    });
    let sum = Sum {
        weights: &WEIGHTS,
        trace: &mut (),
        total: pawn_king_total + piece_squares,
    };
    piece_dependent_terms(sum, pos, passers)
}

/// The terms that need the pieces, added to `sum`, which already holds the pawn and king
/// terms and the material and piece squares; then the phase and the endgame scale.
fn piece_dependent_terms<T: Trace>(
    mut sum: Sum<'_, T>,
    pos: &Position,
    passers: [Bitboard; 2],
) -> Tapered {
    let maps = [
        piece_terms(&mut sum, pos, Color::White),
        piece_terms(&mut sum, pos, Color::Black),
    ];
    for us in Color::ALL {
        let (ours, theirs) = (&maps[us.index()], &maps[(!us).index()]);
        passer_piece_terms(&mut sum, pos, us, passers[us.index()], theirs);
        minor_and_rook_terms(&mut sum, pos, us);
        threats::threat_terms(&mut sum, pos, us, ours, theirs);
    }
    let weights = sum.weights;
    let total = sum.total;
    let strong = if total.1 >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let no_pawn_ending = pos.pieces(strong, Role::Pawn).is_empty()
        && non_pawn_material(weights, pos, strong) - non_pawn_material(weights, pos, !strong)
            <= weights[p::MATERIAL + Role::Bishop.index()].0;
    Tapered {
        total,
        phase: phase(pos),
        eg_scale: if no_pawn_ending {
            NO_PAWN_SCALE
        } else if opposite_bishops_only(pos) {
            OPPOSITE_BISHOPS_SCALE
        } else {
            4
        },
    }
}

fn opposite_bishops_only(pos: &Position) -> bool {
    let (white, black) = (
        pos.pieces(Color::White, Role::Bishop),
        pos.pieces(Color::Black, Role::Bishop),
    );
    let others = pos.by_role(Role::Knight) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    others.is_empty()
        && white.count() == 1
        && black.count() == 1
        && ((white | black) & Bitboard::DARK_SQUARES).count() == 1
}

fn side_to_move_value(pos: &Position, tapered: &Tapered) -> i32 {
    let white = tapered.blend();
    // Closer to a fifty-move draw, an edge is worth less.
    let white = white * (200 - pos.halfmoves().min(100) as i32) / 200;
    pos.turn().fold(white, -white) + TEMPO
}

/// Sums the terms by [`Term`] for each side, for the `eval` command.
struct TermTrace {
    white: [S; Term::ALL.len()],
    black: [S; Term::ALL.len()],
}

impl Trace for TermTrace {
    fn add(&mut self, color: Color, param: usize, count: i32) {
        let term = p::section_of(param).term as usize;
        let side = color.fold(&mut self.white, &mut self.black);
        side[term] += WEIGHTS[param] * count;
    }
}

impl HandCrafted {
    /// The position's value in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        side_to_move_value(pos, &tapered(pos, &WEIGHTS, &mut ()))
    }

    /// [`Self::evaluate`] (the same value) from the position's `piece_square_sum`, kept by
    /// the caller, with the pawn and king terms kept in `cache`.
    pub fn evaluate_cached(&self, pos: &Position, cache: &mut PawnCache, piece_squares: S) -> i32 {
        side_to_move_value(pos, &tapered_cached(pos, cache, piece_squares))
    }

    /// Every term for both sides (the UCI `eval` command).
    pub fn trace(&self, pos: &Position) -> String {
        let mut terms = TermTrace {
            white: [S::ZERO; Term::ALL.len()],
            black: [S::ZERO; Term::ALL.len()],
        };
        let tapered = tapered(pos, &WEIGHTS, &mut terms);
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
        for term in Term::ALL {
            let (w, b) = (terms.white[term as usize], terms.black[term as usize]);
            let _ = writeln!(
                out,
                "{:<14} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}",
                term.name(),
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
            tapered.phase,
            tapered.blend()
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
        // Two pawns up with bishops of opposite colours is far less than with the same colour.
        let opposite = eval("4k3/8/4b3/8/8/2PP4/3B4/4K3 w - - 0 1");
        let same = eval("4k3/8/3b4/8/8/2PP4/3B4/4K3 w - - 0 1");
        assert!(opposite < same - 50, "{opposite} vs {same}");
        // The same edge counts for less as the fifty-move count nears its end.
        assert!(
            eval("4k3/8/8/8/8/8/8/R3K3 w - - 90 100") < eval("4k3/8/8/8/8/8/8/R3K3 w - - 0 100")
        );
    }

    #[test]
    fn a_passer_the_king_cannot_catch_is_nearly_a_queen() {
        let runs = eval("7k/8/8/P7/8/8/8/6K1 w - - 0 1");
        let caught = eval("1k6/8/8/P7/8/8/8/6K1 w - - 0 1");
        assert!(runs > caught + 100, "{runs} vs {caught}");
    }

    #[test]
    fn threats_and_hanging_pieces_count() {
        // The same material, once with a knight a pawn attacks and once without.
        let attacked = eval("4k3/8/2n5/1P6/8/8/8/4K3 w - - 0 1");
        let quiet = eval("4k3/8/3n4/1P6/8/8/8/4K3 w - - 0 1");
        assert!(attacked > quiet + 20, "{attacked} vs {quiet}");
    }
}
