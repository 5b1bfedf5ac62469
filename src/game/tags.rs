//! Tag-pair syntax (`[Name "value"]`) and text decoding: UTF-8, or Latin-1 when a game's bytes
//! are not valid UTF-8.

use std::borrow::Cow;

/// How a game's bytes become text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Utf8,
    Latin1,
}

impl Encoding {
    pub fn detect(bytes: &[u8]) -> Encoding {
        if std::str::from_utf8(bytes).is_ok() {
            Encoding::Utf8
        } else {
            Encoding::Latin1
        }
    }

    pub fn decode(self, bytes: &[u8]) -> Cow<'_, str> {
        match self {
            // Bytes were checked when the encoding was detected; lossy only guards misuse.
            Encoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(bytes),
            },
            Encoding::Latin1 => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
        }
    }
}

/// A tag line that is not `[Name "value"]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadTag {
    pub line: u64,
    pub text: String,
}

/// Calls `tag(name, value, line)` for each tag pair in a game's tag section (value unescaped,
/// raw bytes); returns the malformed lines. `first_line` numbers the section's first line.
pub fn scan_tags<'a>(
    section: &'a [u8],
    first_line: u64,
    encoding: Encoding,
    mut tag: impl FnMut(&'a [u8], Cow<'a, [u8]>, u64),
) -> Vec<BadTag> {
    let mut bad = Vec::new();
    for (i, line) in section.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii();
        if !line.starts_with(b"[") {
            continue;
        }
        let mut rest = line;
        while let Some(body) = rest.strip_prefix(b"[") {
            match parse_one(body) {
                Some((name, value, after)) => {
                    tag(name, value, first_line + i as u64);
                    rest = after.trim_ascii_start();
                }
                None => {
                    rest = b"";
                    bad.push(BadTag {
                        line: first_line + i as u64,
                        text: encoding.decode(line).into_owned(),
                    });
                }
            }
        }
        if !rest.is_empty() {
            bad.push(BadTag {
                line: first_line + i as u64,
                text: encoding.decode(line).into_owned(),
            });
        }
    }
    bad
}

/// One tag pair: name, unescaped value, and the rest of the line.
type TagPair<'a> = (&'a [u8], Cow<'a, [u8]>, &'a [u8]);

/// Calls `tag(name, value)` for the tags whose name `wanted` accepts, looking no further than
/// the name of the others (the index reads only the roster, and does not validate).
pub fn scan_wanted_tags<'a>(
    section: &'a [u8],
    wanted: impl Fn(&[u8]) -> bool,
    mut tag: impl FnMut(&'a [u8], Cow<'a, [u8]>),
) {
    let mut start = 0;
    while start < section.len() {
        let end = memchr::memchr(b'\n', &section[start..]).map_or(section.len(), |i| start + i);
        let line = &section[start..end];
        start = end + 1;
        let Some(body) = line.strip_prefix(b"[") else {
            continue;
        };
        let name_end = memchr::memchr2(b' ', b'"', body).unwrap_or(body.len());
        if wanted(&body[..name_end]) {
            // Several tags on one line are rare; the wanted one is then the first.
            if let Some((name, value, _)) = parse_one(body) {
                tag(name, value);
            }
        }
    }
}

/// Parses `Name "value"]` (after the `[`).
fn parse_one(body: &[u8]) -> Option<TagPair<'_>> {
    let body = body.trim_ascii_start();
    let name_len = body
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-'))?;
    if name_len == 0 {
        return None;
    }
    let (name, rest) = body.split_at(name_len);
    let rest = rest.trim_ascii_start().strip_prefix(b"\"")?;
    let mut value: Cow<[u8]> = Cow::Borrowed(&[]);
    let mut i = 0;
    let mut seg = 0;
    loop {
        i += memchr::memchr2(b'"', b'\\', &rest[i..])?;
        if rest[i] == b'"' {
            break;
        }
        if matches!(rest.get(i + 1), Some(b'"' | b'\\')) {
            value.to_mut().extend_from_slice(&rest[seg..i]);
            seg = i + 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    if seg == 0 {
        value = Cow::Borrowed(&rest[..i]);
    } else {
        value.to_mut().extend_from_slice(&rest[seg..i]);
    }
    let after = rest[i + 1..].trim_ascii_start().strip_prefix(b"]")?;
    Some((name, value, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(section: &[u8]) -> (Vec<(String, String)>, Vec<BadTag>) {
        let mut out = Vec::new();
        let bad = scan_tags(section, 1, Encoding::detect(section), |k, v, _| {
            out.push((
                String::from_utf8_lossy(k).into_owned(),
                Encoding::detect(section).decode(&v).into_owned(),
            ))
        });
        (out, bad)
    }

    #[test]
    fn parses_escapes_and_reports_malformed_lines() {
        let (t, bad) =
            tags(b"[White \"a \\\"b\\\" \\\\\"]\r\n\n[A \"1\"][B \"2\"]\n[Bad value]\n[C \"open\n");
        assert_eq!(
            t,
            [
                ("White".into(), "a \"b\" \\".into()),
                ("A".into(), "1".into()),
                ("B".into(), "2".into())
            ]
        );
        assert_eq!(bad.len(), 2);
        assert_eq!((bad[0].line, bad[0].text.as_str()), (4, "[Bad value]"));
        assert_eq!(bad[1].line, 5);
    }

    #[test]
    fn latin1_fallback() {
        let (t, _) = tags(b"[White \"G\xf6kt\xfcrk\"]");
        assert_eq!(t[0].1, "Göktürk");
        let (t, _) = tags("[White \"Göktürk\"]".as_bytes());
        assert_eq!(t[0].1, "Göktürk");
    }
}
