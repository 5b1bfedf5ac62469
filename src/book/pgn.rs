//! Streaming mainlines out of PGN for the book builder: a small pgn-reader visitor that resolves
//! SAN with our chess module, skips variations and stops reading a game after the plies it needs.

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};

use crate::chess::{Move, Position};

/// A game's result as its `Result` tag states it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl GameResult {
    fn from_tag(value: &[u8]) -> GameResult {
        match value {
            b"1-0" => GameResult::WhiteWins,
            b"0-1" => GameResult::BlackWins,
            b"1/2-1/2" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }
}

/// The first plies of a game's mainline.
#[derive(Clone, Debug)]
pub struct MainlineGame {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

#[derive(Default)]
struct Tags {
    fen: Option<String>,
    variant: Option<String>,
    result: Option<GameResult>,
}

struct Movetext {
    pos: Position,
    game: MainlineGame,
}

struct MainlineVisitor {
    max_plies: usize,
}

type GameOutcome = Result<MainlineGame, String>;

impl Visitor for MainlineVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = GameOutcome;

    fn begin_tags(&mut self) -> ControlFlow<GameOutcome, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<GameOutcome> {
        let text = || String::from_utf8_lossy(value.as_bytes()).into_owned();
        match name {
            b"FEN" => tags.fen = Some(text()),
            b"Variant" => tags.variant = Some(text()),
            b"Result" => tags.result = Some(GameResult::from_tag(value.as_bytes())),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<GameOutcome, Movetext> {
        if let Some(variant) = &tags.variant {
            let v = variant.to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "standard"
                    | "chess"
                    | "chess960"
                    | "fischerandom"
                    | "fischerrandom"
                    | "from position"
            ) {
                return ControlFlow::Break(Err(format!("variant {variant:?} is not chess")));
            }
        }
        let start = match &tags.fen {
            Some(fen) => match Position::from_fen(fen) {
                Ok(pos) => pos,
                Err(e) => return ControlFlow::Break(Err(format!("FEN tag {fen:?}: {e}"))),
            },
            None => Position::startpos(),
        };
        ControlFlow::Continue(Movetext {
            pos: start.clone(),
            game: MainlineGame {
                start,
                moves: Vec::new(),
                result: tags.result.unwrap_or(GameResult::Unknown),
            },
        })
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<GameOutcome> {
        if mt.game.moves.len() >= self.max_plies {
            return ControlFlow::Break(Ok(mt.game.clone()));
        }
        let san = san_plus.san.to_string();
        // Some PGN writers put UCI moves in the movetext; python-chess accepts them too.
        let parsed = mt
            .pos
            .parse_san(&san)
            .or_else(|e| mt.pos.parse_uci(&san).map_err(|_| e));
        match parsed {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                mt.game.moves.push(m);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!(
                "ply {}: {e} (position {})",
                mt.game.moves.len() + 1,
                mt.pos.fen()
            ))),
        }
    }

    fn begin_variation(&mut self, _: &mut Movetext) -> ControlFlow<GameOutcome, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, mt: Movetext) -> GameOutcome {
        Ok(mt.game)
    }
}

/// Reads every game of `input`, handing `each` the first `max_plies` plies of its mainline, or
/// the reason the game was skipped (illegal move, bad FEN, another variant). Games are numbered
/// from 1. Stops early if `each` returns `ControlFlow::Break`.
pub fn read_mainlines(
    input: impl Read,
    max_plies: usize,
    mut each: impl FnMut(usize, Result<MainlineGame, String>) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut reader = Reader::new(input);
    let mut visitor = MainlineVisitor { max_plies };
    let mut number = 0;
    while let Some(game) = reader.read_game(&mut visitor)? {
        number += 1;
        if each(number, game).is_break() {
            break;
        }
    }
    Ok(())
}
