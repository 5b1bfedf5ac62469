//! Framing: cuts a PGN byte stream into games in one pass with a bounded buffer, recording each
//! game's byte offset and first line. Only line starts, tag lines and comment braces are looked
//! at, so this runs at I/O speed and also drives the index.

use std::io::{self, Read};

/// Bytes read per refill, at most; the first reads are smaller, so a short text (a game from
/// the clipboard, a test) does not cost a megabyte of zeroed buffer.
const READ_CHUNK: usize = 1 << 20;
const FIRST_CHUNK: usize = 8 << 10;
/// A single game larger than this is refused rather than buffered.
const MAX_GAME_BYTES: usize = 256 << 20;

/// One game's text as it appears in the file.
#[derive(Clone, Copy, Debug)]
pub struct RawGame<'a> {
    /// 1-based position of the game in the file.
    pub number: u64,
    /// Byte offset of the game's first byte in the file.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    pub bytes: &'a [u8],
    /// Where the movetext starts in `bytes` (the tag section is `bytes[..movetext]`).
    pub movetext: usize,
    /// The line on which the movetext starts.
    pub movetext_line: u64,
}

impl RawGame<'_> {
    pub fn tag_section(&self) -> &[u8] {
        &self.bytes[..self.movetext]
    }

    pub fn movetext_bytes(&self) -> &[u8] {
        &self.bytes[self.movetext..]
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Tags,
    Movetext {
        in_comment: bool,
        after_result: bool,
    },
}

/// Splits a reader into games. Not an `Iterator` because each game borrows the buffer.
pub struct Splitter<R> {
    reader: R,
    buf: Vec<u8>,
    /// Start of unconsumed data in `buf`.
    start: usize,
    end: usize,
    eof: bool,
    /// File offset of `buf[0]`.
    base: u64,
    /// Line number at `buf[start]`.
    line: u64,
    number: u64,
    bom_checked: bool,
    /// `buf[..cr_checked]` has had its lone carriage returns turned into line feeds.
    cr_checked: usize,
}

impl<R: Read> Splitter<R> {
    pub fn new(reader: R) -> Splitter<R> {
        Splitter {
            reader,
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            number: 0,
            bom_checked: false,
            cr_checked: 0,
        }
    }

    /// Starts numbering as if `offset`, `line` and `number - 1` games preceded (for reading one
    /// game found through an index).
    pub fn resume_at(reader: R, offset: u64, line: u64, number: u64) -> Splitter<R> {
        let mut s = Splitter::new(reader);
        s.base = offset;
        s.line = line;
        s.number = number.saturating_sub(1);
        s.bom_checked = true;
        s
    }

    /// Reads more bytes, moving the unconsumed part to the front. Returns how far indices
    /// into the buffer moved back, or `None` at end of input.
    fn refill(&mut self) -> io::Result<Option<usize>> {
        if self.eof {
            return Ok(None);
        }
        let shift = self.start;
        if shift > 0 {
            self.buf.copy_within(shift..self.end, 0);
            self.end -= shift;
            self.start = 0;
            self.base += shift as u64;
            self.cr_checked -= shift;
        }
        let chunk = self.buf.len().clamp(FIRST_CHUNK, READ_CHUNK);
        if self.buf.len() - self.end < chunk {
            if self.end > MAX_GAME_BYTES {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a game longer than {} MiB", MAX_GAME_BYTES >> 20),
                ));
            }
            self.buf.resize(self.end + chunk, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.end_lone_carriage_returns();
        Ok(Some(shift))
    }

    /// Old Mac files end their lines with a carriage return alone: each lone one becomes a
    /// line feed in the buffer (same length, so offsets hold), and every later step reads
    /// such a file like any other. A carriage return last in the buffer waits for the next
    /// byte, which may be its line feed.
    fn end_lone_carriage_returns(&mut self) {
        let limit = if self.eof {
            self.end
        } else {
            self.end.saturating_sub(1)
        };
        let mut from = self.cr_checked.min(limit);
        while let Some(i) = memchr::memchr(b'\r', &self.buf[from..limit]) {
            let i = from + i;
            if i + 1 >= self.end || self.buf[i + 1] != b'\n' {
                self.buf[i] = b'\n';
            }
            from = i + 1;
        }
        self.cr_checked = self.cr_checked.max(limit);
    }

    /// The next game, or `None` at the end of input.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame<'_>>> {
        while !self.bom_checked {
            if self.end - self.start >= 3 || self.refill()?.is_none() {
                self.bom_checked = true;
                if self.buf[self.start..self.end].starts_with(b"\xef\xbb\xbf") {
                    self.start += 3;
                }
            }
        }
        let mut pos = self.start;
        let mut line = self.line;
        let mut state = State::Tags;
        // Start of the game (first non-blank line), and of its movetext.
        let mut begin: Option<(usize, u64)> = None;
        let mut movetext: Option<(usize, u64)> = None;
        // A blank line after tags, then a tag this section already has: another game (this one
        // has no movetext), as in pairing lists. Other tags after the blank line still belong
        // here (ChessBase writes a blank line after the Event tag).
        let (mut seen_tag, mut tags_ended) = (false, false);
        let game_end: usize;
        loop {
            let eol = match memchr::memchr(b'\n', &self.buf[pos..self.end]) {
                Some(i) => pos + i,
                None if !self.eof => {
                    if let Some(shift) = self.refill()? {
                        pos -= shift;
                        begin = begin.map(|(b, l)| (b - shift, l));
                        movetext = movetext.map(|(m, l)| (m - shift, l));
                    }
                    continue;
                }
                None if pos < self.end => self.end,
                None => {
                    game_end = self.end;
                    break;
                }
            };
            let text = &self.buf[pos..eol];
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            // Files joined with `cat` carry a byte-order mark at the start of each: the game
            // begins after it.
            let (text, bom) = match text.strip_prefix(b"\xef\xbb\xbf") {
                Some(rest) => (rest, 3),
                None => (text, 0),
            };
            let blank = text.iter().all(|b| b.is_ascii_whitespace());
            match state {
                State::Tags => {
                    if tags_ended
                        && let Some((begin, _)) = begin
                        && tag_name(text).is_some_and(|name| has_tag(&self.buf[begin..pos], name))
                    {
                        game_end = pos;
                        break;
                    }
                    tags_ended |= blank && seen_tag;
                    seen_tag |= text.starts_with(b"[");
                    if !blank && begin.is_none() {
                        begin = Some((pos + bom, line));
                    }
                    if !blank && !text.starts_with(b"[") && !text.starts_with(b"%") {
                        movetext = Some((pos + bom, line));
                        state = movetext_line(text, false);
                    } else if let Some(at) =
                        movetext_after_tags(text).filter(|_| text.starts_with(b"["))
                    {
                        movetext = Some((pos + bom + at, line));
                        state = movetext_line(&text[at..], false);
                    }
                }
                State::Movetext {
                    in_comment,
                    after_result,
                } => {
                    let new_game = if in_comment {
                        text.starts_with(b"[Event \"")
                    } else {
                        text.starts_with(b"[")
                            || (after_result && !blank && !text.starts_with(b"%"))
                    };
                    if new_game {
                        game_end = pos;
                        break;
                    }
                    if !blank {
                        state = movetext_line(text, in_comment);
                    }
                }
            }
            line += 1;
            pos = (eol + 1).min(self.end);
        }
        let Some((begin, begin_line)) = begin else {
            self.start = game_end;
            self.line = line;
            return Ok(None);
        };
        let (movetext, movetext_line) = movetext.unwrap_or((game_end, line));
        self.start = game_end;
        self.line = line;
        self.number += 1;
        Ok(Some(RawGame {
            number: self.number,
            offset: self.base + begin as u64,
            line: begin_line,
            bytes: &self.buf[begin..game_end],
            movetext: movetext - begin,
            movetext_line,
        }))
    }
}

/// The name of the tag a line starts with (`[White "A"]`: `White`).
fn tag_name(line: &[u8]) -> Option<&[u8]> {
    let body = line.strip_prefix(b"[")?;
    let end = body
        .iter()
        .position(|b| b.is_ascii_whitespace() || matches!(b, b'"' | b']'))
        .unwrap_or(body.len());
    (end > 0).then(|| &body[..end])
}

/// Whether a tag section has a tag of this name (only asked after a blank line in tags).
fn has_tag(section: &[u8], name: &[u8]) -> bool {
    section.split(|&b| b == b'\n').any(|line| {
        let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
        tag_name(line.trim_ascii_start()) == Some(name)
    })
}

/// Where the movetext starts on a tag line that goes on after its tags
/// (`[Result "1-0"] 1. e4 *`: the import format is free-form); `None` for a line of tags only.
fn movetext_after_tags(text: &[u8]) -> Option<usize> {
    let mut i = 0;
    while text.get(i) == Some(&b'[') {
        // To the closing bracket, skipping quoted values (a broken tag has none).
        let mut quoted = false;
        let mut j = i + 1;
        loop {
            match *text.get(j)? {
                b'\\' if quoted => j += 1,
                b'"' => quoted = !quoted,
                b']' if !quoted => break,
                _ => {}
            }
            j += 1;
        }
        i = j + 1;
        while text.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
    }
    (i < text.len()).then_some(i)
}

/// Tracks comment braces through one movetext line and notes whether it ends with a result.
fn movetext_line(text: &[u8], mut in_comment: bool) -> State {
    if !in_comment && text.starts_with(b"%") {
        return State::Movetext {
            in_comment,
            after_result: false,
        };
    }
    let mut i = 0;
    while i < text.len() {
        if in_comment {
            match memchr::memchr(b'}', &text[i..]) {
                Some(j) => {
                    in_comment = false;
                    i += j + 1;
                }
                None => break,
            }
        } else {
            match memchr::memchr2(b'{', b';', &text[i..]) {
                Some(j) if text[i + j] == b'{' => {
                    in_comment = true;
                    i += j + 1;
                }
                Some(j) => {
                    // A `;` comment runs to the end of the line.
                    return State::Movetext {
                        in_comment: false,
                        after_result: ends_with_result(&text[..i + j]),
                    };
                }
                None => break,
            }
        }
    }
    State::Movetext {
        in_comment,
        after_result: !in_comment && ends_with_result(text),
    }
}

fn ends_with_result(text: &[u8]) -> bool {
    let text = text.trim_ascii_end();
    let token_start = text
        .iter()
        .rposition(|b| b.is_ascii_whitespace() || matches!(b, b')' | b'}'))
        .map_or(0, |i| i + 1);
    matches!(&text[token_start..], b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &[u8]) -> Vec<(u64, u64, String, String)> {
        let mut s = Splitter::new(text);
        let mut out = Vec::new();
        while let Some(g) = s.next_game().unwrap() {
            out.push((
                g.offset,
                g.line,
                String::from_utf8_lossy(g.tag_section()).into_owned(),
                String::from_utf8_lossy(g.movetext_bytes()).into_owned(),
            ));
        }
        out
    }

    #[test]
    fn splits_on_tags_and_tracks_lines() {
        let text = b"\xef\xbb\xbf[Event \"a\"]\r\n\r\n[Site \"b\"]\r\n\r\n1. e4 { [Event \n not a tag } e5 1-0\r\n\r\n\r\n[Event \"c\"]\n\n1. d4 *\n";
        let games = split(text);
        assert_eq!(games.len(), 2);
        // A blank line inside a tag section, and then no tag that the section already has:
        // still one game.
        assert_eq!((games[0].0, games[0].1), (3, 1));
        assert!(games[0].3.starts_with("1. e4"));
        assert!(games[0].3.contains("not a tag"));
        assert_eq!(games[1].1, 9);
        assert_eq!(&text[games[1].0 as usize..][..6], b"[Event");
        assert_eq!(games[1].3, "1. d4 *\n");
    }

    #[test]
    fn a_tag_section_without_movetext_is_a_game_of_its_own() {
        let text = b"[Event \"a\"]\n[White \"A\"]\n\n[Event \"a\"]\n[White \"B\"]\n\n1. e4 *\n";
        let games = split(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].2, "[Event \"a\"]\n[White \"A\"]\n\n");
        assert_eq!(games[0].3, "");
        assert_eq!((games[1].1, games[1].3.as_str()), (4, "1. e4 *\n"));
    }

    #[test]
    fn carriage_returns_alone_end_lines_and_byte_order_marks_start_games() {
        let text = b"[Event \"a\"]\r\r1. e4 *\r\r[Event \"b\"]\r\r1. d4 *\r";
        let games = split(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].1, 5);
        assert_eq!(games[1].2, "[Event \"b\"]\n\n");
        // CRLF split across two reads stays one line end.
        let crlf = b"[Event \"a\"]\r\n\r\n1. e4 *\r\n";
        let mut s = Splitter::new(Trickle(crlf, 12));
        let g = s.next_game().unwrap().unwrap();
        assert_eq!(g.movetext_line, 3);
        assert_eq!(g.movetext_bytes(), b"1. e4 *\r\n");

        let mut joined = b"\xef\xbb\xbf[Event \"a\"]\n\n1. e4 *\n".to_vec();
        joined.extend_from_slice(b"\xef\xbb\xbf[Event \"b\"]\n\n1. d4 *\n");
        let games = split(&joined);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].3, "1. e4 *\n");
        assert_eq!(games[1].2, "[Event \"b\"]\n\n");
        assert_eq!(joined[games[1].0 as usize], b'[');
    }

    #[test]
    fn tagless_games_and_unclosed_comments() {
        let games = split(b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].3, "1. d4 d5 0-1\n");
        let games = split(b"[Event \"x\"]\n1. e4 { open\n\n[Event \"y\"]\n1. d4 *");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].3, "1. d4 *");
        assert!(split(b"\n \r\n").is_empty());
    }

    /// A reader that returns a few bytes at a time, to exercise every refill path.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn small_reads_and_big_games() {
        let mut text = Vec::new();
        for i in 0..50 {
            text.extend_from_slice(format!("[Event \"{i}\"]\n\n1. e4 e5 *\n\n").as_bytes());
        }
        let mut s = Splitter::new(Trickle(&text, 7));
        let mut n = 0;
        while let Some(g) = s.next_game().unwrap() {
            assert_eq!(g.line, 1 + 4 * n);
            assert!(text[g.offset as usize..].starts_with(format!("[Event \"{n}\"]").as_bytes()));
            n += 1;
        }
        assert_eq!(n, 50);
    }
}
