//! Reading games: the splitter frames each game, our tag scanner reads the headers, our
//! tokeniser reads the movetext, and every move is resolved and checked against our chess
//! module. No token is skipped: what is not PGN is an error at its line.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::Path;

use crate::chess::{FenError, Move, Role, San, SanError, Square};

use super::annotation::{Comment, Nag};
use super::headers::Headers;
use super::movetext::{Token, Tokens};
use super::record::{Game, GameResult, Variant, start_position};
use super::resolve::resolve_san;
use super::split::{RawGame, Splitter};
use super::tags::{Encoding, scan_tags};
use super::tree::{GameMove, NodeId, Tree};

/// What went wrong in one game, and where.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("game {game}, line {line}: {kind}")]
pub struct GameError {
    pub game: u64,
    pub line: u64,
    pub kind: GameErrorKind,
}

#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameErrorKind {
    /// An illegal, ambiguous or unreadable move; `number` is like `12.` or `12...`.
    #[error("{number} {error}")]
    Move { number: String, error: SanError },
    #[error("{number} null move while in check")]
    NullInCheck { number: String },
    #[error("{number} piece drop {text} (a crazyhouse move)")]
    Drop { number: String, text: String },
    #[error("malformed tag: {0}")]
    MalformedTag(String),
    #[error("FEN tag '{fen}': {error}")]
    Fen { fen: String, error: FenError },
    #[error("unsupported variant '{0}'")]
    UnsupportedVariant(String),
    #[error("comment not closed: {{{0}")]
    UnclosedComment(String),
    #[error("variation not closed")]
    UnclosedVariation,
    #[error("')' without a matching '('")]
    UnmatchedParen,
    #[error("invalid character 0x{0:02x}")]
    InvalidCharacter(u8),
    #[error("{0}")]
    Syntax(String),
}

/// A game as read, with every problem found in it. After a move error the tree holds the
/// moves before it.
#[derive(Clone, Debug)]
pub struct ParsedGame {
    pub game: Game,
    pub number: u64,
    pub offset: u64,
    pub line: u64,
    pub errors: Vec<GameError>,
}

impl ParsedGame {
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Parses one framed game.
pub fn parse_game(raw: &RawGame<'_>) -> ParsedGame {
    let encoding = Encoding::detect(raw.bytes);
    let error = |line, kind| GameError {
        game: raw.number,
        line,
        kind,
    };
    let mut errors = Vec::new();
    let mut tags = Vec::new();
    for bad in scan_tags(raw.tag_section(), raw.line, encoding, |name, value| {
        // Control characters cannot be written back inside a tag; they are read as spaces.
        let value = encoding.decode(&value).replace(char::is_control, " ");
        tags.push((encoding.decode(name).into_owned(), value))
    }) {
        errors.push(error(
            bad.line,
            GameErrorKind::MalformedTag(printable(&bad.text)),
        ));
    }
    let headers = Headers::from_tags(tags);
    let tag_result = headers.get("Result").and_then(|r| r.parse().ok());
    let parsed = |tree, result: Option<GameResult>, errors| ParsedGame {
        game: Game {
            headers: headers.clone(),
            tree,
            result: result.or(tag_result).unwrap_or_default(),
        },
        number: raw.number,
        offset: raw.offset,
        line: raw.line,
        errors,
    };

    let start = Variant::from_tag(headers.get("Variant"))
        .map_err(|name| error(raw.line, GameErrorKind::UnsupportedVariant(name)))
        .and_then(|variant| {
            let fen = headers.get("FEN");
            start_position(fen, variant).map_err(|e| {
                error(
                    raw.line,
                    GameErrorKind::Fen {
                        fen: fen.unwrap_or_default().to_owned(),
                        error: e,
                    },
                )
            })
        });
    let start = match start {
        Ok(start) => start,
        Err(e) => {
            errors.push(e);
            return parsed(Tree::new(crate::chess::Position::startpos()), None, errors);
        }
    };

    let mut builder = Builder::new(Tree::new(start), encoding);
    let movetext = raw.movetext_bytes();
    builder.read(movetext);
    let line_of = |offset: usize| raw.movetext_line + count_lines(&movetext[..offset]);
    for (kind, at) in std::mem::take(&mut builder.failures) {
        errors.push(error(line_of(at), kind));
    }
    if !builder.fatal && !builder.stack.is_empty() {
        let line = raw.movetext_line + count_lines(movetext.trim_ascii_end());
        errors.push(error(line, GameErrorKind::UnclosedVariation));
    }
    parsed(builder.tree, builder.result, errors)
}

/// `text` with its control characters escaped (`\u{0}`), for a message.
fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped = c.is_control().then(|| c.escape_default());
            escaped
                .into_iter()
                .flatten()
                .chain((!c.is_control()).then_some(c))
        })
        .collect()
}

/// The start of a text, on one line, for an error message.
fn snippet(text: &str) -> String {
    let mut text = printable(&text.split_whitespace().collect::<Vec<_>>().join(" "));
    if let Some((cut, _)) = text.char_indices().nth(40) {
        text.truncate(cut);
        text.push_str("...");
    }
    text
}

fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Builds the tree from the movetext's tokens.
struct Builder {
    tree: Tree,
    encoding: Encoding,
    current: NodeId,
    /// Where to return after each open variation.
    stack: Vec<NodeId>,
    /// No move yet in the current line (game start or just after `(`).
    fresh: bool,
    pending_before: Option<Comment>,
    result: Option<GameResult>,
    /// Problems with the movetext offset where each arose.
    failures: Vec<(GameErrorKind, usize)>,
    /// An error outside any variation ends the game.
    fatal: bool,
    /// After an error inside a variation, the rest of it is skipped: until the variation
    /// stack is shorter than this.
    skip_until: Option<usize>,
}

impl Builder {
    fn new(tree: Tree, encoding: Encoding) -> Builder {
        Builder {
            tree,
            encoding,
            current: NodeId::ROOT,
            stack: Vec::new(),
            fresh: true,
            pending_before: None,
            result: None,
            failures: Vec::new(),
            fatal: false,
            skip_until: None,
        }
    }

    /// Reads the movetext up to its result, or to an error outside any variation.
    fn read(&mut self, movetext: &[u8]) {
        for (at, token) in Tokens::new(movetext) {
            let flow = match token {
                Token::Move(word) => self.play(word, at),
                Token::Nag(digits) => self.nag(digits, at),
                Token::Glyph(glyph) => self.glyph(glyph, at),
                Token::Comment(text) => {
                    self.comment(text);
                    ControlFlow::Continue(())
                }
                Token::UnclosedComment(text) => {
                    let text = snippet(&self.encoding.decode(text));
                    self.failures
                        .push((GameErrorKind::UnclosedComment(text), at));
                    self.fatal = true;
                    ControlFlow::Break(())
                }
                Token::Open => self.begin_variation(at),
                Token::Close => self.end_variation(at),
                Token::Result(result) if self.stack.is_empty() => {
                    self.result = Some(result);
                    ControlFlow::Break(())
                }
                Token::Result(_) => ControlFlow::Continue(()),
                Token::Invalid(byte) => self.fail(GameErrorKind::InvalidCharacter(byte), at),
            };
            if flow.is_break() {
                break;
            }
        }
        if let Some(leftover) = self.pending_before.take() {
            self.add_comment(leftover);
        }
    }

    fn fail(&mut self, kind: GameErrorKind, at: usize) -> ControlFlow<()> {
        if self.skipping() {
            return ControlFlow::Continue(());
        }
        self.failures.push((kind, at));
        if self.stack.is_empty() {
            self.fatal = true;
            ControlFlow::Break(())
        } else {
            self.skip_until = Some(self.stack.len());
            self.pending_before = None;
            ControlFlow::Continue(())
        }
    }

    fn skipping(&self) -> bool {
        self.skip_until.is_some()
    }

    fn move_number(&self) -> String {
        let pos = self.tree.position(self.current);
        let dots = pos.turn().fold(".", "...");
        format!("{}{dots}", pos.fullmoves())
    }

    fn add_comment(&mut self, comment: Comment) {
        if comment.is_empty() {
            return;
        }
        // Before the first move of a variation the comment belongs to that move; before the
        // first move of the game it is the game comment, kept on the root.
        let slot = if self.fresh && !self.stack.is_empty() {
            &mut self.pending_before
        } else {
            &mut self.tree.node_mut(self.current).comment_after
        };
        match slot {
            Some(existing) => existing.merge(comment),
            None => *slot = Some(comment),
        }
    }

    /// A `{}` or `;` comment; control characters in it become spaces, so none is ever
    /// written back, and a `}` (in a `;` comment) becomes `)`, as the writer would write it.
    fn comment(&mut self, text: &[u8]) {
        if self.skipping() {
            return;
        }
        let text: String = self
            .encoding
            .decode(text)
            .chars()
            .map(|c| match c {
                '}' => ')',
                c if c.is_control() && c != '\n' => ' ',
                c => c,
            })
            .collect();
        self.add_comment(Comment::parse(&text));
    }

    fn nag(&mut self, digits: &[u8], at: usize) -> ControlFlow<()> {
        let value = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<u32>().ok());
        match value.and_then(|v| u8::try_from(v).ok()) {
            Some(nag) => {
                self.add_nag(Nag(nag));
                ControlFlow::Continue(())
            }
            None => {
                let text = String::from_utf8_lossy(digits);
                let why = if digits.is_empty() {
                    "'$' without a number".to_owned()
                } else {
                    format!("NAG ${text} is out of range ($0 to $255)")
                };
                self.fail(GameErrorKind::Syntax(why), at)
            }
        }
    }

    fn glyph(&mut self, glyph: &[u8], at: usize) -> ControlFlow<()> {
        match glyph_nag(glyph) {
            Some(nag) => {
                self.add_nag(nag);
                ControlFlow::Continue(())
            }
            None => {
                let text = String::from_utf8_lossy(glyph);
                self.fail(
                    GameErrorKind::Syntax(format!("unknown annotation '{text}'")),
                    at,
                )
            }
        }
    }

    fn add_nag(&mut self, nag: Nag) {
        if !self.skipping() {
            self.tree.node_mut(self.current).nags.push(nag);
        }
    }

    /// A move token: SAN as the import format allows it, long algebraic, or a null move; a
    /// glyph glued to it (`e4!?`) annotates it.
    fn play(&mut self, word: &[u8], at: usize) -> ControlFlow<()> {
        if self.skipping() {
            return ControlFlow::Continue(());
        }
        // Words hold printable ASCII only (the tokeniser sees to it).
        let word = std::str::from_utf8(word).unwrap_or_default();
        let bare = word.trim_end_matches(['!', '?']);
        let glyph = &word[bare.len()..];
        let pos = self.tree.position(self.current);
        if bare.contains('@') {
            let number = self.move_number();
            let text = bare.to_owned();
            return self.fail(GameErrorKind::Drop { number, text }, at);
        }
        let san = lenient_san(bare)
            .parse::<San>()
            .map_err(|_| SanError::Syntax(word.to_owned()));
        let mv = match san {
            Ok(San::Null) if pos.in_check() => {
                let number = self.move_number();
                return self.fail(GameErrorKind::NullInCheck { number }, at);
            }
            Ok(San::Null) => GameMove::Null,
            Ok(san) => match resolve(pos, &san) {
                Ok(m) => GameMove::Move(m),
                Err(error) => {
                    let number = self.move_number();
                    return self.fail(GameErrorKind::Move { number, error }, at);
                }
            },
            Err(error) => {
                let number = self.move_number();
                return self.fail(GameErrorKind::Move { number, error }, at);
            }
        };
        self.current = self.tree.push_legal(self.current, mv);
        self.fresh = false;
        if let Some(before) = self.pending_before.take() {
            self.tree.node_mut(self.current).comment_before = Some(before);
        }
        if glyph.is_empty() {
            ControlFlow::Continue(())
        } else {
            self.glyph(glyph.as_bytes(), at + bare.len())
        }
    }

    fn begin_variation(&mut self, at: usize) -> ControlFlow<()> {
        if self.skipping() {
            self.stack.push(self.current);
            return ControlFlow::Continue(());
        }
        // The variation is an alternative to the last move: it starts from that move's parent.
        let Some(parent) = self.tree.node(self.current).parent() else {
            let why = "'(' with no move before it to be an alternative to".to_owned();
            let flow = self.fail(GameErrorKind::Syntax(why), at);
            // Still open: the ')' that closes it must close it, not the variation around it.
            self.stack.push(self.current);
            return flow;
        };
        self.stack.push(self.current);
        self.current = parent;
        self.fresh = true;
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self, at: usize) -> ControlFlow<()> {
        if let Some(leftover) = self.pending_before.take() {
            // A comment with no move after it in the variation: keep it on the branch point.
            self.fresh = false;
            self.add_comment(leftover);
        }
        match self.stack.pop() {
            Some(back) => {
                self.current = back;
                self.fresh = false;
                if self
                    .skip_until
                    .is_some_and(|depth| self.stack.len() < depth)
                {
                    self.skip_until = None;
                }
                ControlFlow::Continue(())
            }
            None => {
                self.failures.push((GameErrorKind::UnmatchedParen, at));
                self.fatal = true;
                ControlFlow::Break(())
            }
        }
    }
}

/// The NAG of a move-assessment glyph.
fn glyph_nag(glyph: &[u8]) -> Option<Nag> {
    Some(Nag(match glyph {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    }))
}

/// Long algebraic as some programs write it (`e2-e4`, `Ng1-f3`, `e7xd8q`, `d7d8R`) in the
/// form the SAN reader takes (`e2e4`, `Ng1f3`, `e7xd8=Q`); other text as it is.
fn lenient_san(word: &str) -> Cow<'_, str> {
    let b = word.trim_end_matches(['+', '#']).as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    let piece = usize::from(b.first().is_some_and(|c| b"NBRQK".contains(c)));
    if !square(piece) {
        return Cow::Borrowed(word);
    }
    let separator = b.get(piece + 2).copied().filter(|c| b"-x:".contains(c));
    let to = piece + 2 + usize::from(separator.is_some());
    if !square(to) {
        return Cow::Borrowed(word);
    }
    let promotion = match &b[to + 2..] {
        [] => String::new(),
        [p] | [b'=', p] if b"nbrqNBRQ".contains(p) => {
            format!("={}", p.to_ascii_uppercase() as char)
        }
        _ => return Cow::Borrowed(word),
    };
    let capture = if separator.is_some_and(|c| c != b'-') {
        "x"
    } else {
        ""
    };
    Cow::Owned(format!(
        "{}{capture}{}{promotion}",
        &word[..piece + 2],
        &word[to..to + 2]
    ))
}

/// Resolves SAN; a pawn "move" with both origin coordinates is read as long algebraic or UCI
/// (`g1f3`, `g1xd1`), which some programs write into PGN.
fn resolve(pos: &crate::chess::Position, san: &San) -> Result<Move, SanError> {
    resolve_san(pos, san).or_else(|err| match *san {
        San::Normal {
            role: Role::Pawn,
            file: Some(file),
            rank: Some(rank),
            capture,
            to,
            promotion,
        } => {
            let from = Square::from_coords(file, rank);
            let uci = match promotion {
                Some(role) => format!("{from}{to}{}", role.char()),
                None => format!("{from}{to}"),
            };
            match pos.parse_uci(&uci) {
                Ok(m) if m.is_capture() || !capture => Ok(m),
                _ => Err(err),
            }
        }
        _ => Err(err),
    })
}

/// Reads every game of a PGN stream in one pass; memory is bounded by the largest game.
pub struct PgnReader<R> {
    splitter: Splitter<R>,
}

impl<R: Read> PgnReader<R> {
    pub fn new(reader: R) -> PgnReader<R> {
        PgnReader {
            splitter: Splitter::new(reader),
        }
    }

    /// Calls `f` with each framed game without parsing it (for callers that only need the
    /// raw text, or parse in parallel).
    pub fn for_each_raw(
        &mut self,
        mut f: impl FnMut(&RawGame<'_>) -> ControlFlow<()>,
    ) -> io::Result<()> {
        while let Some(raw) = self.splitter.next_game()? {
            if f(&raw).is_break() {
                break;
            }
        }
        Ok(())
    }
}

impl PgnReader<File> {
    pub fn open(path: &Path) -> io::Result<PgnReader<File>> {
        Ok(PgnReader::new(File::open(path)?))
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        match self.splitter.next_game() {
            Ok(Some(raw)) => Some(Ok(parse_game(&raw))),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// Parses all games of a string (tests, small inputs).
pub fn parse_all(text: &str) -> Vec<ParsedGame> {
    PgnReader::new(text.as_bytes())
        .collect::<io::Result<Vec<_>>>()
        .unwrap_or_default()
}
