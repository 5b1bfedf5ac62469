//! A legal position: bitboards plus a mailbox, reachable only through validation, and
//! copy-make move application with an incremental Polyglot Zobrist key.

use std::fmt;

use super::attacks::{
    attacks, between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks,
    pawn_attacks_all, rook_attacks, rook_rays,
};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind};
use super::types::{ByColor, ByRole, CastlingSide, Color, File, Piece, Rank, Role, Square};
use super::zobrist;

/// Any arrangement of pieces and state, possibly nonsense. Turn it into a [`Position`] with
/// [`Position::from_setup`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// Squares of the rooks that keep castling rights.
    pub castling_rooks: Bitboard,
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// How castling is written and which castling rights are allowed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum CastlingMode {
    /// King on the e-file, rooks on the a- and h-files; UCI castling as `e1g1`.
    #[default]
    Standard,
    /// Any start files; UCI castling as king-takes-rook (`e1h1`).
    Chess960,
}

/// Why a [`Setup`] is not a legal position. Several may hold at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("{0:?} has no king")]
    MissingKing(Color),
    #[error("{0:?} has more than one king")]
    TooManyKings(Color),
    #[error("{0:?} has more than 16 pieces")]
    TooManyPieces(Color),
    #[error("pawns on the first or last rank")]
    PawnsOnBackRank,
    #[error("the side not to move is in check")]
    OppositeCheck,
    #[error("the side to move is in check from more than two pieces")]
    ImpossibleCheck,
    #[error("castling right without a king and rook on their first rank (rook on {0})")]
    InvalidCastling(Square),
    #[error("en passant square {0} does not follow a double pawn push")]
    InvalidEnPassant(Square),
}

/// Every reason a setup was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionErrors(pub Vec<PositionError>);

impl fmt::Display for PositionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionErrors {}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("illegal move {0:?}")]
pub struct IllegalMove(pub Move);

/// A legal chess position (standard or Chess960).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 64],
    by_role: ByRole<Bitboard>,
    by_color: ByColor<Bitboard>,
    turn: Color,
    /// Rook squares with castling rights, by colour and side.
    castling: ByColor<[Option<Square>; 2]>,
    castling_rooks: Bitboard,
    /// Set only when a pawn of the side to move could capture there (the Polyglot rule).
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
    checkers: Bitboard,
    mode: CastlingMode,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard start, parsed once: every game read starts from it.
    pub fn startpos() -> Position {
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        START
            .get_or_init(|| {
                Position::from_fen(super::fen::STARTPOS).expect("the start position is legal")
            })
            .clone()
    }

    /// Validates `setup`. In [`CastlingMode::Standard`] castling rights need the king on the e-file
    /// and rooks on the a- or h-file.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionErrors> {
        let mut errors = Vec::new();
        let mut pos = Position {
            board: [None; 64],
            by_role: ByRole::default(),
            by_color: ByColor::default(),
            turn: setup.turn,
            castling: ByColor::default(),
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            hash: 0,
            checkers: Bitboard::EMPTY,
            mode,
        };
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(piece, sq);
            }
        }
        for color in Color::ALL {
            match pos.pieces(color, Role::King).count() {
                0 => errors.push(PositionError::MissingKing(color)),
                1 => {}
                _ => errors.push(PositionError::TooManyKings(color)),
            }
            if pos.by_color[color].count() > 16 {
                errors.push(PositionError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        if (pos.by_role[Role::Pawn] & back_ranks).any() {
            errors.push(PositionError::PawnsOnBackRank);
        }

        for rook in setup.castling_rooks {
            match pos.castling_side_of(rook, mode) {
                Some((color, side)) if pos.castling[color][side.index()].is_none() => {
                    pos.castling[color][side.index()] = Some(rook);
                    pos.castling_rooks = pos.castling_rooks.with(rook);
                }
                _ => errors.push(PositionError::InvalidCastling(rook)),
            }
        }

        if let Some(ep) = setup.ep_square {
            if pos.valid_ep_target(ep) {
                // Kept only where a pawn can take (Polyglot); otherwise it is dropped silently.
                let capturers = pawn_attacks(!pos.turn, ep) & pos.pieces(pos.turn, Role::Pawn);
                pos.ep_square = capturers.any().then_some(ep);
            } else {
                errors.push(PositionError::InvalidEnPassant(ep));
            }
        }

        if errors.iter().all(|e| {
            !matches!(
                e,
                PositionError::MissingKing(_) | PositionError::TooManyKings(_)
            )
        }) {
            let them = !pos.turn;
            if (pos.attackers_to(pos.king(them), pos.occupied()) & pos.by_color[pos.turn]).any() {
                errors.push(PositionError::OppositeCheck);
            }
            pos.checkers =
                pos.attackers_to(pos.king(pos.turn), pos.occupied()) & pos.by_color[them];
            if pos.checkers.count() > 2 {
                errors.push(PositionError::ImpossibleCheck);
            }
        }

        if !errors.is_empty() {
            return Err(PositionErrors(errors));
        }
        pos.hash = zobrist::hash(&pos);
        Ok(pos)
    }

    /// The colour and side a castling rook on `rook` would belong to, if it can.
    fn castling_side_of(&self, rook: Square, mode: CastlingMode) -> Option<(Color, CastlingSide)> {
        let piece = self.piece_at(rook)?;
        if piece.role != Role::Rook || rook.rank() != piece.color.back_rank() {
            return None;
        }
        let king = self.pieces(piece.color, Role::King).first()?;
        if king.rank() != piece.color.back_rank() || king == rook {
            return None;
        }
        let side = if rook.file() > king.file() {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        };
        if mode == CastlingMode::Standard
            && (king.file() != File::E || rook.file() != side.fold(File::H, File::A))
        {
            return None;
        }
        Some((piece.color, side))
    }

    /// An en passant target follows a double push: empty target and start squares, and the
    /// pushed enemy pawn in front.
    fn valid_ep_target(&self, ep: Square) -> bool {
        let them = !self.turn;
        if ep.rank() != Rank::Sixth.relative(self.turn) {
            return false;
        }
        let (Some(pushed), Some(start)) = (
            ep.offset(self.turn.fold(-8, 8)),
            ep.offset(self.turn.fold(8, -8)),
        ) else {
            return false;
        };
        self.piece_at(ep).is_none()
            && self.piece_at(start).is_none()
            && self.piece_at(pushed) == Some(Piece::new(them, Role::Pawn))
    }

    /// Back to a plain [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rooks: self.castling_rooks,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    // --- Accessors -------------------------------------------------------------------------

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board[sq.index()].map(|p| p.role)
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.white | self.by_color.black
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color] & self.by_role[role]
    }

    /// Bishops and queens.
    #[inline]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop] | self.by_role[Role::Queen]
    }

    /// Rooks and queens.
    #[inline]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook] | self.by_role[Role::Queen]
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Polyglot key of the position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Switches how castling is written; the rights themselves are kept.
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        self.mode = mode;
    }

    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.castling[color][side.index()]
    }

    /// Rook squares with castling rights, by colour, indexed by [`CastlingSide`].
    #[inline]
    pub fn castling_rights(&self) -> &ByColor<[Option<Square>; 2]> {
        &self.castling
    }

    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling_rooks
    }

    /// Pieces of both colours that attack `sq`, sliders seen through `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (rook_attacks(sq, occupied) & self.orthogonal_sliders())
            | (bishop_attacks(sq, occupied) & self.diagonal_sliders())
            | (knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Pieces of `color` that attack `sq`, sliders seen through `occupied`.
    #[inline]
    pub fn attackers_by(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(color);
        let mut attackers = ((knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(!color, sq) & self.by_role(Role::Pawn)))
            & theirs;
        // Magic lookups only for sliders on the square's lines.
        let diagonal = self.diagonal_sliders() & theirs & bishop_rays(sq);
        if diagonal.any() {
            attackers |= bishop_attacks(sq, occupied) & diagonal;
        }
        let orthogonal = self.orthogonal_sliders() & theirs & rook_rays(sq);
        if orthogonal.any() {
            attackers |= rook_attacks(sq, occupied) & orthogonal;
        }
        attackers
    }

    /// Whether `color` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, color: Color, occupied: Bitboard) -> bool {
        self.attackers_by(color, sq, occupied).any()
    }

    /// Every square `color` attacks, its own men's included, sliders seen through the board.
    pub fn attacked_squares(&self, color: Color) -> Bitboard {
        let (occupied, ours) = (self.occupied(), self.by_color(color));
        let mut attacked = pawn_attacks_all(self.pieces(color, Role::Pawn), color)
            | king_attacks(self.king(color));
        for sq in self.pieces(color, Role::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in self.diagonal_sliders() & ours {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in self.orthogonal_sliders() & ours {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked
    }

    /// Pieces of either colour that alone stand between `color`'s king and an enemy slider.
    pub fn blockers(&self, color: Color) -> Bitboard {
        let king = self.king(color);
        let them = self.by_color(!color);
        let snipers = ((rook_rays(king) & self.orthogonal_sliders())
            | (bishop_rays(king) & self.diagonal_sliders()))
            & them;
        let occupied = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let b = between(king, sniper) & occupied;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Non-pawn, non-king material of `color` exists (null-move pruning needs it).
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.by_color(color) - self.by_role(Role::Pawn) - self.by_role(Role::King)).any()
    }

    // --- Board editing ---------------------------------------------------------------------

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.by_role[piece.role].toggle(sq);
        self.by_color[piece.color].toggle(sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.by_role[piece.role].toggle(sq);
        self.by_color[piece.color].toggle(sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    // --- Playing moves ---------------------------------------------------------------------

    /// Plays a move after checking that it is legal: for moves from users, files and protocols.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        if self.is_legal(m) {
            let mut next = self.clone();
            next.play_unchecked(m);
            Ok(next)
        } else {
            Err(IllegalMove(m))
        }
    }

    /// Whether `m` is one of the legal moves here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Plays a move this position generated (copy-make: clone first to keep the parent).
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.piece_at(from) else {
            debug_assert!(false, "no piece on {from}");
            return;
        };

        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        let castling_before = self.castling_rooks;

        match m.kind() {
            MoveKind::Castle => {
                let side = m.castling_side().unwrap_or(CastlingSide::King);
                let rank = us.back_rank();
                let rook = Piece::new(us, Role::Rook);
                self.remove(piece, from);
                self.remove(rook, to);
                self.put(piece, Square::from_coords(side.king_to_file(), rank));
                self.put(rook, Square::from_coords(side.rook_to_file(), rank));
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.remove(Piece::new(them, Role::Pawn), captured);
                self.remove(piece, from);
                self.put(piece, to);
                self.halfmoves = 0;
            }
            kind => {
                if let Some(captured) = self.piece_at(to) {
                    self.remove(captured, to);
                    self.halfmoves = 0;
                }
                self.remove(piece, from);
                let placed = match m.promotion_role() {
                    Some(role) => Piece::new(us, role),
                    None => piece,
                };
                self.put(placed, to);
                if piece.role == Role::Pawn {
                    self.halfmoves = 0;
                    if kind == MoveKind::DoublePush {
                        let ep = Square::new((from as u32 + to as u32) / 2);
                        if (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).any() {
                            self.ep_square = Some(ep);
                            self.hash ^= zobrist::en_passant(ep.file());
                        }
                    }
                }
            }
        }

        // Rights end when their rook leaves or is taken, and all of a side's when its king moves.
        let mut lost = castling_before & (Bitboard::from_square(from) | to);
        if piece.role == Role::King {
            lost |= castling_before & Bitboard::from_rank(us.back_rank());
        }
        if lost.any() {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if let Some(rook) = self.castling[color][side.index()]
                        && lost.contains(rook)
                    {
                        self.castling[color][side.index()] = None;
                        self.hash ^= zobrist::castling_right(color, side);
                    }
                }
            }
            self.castling_rooks = castling_before - lost;
        }

        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::TURN;
        self.checkers = self.attackers_by(us, self.king(them), self.occupied());
    }

    /// Passes the turn (null move, for search). Only valid when not in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::TURN;
        self.checkers = Bitboard::EMPTY;
    }

    /// The piece that moves (the king for castling).
    #[inline]
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        self.piece_at(m.from())
    }

    /// The role captured by `m`, if any (a pawn for en passant).
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Castle => None,
            _ => self.role_at(m.to()),
        }
    }

    /// Whether the (legal) move `m` checks the opponent, without playing it.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let king = self.king(!us);
        let from = m.from();
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let (mover, mover_to, occupied) = match m.kind() {
            MoveKind::Castle => {
                let side = m.castling_side().unwrap_or(CastlingSide::King);
                let rank = us.back_rank();
                let king_to = Square::from_coords(side.king_to_file(), rank);
                let rook_to = Square::from_coords(side.rook_to_file(), rank);
                let occupied = (self.occupied() - from - m.to()) | king_to | rook_to;
                (Piece::new(us, Role::Rook), rook_to, occupied)
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(m.to().file(), from.rank());
                let occupied = (self.occupied() - from - captured) | m.to();
                (piece, m.to(), occupied)
            }
            _ => {
                let placed = m
                    .promotion_role()
                    .map_or(piece, |role| Piece::new(us, role));
                (placed, m.to(), (self.occupied() - from) | m.to())
            }
        };
        if attacks(mover, mover_to, occupied).contains(king) {
            return true;
        }
        // Discovered checks: our sliders, less whatever left `from` or was taken on `to`.
        let ours = self.by_color(us) - from - m.to();
        ((bishop_attacks(king, occupied) & self.diagonal_sliders() & ours)
            | (rook_attacks(king, occupied) & self.orthogonal_sliders() & ours))
            .any()
    }

    // --- Game-end rules --------------------------------------------------------------------

    /// Neither side can ever mate: K v K, K+minor v K, or only bishops all on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.orthogonal_sliders();
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = (knights | bishops).count();
        if minors <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.legal_moves().is_empty()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && self.legal_moves().is_empty()
    }

    // --- Static exchange evaluation --------------------------------------------------------

    /// Whether the exchange sequence started by `m` on its destination square gains at least
    /// `threshold` centipawns for the side to move (both sides recapture with their least valuable
    /// piece and may stop at any time).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.is_castle() || m.is_promotion() {
            return threshold <= 0;
        }
        let from = m.from();
        let to = m.to();
        let captured = self.captured_role(m).map_or(0, see_value);
        let mut swap = captured - threshold;
        if swap < 0 {
            return false;
        }
        let Some(mover) = self.role_at(from) else {
            return false;
        };
        swap = see_value(mover) - swap;
        if swap <= 0 {
            return true;
        }

        let mut occupied = self.occupied() - from - to;
        if m.is_en_passant() {
            occupied = occupied - Square::from_coords(to.file(), from.rank());
        }
        let mut attackers = self.attackers_to(to, occupied) & occupied;
        let mut side = self.turn;
        let mut result = true;
        let diagonal = self.diagonal_sliders();
        let orthogonal = self.orthogonal_sliders();
        let pinned_white = self.blockers(Color::White) & self.by_color(Color::White);
        let pinned_black = self.blockers(Color::Black) & self.by_color(Color::Black);

        loop {
            side = !side;
            let pinned = side.fold(pinned_white, pinned_black);
            let mut side_attackers = attackers & self.by_color(side);
            // A pinned piece may not join while the pinner is still on the board.
            if (self.by_color(!side) & (diagonal | orthogonal) & occupied).any() {
                side_attackers = side_attackers - pinned;
            }
            if side_attackers.is_empty() {
                break;
            }
            result = !result;
            let (role, sq) = Role::ALL
                .iter()
                .find_map(|&role| {
                    (side_attackers & self.by_role(role))
                        .first()
                        .map(|sq| (role, sq))
                })
                .expect("attackers not empty");
            if role == Role::King {
                // The king may take only if the opponent has nothing left to recapture.
                if (attackers & self.by_color(!side)).any() {
                    result = !result;
                }
                break;
            }
            swap = see_value(role) - swap;
            if swap < result as i32 {
                break;
            }
            occupied = occupied - sq;
            attackers = attackers - sq;
            if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                attackers |= bishop_attacks(to, occupied) & diagonal & occupied;
            }
            if matches!(role, Role::Rook | Role::Queen) {
                attackers |= rook_attacks(to, occupied) & orthogonal & occupied;
            }
        }
        result
    }
}

/// Piece values for static exchange evaluation.
pub const fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// The board as text, rank 8 on top, then the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, " {} ", rank.char())?;
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', Piece::char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        write!(f, "Key: {:016x}", self.hash)
    }
}
