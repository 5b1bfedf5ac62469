//! Reading games: the splitter frames each game, our tag scanner reads the headers, pgn-reader
//! tokenises the movetext, and every move is resolved and checked against our chess module.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::Path;

use pgn_reader::{RawComment, Reader, SanPlus, Skip, Visitor};

use crate::chess::{
    CastlingSide, FenError, File as BoardFile, Move, Rank, Role, San, SanError, Square,
};

use super::annotation::{Comment, Nag};
use super::headers::Headers;
use super::record::{Game, GameResult, Variant, start_position};
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
        tags.push((
            encoding.decode(name).into_owned(),
            encoding.decode(&value).into_owned(),
        ))
    }) {
        errors.push(error(bad.line, GameErrorKind::MalformedTag(bad.text)));
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
    let mut reader = Reader::build(movetext)
        .set_supported_comment_length(4096)
        .finish();
    let mut io_error = None;
    while !builder.fatal {
        match reader.read_game(&mut builder) {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(e) => {
                io_error = Some(e);
                break;
            }
        }
    }
    builder.flush_partial();
    let line_of = |offset: usize| raw.movetext_line + count_lines(&movetext[..offset]);
    for (kind, san_number) in std::mem::take(&mut builder.failures) {
        let at = match kind {
            GameErrorKind::UnmatchedParen => unmatched_paren(movetext),
            _ => locate_san(movetext, san_number),
        };
        errors.push(error(at.map_or(raw.movetext_line, line_of), kind));
    }
    if let Some(e) = io_error.filter(|_| !builder.fatal) {
        let kind = match unclosed_comment(movetext) {
            Some(at) => {
                let text = encoding.decode(&movetext[at + 1..]);
                let mut text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some((cut, _)) = text.char_indices().nth(40) {
                    text.truncate(cut);
                    text.push_str("...");
                }
                errors.push(error(line_of(at), GameErrorKind::UnclosedComment(text)));
                None
            }
            None => Some(GameErrorKind::Syntax(e.to_string())),
        };
        if let Some(kind) = kind {
            errors.push(error(raw.movetext_line, kind));
        }
    } else if !builder.fatal && !builder.stack.is_empty() {
        let line = raw.movetext_line + count_lines(movetext.trim_ascii_end());
        errors.push(error(line, GameErrorKind::UnclosedVariation));
    }
    parsed(builder.tree, builder.result, errors)
}

fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Builds the tree while pgn-reader walks the movetext.
struct Builder {
    tree: Tree,
    encoding: Encoding,
    current: NodeId,
    /// Where to return after each open variation.
    stack: Vec<NodeId>,
    /// No move yet in the current line (game start or just after `(`).
    fresh: bool,
    pending_before: Option<Comment>,
    partial: Vec<u8>,
    result: Option<GameResult>,
    /// SAN tokens seen, to find the line of a failing one.
    sans: usize,
    /// Problems with the number of the SAN token where each arose.
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
            partial: Vec::new(),
            result: None,
            sans: 0,
            failures: Vec::new(),
            fatal: false,
            skip_until: None,
        }
    }

    fn fail(&mut self, kind: GameErrorKind) -> ControlFlow<()> {
        self.failures.push((kind, self.sans));
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

    fn flush_partial(&mut self) {
        if self.skipping() {
            self.partial.clear();
        } else if !self.partial.is_empty() {
            let text = std::mem::take(&mut self.partial);
            let comment = Comment::parse(&self.encoding.decode(&text));
            self.add_comment(comment);
        }
    }

    fn play(&mut self, san_plus: SanPlus) -> ControlFlow<()> {
        self.sans += 1;
        if self.skipping() {
            return ControlFlow::Continue(());
        }
        let pos = self.tree.position(self.current);
        let mv = match convert_san(san_plus.san) {
            Ok(San::Null) if pos.in_check() => {
                let number = self.move_number();
                return self.fail(GameErrorKind::NullInCheck { number });
            }
            Ok(San::Null) => GameMove::Null,
            Ok(san) => match resolve(pos, &san) {
                Ok(m) => GameMove::Move(m),
                Err(error) => {
                    let number = self.move_number();
                    return self.fail(GameErrorKind::Move { number, error });
                }
            },
            Err(text) => {
                let number = self.move_number();
                return self.fail(GameErrorKind::Drop { number, text });
            }
        };
        let mut next = pos.clone();
        match mv {
            GameMove::Move(m) => next.play_unchecked(m),
            GameMove::Null => next.play_null(),
        }
        self.current = self.tree.push_child(self.current, mv, next);
        self.fresh = false;
        if let Some(before) = self.pending_before.take() {
            self.tree.node_mut(self.current).comment_before = Some(before);
        }
        ControlFlow::Continue(())
    }
}

/// Resolves SAN; a pawn "move" with both origin coordinates is read as long algebraic or UCI
/// (`g1f3`, `g1xd1`), which some programs write into PGN.
fn resolve(pos: &crate::chess::Position, san: &San) -> Result<Move, SanError> {
    san.to_move(pos).or_else(|err| match *san {
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

/// pgn-reader's SAN in our own vocabulary; a drop (`N@f3`) comes back as its text.
fn convert_san(san: pgn_reader::shakmaty::san::San) -> Result<San, String> {
    use pgn_reader::shakmaty::san::San as S;
    let role = |r: pgn_reader::shakmaty::Role| Role::from_char(r.char()).unwrap_or(Role::Pawn);
    let square = |s: pgn_reader::shakmaty::Square| Square::new(s.to_u32());
    Ok(match san {
        S::Normal {
            role: r,
            file,
            rank,
            capture,
            to,
            promotion,
        } => San::Normal {
            role: role(r),
            file: file.map(|f| BoardFile::new(f.to_u32())),
            rank: rank.map(|r| Rank::new(r.to_u32())),
            capture,
            to: square(to),
            promotion: promotion.map(role),
        },
        S::Castle(pgn_reader::shakmaty::CastlingSide::KingSide) => San::Castle(CastlingSide::King),
        S::Castle(pgn_reader::shakmaty::CastlingSide::QueenSide) => {
            San::Castle(CastlingSide::Queen)
        }
        S::Null => San::Null,
        put @ S::Put { .. } => return Err(put.to_string()),
    })
}

impl Visitor for Builder {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        self.flush_partial();
        self.play(san_plus)
    }

    fn nag(&mut self, _: &mut (), nag: pgn_reader::Nag) -> ControlFlow<()> {
        self.flush_partial();
        if !self.skipping() {
            self.tree.node_mut(self.current).nags.push(Nag(nag.0));
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        self.partial.extend_from_slice(comment.as_bytes());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        self.partial.extend_from_slice(comment.as_bytes());
        self.flush_partial();
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        self.flush_partial();
        self.stack.push(self.current);
        if self.skipping() {
            return ControlFlow::Continue(Skip(false));
        }
        // The variation is an alternative to the last move: it starts from that move's parent.
        if let Some(parent) = self.tree.node(self.current).parent() {
            self.current = parent;
        }
        self.fresh = true;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<()> {
        self.flush_partial();
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
                self.failures.push((GameErrorKind::UnmatchedParen, 0));
                self.fatal = true;
                ControlFlow::Break(())
            }
        }
    }

    fn outcome(&mut self, _: &mut (), outcome: pgn_reader::Outcome) -> ControlFlow<()> {
        self.flush_partial();
        if self.stack.is_empty() {
            self.result = Some(match outcome {
                pgn_reader::Outcome::Known(pgn_reader::KnownOutcome::Decisive { winner }) => {
                    GameResult::winner(if winner == pgn_reader::shakmaty::Color::White {
                        crate::chess::Color::White
                    } else {
                        crate::chess::Color::Black
                    })
                }
                pgn_reader::Outcome::Known(pgn_reader::KnownOutcome::Draw) => GameResult::Draw,
                pgn_reader::Outcome::Unknown => GameResult::Unknown,
            });
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

/// Byte offset of the `n`-th (1-based) SAN token of the movetext, found the way pgn-reader
/// tokenises (comments, `;` lines, `%` lines, move numbers, NAGs and results skipped).
fn locate_san(movetext: &[u8], n: usize) -> Option<usize> {
    let mut seen = 0;
    let mut i = 0;
    let at_line_start = |i: usize| i == 0 || movetext[i - 1] == b'\n';
    while i < movetext.len() {
        let c = movetext[i];
        match c {
            b'{' => i += memchr::memchr(b'}', &movetext[i..]).map_or(movetext.len(), |j| j + 1),
            b';' => i += memchr::memchr(b'\n', &movetext[i..]).unwrap_or(movetext.len() - i),
            b'%' if at_line_start(i) => {
                i += memchr::memchr(b'\n', &movetext[i..]).unwrap_or(movetext.len() - i)
            }
            _ if c.is_ascii_whitespace()
                || matches!(c, b'(' | b')' | b'.' | b'$' | b'!' | b'?') =>
            {
                if c == b'$' {
                    i += 1;
                    while i < movetext.len() && movetext[i].is_ascii_digit() {
                        i += 1;
                    }
                } else {
                    i += 1;
                }
            }
            _ => {
                let len = movetext[i..]
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b"(){}.;$!?".contains(&b))
                    .unwrap_or(movetext.len() - i);
                let token = &movetext[i..i + len];
                let is_number = token.iter().all(u8::is_ascii_digit);
                let is_result = matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
                if !is_number && !is_result && SanPlus::from_ascii(token).is_ok() {
                    seen += 1;
                    if seen == n {
                        return Some(i);
                    }
                }
                i += len.max(1);
            }
        }
    }
    None
}

/// Offset of the first `)` that closes no variation.
fn unmatched_paren(movetext: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < movetext.len() {
        match movetext[i] {
            b'{' => {
                i += memchr::memchr(b'}', &movetext[i..]).unwrap_or(movetext.len() - i);
            }
            b';' => {
                i += memchr::memchr(b'\n', &movetext[i..]).unwrap_or(movetext.len() - i);
            }
            b'(' => depth += 1,
            b')' if depth == 0 => return Some(i),
            b')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Offset of a `{` that has no `}` after it.
fn unclosed_comment(movetext: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(open) = memchr::memchr(b'{', &movetext[i..]) {
        let open = i + open;
        match memchr::memchr(b'}', &movetext[open..]) {
            Some(close) => i = open + close + 1,
            None => return Some(open),
        }
    }
    None
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
