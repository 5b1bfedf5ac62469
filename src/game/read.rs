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
    /// Moves or other text after the game's result, which would otherwise be lost.
    #[error("text after the result {result}: {text}")]
    TextAfterResult { result: String, text: String },
    #[error("tag {name} repeated: \"{ignored}\" ignored, \"{kept}\" kept")]
    RepeatedTag {
        name: String,
        kept: String,
        ignored: String,
    },
    #[error("Result tag \"{tag}\" but the movetext ends with {movetext}")]
    ResultDisagrees { tag: String, movetext: String },
    #[error("no Result tag; the movetext's {0} is used")]
    MissingResultTag(String),
    #[error("a tag section with no movetext (no moves and no result)")]
    NoMovetext,
    #[error("the movetext does not end with a result (1-0, 0-1, 1/2-1/2 or *)")]
    NoResult,
}

/// A game as read, with every problem found in it. After a move error the tree holds the
/// moves before it. Warnings lose nothing (a repeated tag, a Result tag that disagrees with
/// the movetext, no movetext): the game reads whole, but the file says something odd.
#[derive(Clone, Debug)]
pub struct ParsedGame {
    pub game: Game,
    pub number: u64,
    pub offset: u64,
    pub line: u64,
    pub errors: Vec<GameError>,
    pub warnings: Vec<GameError>,
}

impl ParsedGame {
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Parses one framed game.
pub fn parse_game(raw: &RawGame<'_>) -> ParsedGame {
    read_game(raw, true)
}

/// Checks one framed game: the same errors and warnings as [`parse_game`], but comments and
/// NAGs are only checked, not kept (the tree has the moves alone), which is much faster on
/// files full of `[%clk]` and `[%eval]`.
pub fn check_game(raw: &RawGame<'_>) -> ParsedGame {
    read_game(raw, false)
}

fn read_game(raw: &RawGame<'_>, annotations: bool) -> ParsedGame {
    let encoding = Encoding::detect(raw.bytes);
    let error = |line, kind| GameError {
        game: raw.number,
        line,
        kind,
    };
    let mut errors = Vec::new();
    let mut tags = Vec::new();
    let mut tag_lines = Vec::new();
    for bad in scan_tags(
        raw.tag_section(),
        raw.line,
        encoding,
        |name, value, line| {
            // Control characters cannot be written back inside a tag; they are read as spaces.
            let value = encoding.decode(&value).replace(char::is_control, " ");
            tags.push((encoding.decode(name).into_owned(), value));
            tag_lines.push(line);
        },
    ) {
        errors.push(error(
            bad.line,
            GameErrorKind::MalformedTag(printable(&bad.text)),
        ));
    }
    let has_result_tag = tags.iter().any(|(name, _)| name == "Result");
    let (mut headers, repeated) = Headers::from_tags(tags);
    let mut warnings: Vec<GameError> = repeated
        .into_iter()
        .map(|(at, name, ignored)| {
            let kept = headers.get(&name).unwrap_or_default().to_owned();
            error(
                tag_lines[at],
                GameErrorKind::RepeatedTag {
                    name,
                    kept,
                    ignored,
                },
            )
        })
        .collect();
    let tag_result = headers.get("Result").and_then(|r| r.parse().ok());
    let parsed =
        |headers: Headers, tree, result: Option<GameResult>, errors, warnings| ParsedGame {
            game: Game {
                headers,
                tree,
                result: result.or(tag_result).unwrap_or_default(),
            },
            number: raw.number,
            offset: raw.offset,
            line: raw.line,
            errors,
            warnings,
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
            let tree = Tree::new(crate::chess::Position::startpos());
            return parsed(headers, tree, None, errors, warnings);
        }
    };

    let mut builder = Builder::new(Tree::new(start), encoding, annotations);
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
    match builder.result {
        Some((result, at)) => {
            let movetext_result = result.as_str().to_owned();
            if !has_result_tag && result == GameResult::Unknown {
                // The roster's placeholder says `*` already.
            } else if !has_result_tag {
                // The roster's placeholder would contradict the movetext: fill it in.
                headers.set("Result", &movetext_result);
                let kind = GameErrorKind::MissingResultTag(movetext_result);
                warnings.push(error(line_of(at), kind));
            } else if tag_result != Some(result) {
                let tag = headers.get("Result").unwrap_or_default().to_owned();
                let kind = GameErrorKind::ResultDisagrees {
                    tag,
                    movetext: movetext_result,
                };
                warnings.push(error(line_of(at), kind));
            }
        }
        None if builder.fatal => {}
        None if movetext.trim_ascii().is_empty() => {
            warnings.push(error(raw.line, GameErrorKind::NoMovetext));
        }
        None => {
            let line = raw.movetext_line + count_lines(movetext.trim_ascii_end());
            warnings.push(error(line, GameErrorKind::NoResult));
        }
    }
    let result = builder.result.map(|(result, _)| result);
    parsed(headers, builder.tree, result, errors, warnings)
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
    /// Keep comments and NAGs (false: only check them).
    annotations: bool,
    current: NodeId,
    /// Where to return after each open variation.
    stack: Vec<NodeId>,
    /// No move yet in the current line (game start or just after `(`).
    fresh: bool,
    pending_before: Option<Comment>,
    /// The game's result and its offset in the movetext.
    result: Option<(GameResult, usize)>,
    /// Problems with the movetext offset where each arose.
    failures: Vec<(GameErrorKind, usize)>,
    /// An error outside any variation ends the game.
    fatal: bool,
    /// After an error inside a variation, the rest of it is skipped: until the variation
    /// stack is shorter than this.
    skip_until: Option<usize>,
}

impl Builder {
    fn new(tree: Tree, encoding: Encoding, annotations: bool) -> Builder {
        Builder {
            tree,
            encoding,
            annotations,
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
                    self.result = Some((result, at));
                    self.after_result(result, movetext, at);
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

    /// What follows the result in the same game: comments are kept (after the last move), and
    /// anything else is an error, as it would be lost.
    fn after_result(&mut self, result: GameResult, movetext: &[u8], result_at: usize) {
        let rest = &movetext[result_at..];
        let mut tokens = Tokens::new(rest);
        tokens.next();
        for (at, token) in tokens {
            match token {
                Token::Comment(text) => self.comment(text),
                _ => {
                    // From the end of the result's word, move numbers included.
                    let after = rest
                        .iter()
                        .position(|b| b.is_ascii_whitespace() || b"{(;".contains(b))
                        .unwrap_or(rest.len());
                    let text = snippet(&self.encoding.decode(&rest[after..]));
                    let kind = GameErrorKind::TextAfterResult {
                        result: result.as_str().to_owned(),
                        text,
                    };
                    self.failures.push((kind, result_at + at));
                    return;
                }
            }
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
    /// written back. A `}` (only a `;` comment can hold one) is kept: the writer keeps it too.
    fn comment(&mut self, text: &[u8]) {
        if self.skipping() || !self.annotations {
            return;
        }
        let text: String = self
            .encoding
            .decode(text)
            .chars()
            .map(|c| match c {
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
        if !self.skipping() && self.annotations {
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
