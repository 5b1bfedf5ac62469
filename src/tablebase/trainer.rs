//! The endgame trainer: random positions of a given material with a given result, the
//! tablebase defender's reply, and grades for the user's moves (win kept, DTZ wasted, win thrown
//! to a draw...), summed up at the end.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::error::TbError;
use super::root::RootRanking;
use super::tables::Tablebases;
use crate::chess::TbWdl;
use crate::chess::{CastlingMode, Color, Move, Outcome, Piece, Position, Role, Setup, Square};

/// A material balance such as `KRPvKR`: the user's pieces, then the opponent's.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Material {
    /// The user's side, kings included, strongest first.
    pub ours: Vec<Role>,
    pub theirs: Vec<Role>,
}

#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum MaterialError {
    #[error("'{0}' is not a material like KQvK or KRPvKR (pieces K Q R B N P, sides split by 'v')")]
    Syntax(String),
    #[error("'{text}': each side needs exactly one king")]
    Kings { text: String },
    #[error("'{text}': {pieces} pieces, more than the 7 any table holds")]
    TooMany { text: String, pieces: usize },
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let text = s.trim();
        let syntax = || MaterialError::Syntax(text.to_owned());
        let (a, b) = text
            .split_once(['v', 'V'])
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
            .ok_or_else(syntax)?;
        let side = |part: &str| -> Result<Vec<Role>, MaterialError> {
            let mut roles = part
                .chars()
                .map(|c| Role::from_char(c.to_ascii_lowercase()).ok_or_else(syntax))
                .collect::<Result<Vec<Role>, _>>()?;
            if roles.iter().filter(|&&r| r == Role::King).count() != 1 {
                return Err(MaterialError::Kings {
                    text: text.to_owned(),
                });
            }
            roles.sort_by_key(|&r| std::cmp::Reverse(role_order(r)));
            Ok(roles)
        };
        let material = Material {
            ours: side(a)?,
            theirs: side(b)?,
        };
        let pieces = material.ours.len() + material.theirs.len();
        if pieces > 7 {
            return Err(MaterialError::TooMany {
                text: text.to_owned(),
                pieces,
            });
        }
        Ok(material)
    }
}

/// K, Q, R, B, N, P: the order table names use.
fn role_order(r: Role) -> u8 {
    match r {
        Role::King => 6,
        Role::Queen => 5,
        Role::Rook => 4,
        Role::Bishop => 3,
        Role::Knight => 2,
        Role::Pawn => 1,
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |roles: &[Role]| -> String { roles.iter().map(|r| r.upper_char()).collect() };
        write!(f, "{}v{}", side(&self.ours), side(&self.theirs))
    }
}

impl Material {
    /// The material of a position, `color`'s side first.
    pub fn of(pos: &Position, color: Color) -> Material {
        let side = |c: Color| {
            let mut roles: Vec<Role> = pos
                .by_color(c)
                .into_iter()
                .filter_map(|sq| pos.role_at(sq))
                .collect();
            roles.sort_by_key(|&r| std::cmp::Reverse(role_order(r)));
            roles
        };
        Material {
            ours: side(color),
            theirs: side(!color),
        }
    }

    fn pieces(&self) -> usize {
        self.ours.len() + self.theirs.len()
    }
}

#[derive(Debug, Error)]
pub enum TrainerError {
    #[error("{material}: {pieces} pieces, but the tables hold at most {max}")]
    NotCovered {
        material: String,
        pieces: usize,
        max: u32,
    },
    #[error("{material}: no position found where you {want} after {tries} tries")]
    NotFound {
        material: String,
        want: &'static str,
        tries: usize,
    },
    #[error(transparent)]
    Tablebase(#[from] TbError),
}

/// Random placements tried before giving up on a material.
const GENERATE_TRIES: usize = 20_000;

/// A random legal position of `material` with the user (`user`, to move) holding the first
/// side, whose tablebase result for the user is `want`. Positions with a mate in one are
/// skipped: there is nothing to practise.
pub fn generate(
    tables: &Tablebases,
    material: &Material,
    user: Color,
    want: TbWdl,
    rng: &mut impl FnMut() -> u64,
) -> Result<Position, TrainerError> {
    if material.pieces() > tables.max_pieces() as usize {
        return Err(TrainerError::NotCovered {
            material: material.to_string(),
            pieces: material.pieces(),
            max: tables.max_pieces(),
        });
    }
    for _ in 0..GENERATE_TRIES {
        let mut setup = Setup::empty();
        for (color, roles) in [(user, &material.ours), (!user, &material.theirs)] {
            for &role in roles {
                loop {
                    let sq = Square::new((rng() % 64) as u32);
                    let back_rank = matches!(sq.rank().index(), 0 | 7);
                    if setup.board[sq.index()].is_none() && !(role == Role::Pawn && back_rank) {
                        setup.board[sq.index()] = Some(Piece { color, role });
                        break;
                    }
                }
            }
        }
        setup.turn = user;
        setup.fullmoves = 1;
        let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        if pos.legal_moves().is_empty() {
            continue;
        }
        if tables.probe_wdl(&pos)? != want {
            continue;
        }
        let mate_in_one = pos.legal_moves().iter().any(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            child.is_checkmate()
        });
        if !mate_in_one {
            return Ok(pos);
        }
    }
    Err(TrainerError::NotFound {
        material: material.to_string(),
        want: match want {
            TbWdl::Win | TbWdl::CursedWin => "win",
            TbWdl::Draw => "draw",
            TbWdl::Loss | TbWdl::BlessedLoss => "lose",
        },
        tries: GENERATE_TRIES,
    })
}

/// The defender's reply: the move that holds out longest (a draw when there is one, else the
/// loss with the longest distance to zeroing). `None` when the game is over.
pub fn defender_move(tables: &Tablebases, pos: &Position) -> Result<Option<Move>, TbError> {
    Ok(tables.rank_root(pos, true)?.moves.first().map(|m| m.mv))
}

/// How one move compares with the best move of its position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Grade {
    /// As good as the best move (same result, same distance to zeroing; mate when mate was
    /// there).
    Best,
    /// The same result, `plies` further from zeroing than the best move (for a losing side:
    /// resisting `plies` less).
    Slower { result: TbWdl, plies: u32 },
    /// A worse result than the position held: a win thrown to a draw, a draw to a loss...
    Dropped { from: TbWdl, to: TbWdl },
}

impl Grade {
    /// Move-list glyph: nothing, `?!` (slower), `?` (a win given up) or `??` (now losing).
    pub fn glyph(self) -> &'static str {
        match self {
            Grade::Best => "",
            Grade::Slower { .. } => "?!",
            Grade::Dropped { to, .. } if to < TbWdl::Draw => "??",
            Grade::Dropped { .. } => "?",
        }
    }

    pub fn is_best(self) -> bool {
        self == Grade::Best
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Grade::Best => f.write_str("best move"),
            Grade::Slower { result, plies } => match result {
                TbWdl::Win | TbWdl::CursedWin => write!(
                    f,
                    "{} kept, DTZ wasted by {plies} {}",
                    result.name(),
                    plural(plies)
                ),
                _ => write!(
                    f,
                    "{} kept, but {plies} {} shorter than the best defence",
                    result.name(),
                    plural(plies)
                ),
            },
            Grade::Dropped { from, to } => {
                write!(f, "{} thrown to a {}", from.name(), to.name())?;
                if to == TbWdl::CursedWin {
                    f.write_str(" (the fifty-move rule draws it)")?;
                }
                Ok(())
            }
        }
    }
}

fn plural(plies: u32) -> &'static str {
    if plies == 1 { "ply" } else { "plies" }
}

/// Grades `mv` against the ranking of its position (from [`Tablebases::rank_root`] with the
/// fifty-move rule on). `None` when the move is not in the ranking.
pub fn grade(ranking: &RootRanking, mv: Move) -> Option<Grade> {
    let best = *ranking.moves.first()?;
    let played = *ranking.moves.iter().find(|m| m.mv == mv)?;
    if played.wdl < best.wdl {
        return Some(Grade::Dropped {
            from: best.wdl,
            to: played.wdl,
        });
    }
    let plies = match best.wdl {
        TbWdl::Win | TbWdl::CursedWin if best.checkmate && !played.checkmate => {
            (played.dtz - best.dtz).max(1)
        }
        TbWdl::Win | TbWdl::CursedWin => played.dtz - best.dtz,
        TbWdl::Draw => 0,
        TbWdl::Loss | TbWdl::BlessedLoss => best.dtz.abs() - played.dtz.abs(),
    };
    Some(if plies <= 0 {
        Grade::Best
    } else {
        Grade::Slower {
            result: played.wdl,
            plies: plies as u32,
        }
    })
}

/// The end-of-drill report.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Summary {
    pub user: Color,
    /// The user's graded moves.
    pub moves: usize,
    pub best: usize,
    /// DTZ plies given away over the drill.
    pub wasted: u32,
    /// Moves that threw away a result.
    pub dropped: usize,
    pub outcome: Option<Outcome>,
}

impl Summary {
    pub fn new(user: Color, grades: &[Grade], outcome: Option<Outcome>) -> Summary {
        Summary {
            user,
            moves: grades.len(),
            best: grades.iter().filter(|g| g.is_best()).count(),
            wasted: grades
                .iter()
                .map(|g| match g {
                    Grade::Slower { plies, .. } => *plies,
                    _ => 0,
                })
                .sum(),
            dropped: grades
                .iter()
                .filter(|g| matches!(g, Grade::Dropped { .. }))
                .count(),
            outcome,
        }
    }

    /// The user mated: the game was won before the fifty-move rule could draw it.
    pub fn converted(&self) -> bool {
        self.outcome == Some(Outcome::Checkmate { winner: self.user })
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}, {} best",
            self.moves,
            if self.moves == 1 { "move" } else { "moves" },
            self.best
        )?;
        if self.wasted > 0 {
            write!(f, ", {} DTZ {} wasted", self.wasted, plural(self.wasted))?;
        }
        if self.dropped > 0 {
            write!(f, ", {} thrown away", self.dropped)?;
        }
        match self.outcome {
            Some(o) if self.converted() => write!(f, "; {o}: converted within the fifty-move rule"),
            Some(o) => write!(f, "; {o}"),
            None => f.write_str("; unfinished"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::tests::shared_tables;

    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut rng = crate::chess::Rng::new(seed);
        move || rng.next_u64()
    }

    #[test]
    fn materials_parse_and_print() {
        let m: Material = "krpvkr".parse().unwrap();
        assert_eq!(m.to_string(), "KRPvKR");
        assert_eq!("PKRvRK".parse::<Material>().unwrap(), m);
        assert!(matches!(
            "KQ".parse::<Material>(),
            Err(MaterialError::Syntax(_))
        ));
        assert!(matches!(
            "KXvK".parse::<Material>(),
            Err(MaterialError::Syntax(_))
        ));
        assert!(matches!(
            "QvK".parse::<Material>(),
            Err(MaterialError::Kings { .. })
        ));
        assert!(matches!(
            "KKvK".parse::<Material>(),
            Err(MaterialError::Kings { .. })
        ));
        assert!(matches!(
            "KQQQQvKRR".parse::<Material>(),
            Err(MaterialError::TooMany { pieces: 8, .. })
        ));
        let pos = Position::from_fen("8/8/8/8/8/2k5/3r4/K6R w - - 0 1").unwrap();
        assert_eq!(Material::of(&pos, Color::Black).to_string(), "KRvKR");
    }

    #[test]
    fn generated_positions_have_the_material_and_result() {
        let Some(tables) = shared_tables() else {
            return;
        };
        let mut r = rng(0x2545_f491_4f6c_dd1d);
        for text in ["KQvK", "KRvK", "KBNvK", "KRPvKR", "KQvKR"] {
            let material: Material = text.parse().unwrap();
            for user in [Color::White, Color::Black] {
                for _ in 0..10 {
                    let pos = generate(&tables, &material, user, TbWdl::Win, &mut r).unwrap();
                    assert_eq!(pos.turn(), user);
                    assert_eq!(Material::of(&pos, user), material, "{}", pos.fen());
                    assert_eq!(tables.probe_wdl(&pos).unwrap(), TbWdl::Win, "{}", pos.fen());
                }
            }
        }
        let draw = generate(
            &tables,
            &"KRvKR".parse().unwrap(),
            Color::White,
            TbWdl::Draw,
            &mut r,
        )
        .unwrap();
        assert_eq!(tables.probe_wdl(&draw).unwrap(), TbWdl::Draw);
    }

    #[test]
    fn impossible_requests_are_errors() {
        let Some(tables) = shared_tables() else {
            return;
        };
        let mut r = rng(7);
        let kbk = "KBvK".parse().unwrap();
        assert!(matches!(
            generate(&tables, &kbk, Color::White, TbWdl::Win, &mut r),
            Err(TrainerError::NotFound { .. })
        ));
        let big = "KQRBvKR".parse().unwrap();
        assert!(matches!(
            generate(&tables, &big, Color::White, TbWdl::Win, &mut r),
            Err(TrainerError::NotCovered { pieces: 6, .. })
        ));
    }

    #[test]
    fn grades_against_the_best_move() {
        let Some(tables) = shared_tables() else {
            return;
        };
        // White Kc6 and Rh7 against Ka8.
        let pos = Position::from_fen("k7/7R/2K5/8/8/8/8/8 w - - 0 1").unwrap();
        let ranking = tables.rank_root(&pos, true).unwrap();
        let best = ranking.moves[0];
        assert_eq!(grade(&ranking, best.mv), Some(Grade::Best));
        // Some winning move is slower than the best one.
        let slow = ranking
            .moves
            .iter()
            .find(|m| m.wdl == TbWdl::Win && m.dtz > best.dtz)
            .unwrap();
        assert_eq!(
            grade(&ranking, slow.mv),
            Some(Grade::Slower {
                result: TbWdl::Win,
                plies: (slow.dtz - best.dtz) as u32
            })
        );
        // Giving the rook away next to the king draws.
        let hang = pos.parse_uci("h7a7").unwrap();
        assert_eq!(grade(&ranking, hang).map(|g| g.glyph()), Some("?"));
        let g = grade(&ranking, hang).unwrap();
        assert_eq!(
            g,
            Grade::Dropped {
                from: TbWdl::Win,
                to: TbWdl::Draw
            }
        );
        assert_eq!(g.to_string(), "win thrown to a draw");
    }

    /// The user playing the tables' best moves against the defender mates inside the fifty-move
    /// rule with every move graded best.
    #[test]
    fn perfect_play_converts_against_the_defender() {
        let Some(tables) = shared_tables() else {
            return;
        };
        let mut r = rng(99);
        for text in ["KRvK", "KBNvK"] {
            let material: Material = text.parse().unwrap();
            let mut pos = generate(&tables, &material, Color::White, TbWdl::Win, &mut r).unwrap();
            let mut grades = Vec::new();
            let mut history = Vec::new();
            let outcome = loop {
                if let Some(o) = pos.outcome(&history) {
                    break o;
                }
                let mv = if pos.turn() == Color::White {
                    let ranking = tables.rank_root(&pos, true).unwrap();
                    let mv = ranking.moves[0].mv;
                    grades.push(grade(&ranking, mv).unwrap());
                    mv
                } else {
                    defender_move(&tables, &pos).unwrap().unwrap()
                };
                history.push(pos.hash());
                pos = pos.play(mv).unwrap();
            };
            let summary = Summary::new(Color::White, &grades, Some(outcome));
            assert!(summary.converted(), "{text}: {summary}");
            assert_eq!(summary.best, summary.moves);
            assert!(
                summary
                    .to_string()
                    .contains("converted within the fifty-move rule")
            );
        }
    }
}
