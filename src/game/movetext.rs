//! The movetext tokeniser: every byte of a game's movetext becomes part of a token, so nothing
//! is skipped without a word. Reads the PGN import format (section 8 of the standard): move
//! numbers glued to moves (`1.e4`), `;` rest-of-line comments, `%` escape lines, commas between
//! moves, and annotation glyphs glued to moves (`e4!?`).

use super::record::GameResult;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Token<'a> {
    /// A move as written (SAN, long algebraic, a null move), check marks and glyphs included.
    Move(&'a [u8]),
    /// `$n`: the digits after the dollar sign (empty when there are none).
    Nag(&'a [u8]),
    /// `!`, `?`, `!!`, `??`, `!?`, `?!` standing alone.
    Glyph(&'a [u8]),
    /// The text of a `{...}` or `;` comment.
    Comment(&'a [u8]),
    /// `{` with no `}` after it: the rest of the movetext.
    UnclosedComment(&'a [u8]),
    Open,
    Close,
    Result(GameResult),
    /// A byte that has no place outside a comment (a control character, binary data).
    Invalid(u8),
}

/// Tokens with their byte offsets in the movetext.
pub struct Tokens<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a [u8]) -> Tokens<'a> {
        Tokens { text, at: 0 }
    }

    fn at_line_start(&self, i: usize) -> bool {
        i == 0 || self.text[i - 1] == b'\n'
    }

    /// The end of the line from `i` (the newline's offset, or the end of the text).
    fn line_end(&self, i: usize) -> usize {
        memchr::memchr(b'\n', &self.text[i..]).map_or(self.text.len(), |j| i + j)
    }
}

/// The bytes a move or a move number is made of; anything else ends a word.
fn in_word(b: u8) -> bool {
    b.is_ascii_graphic() && !matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'$' | b',')
}

/// "½" in UTF-8, as some files write the draw ("½-½").
const HALF: &[u8] = "½".as_bytes();
const HALF_DRAW: &[u8] = "½-½".as_bytes();

fn result(word: &[u8]) -> Option<GameResult> {
    match word {
        b"1-0" => Some(GameResult::winner(crate::chess::Color::White)),
        b"0-1" => Some(GameResult::winner(crate::chess::Color::Black)),
        b"1/2-1/2" | b"1/2" | HALF_DRAW => Some(GameResult::Draw),
        b"*" => Some(GameResult::Unknown),
        _ => None,
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, Token<'a>);

    fn next(&mut self) -> Option<(usize, Token<'a>)> {
        loop {
            let text = self.text;
            let start = self.at;
            let &b = text.get(start)?;
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | b',' | 0x0b | 0x0c => self.at += 1,
                b'%' if self.at_line_start(start) => self.at = self.line_end(start),
                b'{' => {
                    return Some(match memchr::memchr(b'}', &text[start..]) {
                        Some(len) => {
                            self.at = start + len + 1;
                            (start, Token::Comment(&text[start + 1..start + len]))
                        }
                        None => {
                            self.at = text.len();
                            (start, Token::UnclosedComment(&text[start + 1..]))
                        }
                    });
                }
                b';' => {
                    let end = self.line_end(start);
                    self.at = end;
                    return Some((start, Token::Comment(&text[start + 1..end])));
                }
                b'(' | b')' => {
                    self.at += 1;
                    let token = if b == b'(' { Token::Open } else { Token::Close };
                    return Some((start, token));
                }
                b'$' => {
                    let digits = text[start + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.at = start + 1 + digits;
                    return Some((start, Token::Nag(&text[start + 1..self.at])));
                }
                _ if text[start..].starts_with(HALF) => {
                    // Only a result starts with "½".
                    let len = text[start..]
                        .iter()
                        .position(|&b| !in_word(b) && !HALF.contains(&b))
                        .unwrap_or(text.len() - start);
                    self.at = start + len;
                    return Some(match result(&text[start..self.at]) {
                        Some(r) => (start, Token::Result(r)),
                        None => (start, Token::Invalid(b)),
                    });
                }
                _ if !in_word(b) => {
                    self.at += 1;
                    return Some((start, Token::Invalid(b)));
                }
                _ => {
                    let len = text[start..]
                        .iter()
                        .position(|&b| !in_word(b))
                        .unwrap_or(text.len() - start);
                    let word = &text[start..start + len];
                    if let Some(r) = result(word) {
                        self.at = start + len;
                        return Some((start, Token::Result(r)));
                    }
                    // A move number, with or without dots, may have the move glued after it.
                    let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
                    let dots = word[digits..].iter().take_while(|&&b| b == b'.').count();
                    if digits > 0 && (dots > 0 || digits == len) {
                        self.at = start + digits + dots;
                        continue;
                    }
                    if digits == 0 && dots > 0 {
                        // Stray dots ("1. ... e5" in some files) say nothing.
                        self.at = start + dots;
                        continue;
                    }
                    self.at = start + len;
                    if word.iter().all(|&b| b == b'!' || b == b'?') {
                        return Some((start, Token::Glyph(word)));
                    }
                    return Some((start, Token::Move(word)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token<'_>> {
        Tokens::new(text.as_bytes()).map(|(_, t)| t).collect()
    }

    #[test]
    fn every_kind_of_token() {
        use Token::*;
        let text = "1.e4 e5!? 2. Nf3 $1 {good} (2... Nc6 ; a line comment\n) ?! 3.. Bc4, Nf6 *";
        assert_eq!(
            tokens(text),
            [
                Move(b"e4"),
                Move(b"e5!?"),
                Move(b"Nf3"),
                Nag(b"1"),
                Comment(b"good"),
                Open,
                Move(b"Nc6"),
                Comment(b" a line comment"),
                Close,
                Glyph(b"?!"),
                Move(b"Bc4"),
                Move(b"Nf6"),
                Result(GameResult::Unknown),
            ]
        );
    }

    #[test]
    fn results_escapes_and_bad_bytes() {
        use Token::*;
        assert_eq!(
            tokens("e4 1/2-1/2"),
            [Move(b"e4"), Result(GameResult::Draw)]
        );
        assert_eq!(tokens("½-½"), [Result(GameResult::Draw)]);
        assert_eq!(
            tokens("e4\n% an escaped line e5\nd5"),
            [Move(b"e4"), Move(b"d5")]
        );
        assert_eq!(tokens("e4 {open"), [Move(b"e4"), UnclosedComment(b"open")]);
        assert_eq!(
            tokens("e4 \0 \u{7f}é"),
            [
                Move(b"e4"),
                Invalid(0),
                Invalid(0x7f),
                Invalid(0xc3),
                Invalid(0xa9)
            ]
        );
        assert_eq!(
            tokens("0-0 0-0-0 --"),
            [Move(b"0-0"), Move(b"0-0-0"), Move(b"--")]
        );
        assert_eq!(tokens("$ $256"), [Nag(b""), Nag(b"256")]);
    }
}
