//! Static evaluation. [`Evaluation`] says which one the engine uses: the hand-crafted evaluation,
//! or the embedded network or a network file, mixed with the hand-crafted evaluation by a share
//! (half by default). Search threads evaluate through [`ThreadEval`], which keeps the network's
//! accumulators in step with the moves it plays.

mod eval_cache;
mod hce;
mod pawn_cache;
pub mod terms;
mod threats;
pub mod tune;
mod weights;

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::chess::{Move, Position};

use super::nnue::{Delta, Network, NetworkFileError, NnueState};
use super::score::MAX_PLY;

use eval_cache::EvalCache;
pub use hce::HandCrafted;
pub use pawn_cache::PawnCache;

/// The network shipped inside the binary (see NETWORKS.md).
static EMBEDDED_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    let bytes = include_bytes!("../../../assets/kibitzer.nnue");
    Arc::new(Network::from_bytes(bytes).expect("the embedded network is checked by a test"))
});

/// How much of a network's score is the hand-crafted evaluation's, in percent, unless asked
/// otherwise. Networks trained alone and the hand-crafted evaluation err in different places:
/// at 20,000 nodes a move gen6 alone drew level with the hand-crafted evaluation and their mean
/// beat it by 76 Elo (by 38 at 10+0.1, where it is slower); gen7 alone lost to its own mix by
/// 139. Every embedded network since gen12 was trained inside this mix (`train --hce-share
/// 50`), as a correction to the hand-crafted evaluation (NETWORKS.md).
pub const DEFAULT_HCE_SHARE: u8 = 50;

/// Which static evaluation the engine uses.
#[derive(Clone)]
pub enum Evaluation {
    HandCrafted,
    /// A network; `source` names it for `info string` and the `eval` command. `hce_share`
    /// percent of each score is the hand-crafted evaluation's (0: the network alone).
    Nnue {
        network: Arc<Network>,
        source: String,
        hce_share: u8,
    },
}

/// A network file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Format {
        path: String,
        source: NetworkFileError,
    },
}

impl Evaluation {
    /// The embedded network: the default.
    pub fn embedded() -> Evaluation {
        Evaluation::Nnue {
            network: Arc::clone(&EMBEDDED_NETWORK),
            source: "embedded".to_owned(),
            hce_share: DEFAULT_HCE_SHARE,
        }
    }

    /// A network read from a file in the format of [`super::nnue::format`].
    pub fn from_file(path: &Path) -> Result<Evaluation, EvalFileError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| EvalFileError::Read {
            path: name.clone(),
            source,
        })?;
        let network = Network::from_bytes(&bytes).map_err(|source| EvalFileError::Format {
            path: name.clone(),
            source,
        })?;
        Ok(Evaluation::Nnue {
            network: Arc::new(network),
            source: name,
            hce_share: DEFAULT_HCE_SHARE,
        })
    }

    /// The same evaluation with `share` percent (at most 100) of a network's score taken from
    /// the hand-crafted evaluation; the hand-crafted evaluation stays as it is.
    pub fn with_hce_share(self, share: u8) -> Evaluation {
        match self {
            Evaluation::Nnue {
                network, source, ..
            } => Evaluation::Nnue {
                network,
                source,
                hce_share: share.min(100),
            },
            hce => hce,
        }
    }

    /// The position's value in centipawns for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluation::HandCrafted => HandCrafted.evaluate(pos),
            Evaluation::Nnue {
                network, hce_share, ..
            } => mix(network.evaluate_from_scratch(pos), *hce_share, || {
                HandCrafted.evaluate(pos)
            }),
        }
    }

    /// A human-readable account of the evaluation (the UCI `eval` command).
    pub fn trace(&self, pos: &Position) -> String {
        match self {
            Evaluation::HandCrafted => HandCrafted.trace(pos),
            Evaluation::Nnue {
                network, hce_share, ..
            } => {
                let (net, hce) = (
                    network.evaluate_from_scratch(pos),
                    HandCrafted.evaluate(pos),
                );
                format!(
                    "NNUE ({} -> {})x2 -> 1{}, SCReLU: {net} cp\nHand-crafted: {hce} cp\n\
                     Evaluation (side to move, {hce_share}% hand-crafted): {} cp",
                    inputs_note(network),
                    network.hidden(),
                    buckets_note(network),
                    mix(net, *hce_share, || hce)
                )
            }
        }
    }
}

/// `share` percent of the hand-crafted value and the rest of `net`; with no share the
/// hand-crafted evaluation is not computed at all.
fn mix(net: i32, share: u8, hce: impl FnOnce() -> i32) -> i32 {
    if share == 0 {
        return net;
    }
    let share = i32::from(share);
    (net * (100 - share) + hce() * share) / 100
}

/// The embedded network mixed with the hand-crafted evaluation: such a mix (gen6) won its SPRT
/// against the hand-crafted evaluation alone at 10+0.1, gen7's beat gen6's, gen12, trained in
/// the mix, beat gen7's, and each network fine-tuned from it since beat the default before it
/// (NETWORKS.md records each attempt and names the embedded one).
impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation::embedded()
    }
}

impl PartialEq for Evaluation {
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::HandCrafted, Evaluation::HandCrafted) => true,
            (
                Evaluation::Nnue {
                    network: a,
                    hce_share: share_a,
                    ..
                },
                Evaluation::Nnue {
                    network: b,
                    hce_share: share_b,
                    ..
                },
            ) => Arc::ptr_eq(a, b) && share_a == share_b,
            _ => false,
        }
    }
}

impl fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evaluation({self})")
    }
}

/// ", 8 output buckets" where the network has them.
/// "768", or "768 x 4" with king buckets.
fn inputs_note(network: &Network) -> String {
    match network.king_buckets() {
        1 => "768".to_owned(),
        n => format!("768 x {n}"),
    }
}

fn buckets_note(network: &Network) -> String {
    match network.buckets() {
        1 => String::new(),
        n => format!(", {n} output buckets"),
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::HandCrafted => f.write_str("hand-crafted"),
            Evaluation::Nnue {
                network,
                source,
                hce_share,
            } => {
                write!(
                    f,
                    "NNUE {source} ({} -> {})x2 -> 1{}",
                    inputs_note(network),
                    network.hidden(),
                    buckets_note(network)
                )?;
                match hce_share {
                    0 => Ok(()),
                    share => write!(f, ", mixed {share}% with the hand-crafted evaluation"),
                }
            }
        }
    }
}

/// One search thread's evaluator. The search tells it every move it makes and takes back, so
/// the network's accumulators and the hand-crafted material and piece squares are updated
/// incrementally instead of rebuilt per position.
pub struct ThreadEval {
    evaluation: Evaluation,
    nnue: Option<NnueState>,
    pawns: PawnCache,
    /// [`hce::piece_square_sum`] of each position on the path from the root (empty before the
    /// first root: then it is computed per position).
    piece_squares: Vec<S>,
    cache: EvalCache,
}

impl ThreadEval {
    pub fn new(evaluation: &Evaluation) -> ThreadEval {
        let nnue = match evaluation {
            Evaluation::HandCrafted => None,
            // Quiescence can go a little past MAX_PLY plies below the root.
            Evaluation::Nnue { network, .. } => Some(NnueState::new(network, MAX_PLY + 8)),
        };
        ThreadEval {
            evaluation: evaluation.clone(),
            nnue,
            pawns: PawnCache::default(),
            piece_squares: Vec::with_capacity(MAX_PLY + 9),
            cache: EvalCache::default(),
        }
    }

    /// Starts a search from `root`, switching to `evaluation` if it changed since the last one.
    pub fn set_root(&mut self, evaluation: &Evaluation, root: &Position) {
        if self.evaluation != *evaluation {
            *self = ThreadEval::new(evaluation);
        }
        if let (Some(state), Evaluation::Nnue { network, .. }) = (&mut self.nnue, &self.evaluation)
        {
            state.refresh(network, root);
        }
        self.piece_squares.clear();
        self.piece_squares.push(hce::piece_square_sum(root));
    }

    /// Before `m` is played from `before`.
    #[inline]
    pub fn push_move(&mut self, before: &Position, m: Move) {
        let delta = Delta::of(before, m);
        if let Some(&parent) = self.piece_squares.last() {
            let mut sum = parent;
            for &(piece, sq) in delta.added.iter().flatten() {
                sum += hce::piece_square_value(piece, sq);
            }
            for &(piece, sq) in delta.removed.iter().flatten() {
                sum -= hce::piece_square_value(piece, sq);
            }
            self.piece_squares.push(sum);
        }
        if let Some(state) = &mut self.nnue {
            state.push(delta);
        }
    }

    /// Starts loading what evaluating the position with `key` will read first.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        self.cache.prefetch(key);
    }

    #[inline]
    pub fn push_null(&mut self) {
        if let Some(&parent) = self.piece_squares.last() {
            self.piece_squares.push(parent);
        }
        if let Some(state) = &mut self.nnue {
            state.push_null();
        }
    }

    /// After the move pushed last is taken back.
    #[inline]
    pub fn pop(&mut self) {
        // The root's entry stays: only moves are taken back.
        if self.piece_squares.len() > 1 {
            self.piece_squares.pop();
        }
        if let Some(state) = &mut self.nnue {
            state.pop();
        }
    }

    /// The current position's value for the side to move; `pos` is the position after every
    /// move pushed so far.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let ThreadEval {
            evaluation,
            nnue,
            pawns,
            piece_squares,
            cache,
        } = self;
        cache.get_or_insert_with(pos, || {
            let mut hand_crafted = || {
                let piece_squares = piece_squares
                    .last()
                    .copied()
                    .unwrap_or_else(|| hce::piece_square_sum(pos));
                HandCrafted.evaluate_cached(pos, pawns, piece_squares)
            };
            match (nnue, evaluation) {
                (
                    Some(state),
                    Evaluation::Nnue {
                        network, hce_share, ..
                    },
                ) => mix(state.evaluate(network, pos), *hce_share, hand_crafted),
                _ => hand_crafted(),
            }
        })
    }
}

/// A tapered score: middlegame and endgame parts, blended by the game phase.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct S(pub i32, pub i32);

impl S {
    pub const ZERO: S = S(0, 0);
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_network_loads() {
        let Evaluation::Nnue { network, .. } = Evaluation::embedded() else {
            panic!("the embedded evaluation is a network");
        };
        assert!(network.hidden() >= 16);
    }

    #[test]
    fn network_files_are_checked() {
        let dir = std::env::temp_dir().join(format!("kibitzer-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let garbage = dir.join("garbage.nnue");
        std::fs::write(&garbage, b"not a network").unwrap();
        let err = Evaluation::from_file(&garbage).unwrap_err().to_string();
        assert!(err.contains("garbage.nnue"), "{err}");
        let missing = Evaluation::from_file(&dir.join("missing.nnue")).unwrap_err();
        assert!(matches!(missing, EvalFileError::Read { .. }));
        let copy = dir.join("copy.nnue");
        std::fs::write(&copy, include_bytes!("../../../assets/kibitzer.nnue")).unwrap();
        let loaded = Evaluation::from_file(&copy).unwrap();
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        assert_eq!(loaded.evaluate(&pos), Evaluation::embedded().evaluate(&pos));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Pushes and pops every move to `depth` plies the way the search does (null moves
    /// included), checking each incremental evaluation against one from scratch.
    fn walk(eval: &mut ThreadEval, evaluation: &Evaluation, pos: &Position, depth: u32) {
        assert_eq!(
            eval.evaluate(pos),
            evaluation.evaluate(pos),
            "{}",
            pos.fen()
        );
        if depth == 0 {
            return;
        }
        for &m in pos.legal_moves().iter() {
            eval.push_move(pos, m);
            walk(eval, evaluation, &pos.play(m).unwrap(), depth - 1);
            eval.pop();
        }
        if !pos.in_check() {
            let mut after = pos.clone();
            after.play_null();
            eval.push_null();
            walk(eval, evaluation, &after, depth - 1);
            eval.pop();
        }
    }

    /// Captures, castling both ways, promotions and under-promotions, en passant and null
    /// moves, three plies deep from positions full of them: the network alone, and mixed with
    /// the hand-crafted evaluation (its pawn cache filling as it goes).
    #[test]
    fn incremental_evaluation_matches_from_scratch_through_every_move_kind() {
        for share in [0, DEFAULT_HCE_SHARE] {
            walk_every_move_kind(&Evaluation::embedded().with_hce_share(share));
        }
        walk_every_move_kind(&Evaluation::HandCrafted);
    }

    fn walk_every_move_kind(evaluation: &Evaluation) {
        let mut eval = ThreadEval::new(evaluation);
        for fen in [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let root = Position::from_fen(fen).unwrap();
            eval.set_root(evaluation, &root);
            walk(&mut eval, evaluation, &root, 3);
        }
    }

    #[test]
    fn the_mix_takes_its_share_of_each_evaluation() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let net = Evaluation::embedded().with_hce_share(0);
        let Evaluation::Nnue { network, .. } = &net else {
            panic!("the embedded evaluation is a network");
        };
        let (n, h) = (
            network.evaluate_from_scratch(&pos),
            HandCrafted.evaluate(&pos),
        );
        assert_eq!(net.evaluate(&pos), n);
        assert_eq!(Evaluation::embedded().evaluate(&pos), (n + h) / 2);
        assert_eq!(Evaluation::embedded().with_hce_share(100).evaluate(&pos), h);
        assert_eq!(Evaluation::embedded().with_hce_share(250).evaluate(&pos), h);
        assert_ne!(net, Evaluation::embedded());
        assert_eq!(Evaluation::embedded(), Evaluation::embedded());
        assert_eq!(
            Evaluation::HandCrafted.with_hce_share(0),
            Evaluation::HandCrafted
        );
        let shown = Evaluation::embedded().to_string();
        assert!(
            shown.ends_with("mixed 50% with the hand-crafted evaluation"),
            "{shown}"
        );
        assert!(
            Evaluation::embedded()
                .trace(&pos)
                .contains(&format!("{} cp", (n + h) / 2))
        );
    }
}
