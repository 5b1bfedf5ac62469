//! What a PGN comment carries: free text plus the bracketed commands of the PGN supplement
//! (`[%clk 1:05:00]`, `[%eval -0.35]`, `[%csl Gd4]`, ...), and numeric annotation glyphs.

use std::fmt;
use std::time::Duration;

use crate::chess::Square;

/// A numeric annotation glyph: `$1` is `!`, `$2` is `?`, ... (PGN standard, section 10).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    pub const GOOD: Nag = Nag(1);
    pub const MISTAKE: Nag = Nag(2);
    pub const BRILLIANT: Nag = Nag(3);
    pub const BLUNDER: Nag = Nag(4);
    pub const SPECULATIVE: Nag = Nag(5);
    pub const DUBIOUS: Nag = Nag(6);

    /// The traditional glyph for the six move assessments (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn glyph(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "!",
            2 => "?",
            3 => "!!",
            4 => "??",
            5 => "!?",
            6 => "?!",
            _ => return None,
        })
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// Colour of a square highlight or arrow (`R`, `G`, `Y`, `B` in `%csl`/`%cal`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ShapeColor {
    Red,
    Green,
    Yellow,
    Blue,
}

impl ShapeColor {
    fn from_char(c: char) -> Option<ShapeColor> {
        Some(match c {
            'R' => ShapeColor::Red,
            'G' => ShapeColor::Green,
            'Y' => ShapeColor::Yellow,
            'B' => ShapeColor::Blue,
            _ => return None,
        })
    }

    fn char(self) -> char {
        match self {
            ShapeColor::Red => 'R',
            ShapeColor::Green => 'G',
            ShapeColor::Yellow => 'Y',
            ShapeColor::Blue => 'B',
        }
    }
}

/// An engine evaluation from White's point of view, with the search depth if given.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Eval {
    pub score: Score,
    pub depth: Option<u32>,
}

/// A score from White's point of view: the one score type of games and screens (the engine's own
/// is from the side to move's view and is converted once, in `engines`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in n moves; negative when Black mates.
    Mate(i32),
}

/// The smallest centipawn value of the band just below the mates where this project's engine
/// reports the wins the tablebases prove.
pub const TABLEBASE_CP: i32 = 30_743;

impl Score {
    /// A win or loss the tablebases prove.
    pub fn is_tablebase(self) -> bool {
        matches!(self, Score::Cp(cp) if cp.abs() >= TABLEBASE_CP)
    }

    /// Centipawns for graphs and bars: tablebase results just below mates, mates as the
    /// largest values.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) if self.is_tablebase() => 9_000 * cp.signum(),
            Score::Cp(cp) => cp,
            Score::Mate(n) if n >= 0 => 10_000 - n,
            Score::Mate(n) => -10_000 - n,
        }
    }

    /// `+0.34`, `-1.20`, `TB win`, `#3`, `#-2`.
    pub fn label(self) -> String {
        match self {
            Score::Cp(cp) if self.is_tablebase() => {
                if cp > 0 { "TB win" } else { "TB loss" }.to_owned()
            }
            Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

/// One `[%name args]` command inside a comment.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub enum Command {
    /// `%clk`: the clock after the move.
    Clock(Duration),
    /// `%emt`: time spent on the move.
    ElapsedMove(Duration),
    Eval(Eval),
    /// `%csl`: highlighted squares.
    Squares(Vec<(ShapeColor, Square)>),
    /// `%cal`: arrows.
    Arrows(Vec<(ShapeColor, Square, Square)>),
    /// Any other command, or a known one whose arguments did not parse, kept verbatim.
    Other {
        name: String,
        args: String,
    },
}

/// A comment: text with its commands taken out. Whitespace runs are collapsed to one space, so
/// that rewrapping lines on export does not change the comment.
#[derive(Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct Comment {
    pub text: String,
    pub commands: Vec<Command>,
}

impl Comment {
    pub fn text(text: &str) -> Comment {
        Comment {
            text: normalize_space(text),
            commands: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.commands.is_empty()
    }

    /// Splits raw comment text (between the braces) into commands and text.
    pub fn parse(raw: &str) -> Comment {
        let mut comment = Comment::default();
        let mut rest = raw;
        let mut parts: Vec<&str> = Vec::new();
        while let Some(start) = rest.find("[%") {
            let Some(len) = rest[start..].find(']') else {
                break;
            };
            parts.push(&rest[..start]);
            comment
                .commands
                .push(Command::parse(&rest[start + 2..start + len]));
            rest = &rest[start + len + 1..];
        }
        parts.push(rest);
        for part in parts {
            let part = normalize_space(part);
            if !part.is_empty() {
                if !comment.text.is_empty() {
                    comment.text.push(' ');
                }
                comment.text.push_str(&part);
            }
        }
        comment
    }

    /// Appends another comment (several `{}` after one move are read as one).
    pub fn merge(&mut self, other: Comment) {
        if !other.text.is_empty() {
            if !self.text.is_empty() {
                self.text.push(' ');
            }
            self.text.push_str(&other.text);
        }
        self.commands.extend(other.commands);
    }

    /// The `%clk` value, also of one kept verbatim (`0:05:00.50`).
    pub fn clock(&self) -> Option<Duration> {
        self.commands.iter().find_map(|c| match c {
            Command::Clock(d) => Some(*d),
            Command::Other { name, args } if name == "clk" => parse_duration(args),
            _ => None,
        })
    }

    /// The `%eval` value, also of one kept verbatim (`0.125`, rounded to centipawns).
    pub fn eval(&self) -> Option<Eval> {
        self.commands.iter().find_map(|c| match c {
            Command::Eval(e) => Some(*e),
            Command::Other { name, args } if name == "eval" => parse_eval(args),
            _ => None,
        })
    }
}

/// Commands first, then the text, as the comment reads between its braces (the PGN writer
/// keeps a text with a `}` in a rest-of-line comment).
impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for command in &self.commands {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{command}")?;
        }
        if !self.text.is_empty() {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(&self.text)?;
        }
        Ok(())
    }
}

fn normalize_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

impl Command {
    /// The command's name as written after `%` (`clk`, `eval`, ...).
    pub fn name(&self) -> &str {
        match self {
            Command::Clock(_) => "clk",
            Command::ElapsedMove(_) => "emt",
            Command::Eval(_) => "eval",
            Command::Squares(_) => "csl",
            Command::Arrows(_) => "cal",
            Command::Other { name, .. } => name,
        }
    }

    /// Parses the inside of `[%...]`, without the `[%` and `]`. A known command is read into
    /// its value only where writing that value back gives the same text; otherwise (`[%eval
    /// 0.125]`, `[%clk 65:00]`) it is kept verbatim, so a file is written back as it was read.
    pub fn parse(inner: &str) -> Command {
        let inner = normalize_space(inner);
        let (name, args) = inner.split_once(' ').unwrap_or((&inner, ""));
        let parsed = match name {
            "clk" => parse_duration(args).map(Command::Clock),
            "emt" => parse_duration(args).map(Command::ElapsedMove),
            "eval" => parse_eval(args).map(Command::Eval),
            "csl" => parse_list(args, |s| {
                let mut chars = s.chars();
                let color = ShapeColor::from_char(chars.next()?)?;
                Some((color, chars.as_str().parse().ok()?))
            })
            .map(Command::Squares),
            "cal" => parse_list(args, |s| {
                let mut chars = s.chars();
                let color = ShapeColor::from_char(chars.next()?)?;
                let squares = chars.as_str();
                if squares.len() != 4 {
                    return None;
                }
                Some((
                    color,
                    squares[..2].parse().ok()?,
                    squares[2..].parse().ok()?,
                ))
            })
            .map(Command::Arrows),
            _ => None,
        };
        let parsed = parsed.filter(|c| {
            let written = c.to_string();
            written.strip_prefix("[%").and_then(|w| w.strip_suffix(']')) == Some(&inner)
        });
        parsed.unwrap_or_else(|| Command::Other {
            name: name.to_owned(),
            args: args.to_owned(),
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Clock(d) => write!(f, "[%clk {}]", DurationText(*d)),
            Command::ElapsedMove(d) => write!(f, "[%emt {}]", DurationText(*d)),
            Command::Eval(eval) => {
                match eval.score {
                    Score::Cp(cp) => {
                        let sign = if cp < 0 { "-" } else { "" };
                        write!(f, "[%eval {sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)?
                    }
                    Score::Mate(n) => write!(f, "[%eval #{n}")?,
                }
                if let Some(depth) = eval.depth {
                    write!(f, ",{depth}")?;
                }
                f.write_str("]")
            }
            Command::Squares(list) => {
                f.write_str("[%csl ")?;
                for (i, (color, sq)) in list.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(f, "{sep}{}{sq}", color.char())?;
                }
                f.write_str("]")
            }
            Command::Arrows(list) => {
                f.write_str("[%cal ")?;
                for (i, (color, from, to)) in list.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(f, "{sep}{}{from}{to}", color.char())?;
                }
                f.write_str("]")
            }
            Command::Other { name, args } if args.is_empty() => write!(f, "[%{name}]"),
            Command::Other { name, args } => write!(f, "[%{name} {args}]"),
        }
    }
}

/// `h:mm:ss` with an optional fraction, as `%clk` and `%emt` write it.
struct DurationText(Duration);

impl fmt::Display for DurationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs();
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        let millis = self.0.subsec_millis();
        if millis != 0 {
            let frac = format!("{millis:03}");
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

fn parse_duration(s: &str) -> Option<Duration> {
    let mut parts = s.trim().rsplitn(3, ':');
    let secs = parts.next()?;
    let mins: u64 = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    let hours: u64 = parts.next().map_or(Some(0), |h| h.parse().ok())?;
    let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
    let whole: u64 = whole.parse().ok()?;
    if mins >= 60 && hours > 0 || !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
        return None;
    }
    let nanos = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}").parse::<u32>().ok()?
    };
    // Millisecond precision is what clocks record; finer digits would not survive a rewrite.
    let millis = nanos / 1_000_000;
    Some(
        Duration::from_secs(hours * 3600 + mins * 60 + whole)
            + Duration::from_millis(millis as u64),
    )
}

fn parse_eval(s: &str) -> Option<Eval> {
    let (score, depth) = match s.split_once(',') {
        Some((score, depth)) => (score.trim(), Some(depth.trim().parse().ok()?)),
        None => (s.trim(), None),
    };
    let score = if let Some(mate) = score.strip_prefix('#') {
        Score::Mate(mate.parse().ok()?)
    } else {
        let value: f64 = score.parse().ok()?;
        if !value.is_finite() || value.abs() > 1e6 {
            return None;
        }
        Score::Cp((value * 100.0).round() as i32)
    };
    Some(Eval { score, depth })
}

fn parse_list<T>(s: &str, item: impl Fn(&str) -> Option<T>) -> Option<Vec<T>> {
    s.split(',')
        .map(|part| item(part.trim()))
        .collect::<Option<Vec<T>>>()
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_typed_and_unknown_ones_kept() {
        let c = Comment::parse(" [%eval -0.35,21] [%clk 1:05:00.5] good\n move [%foo a b] ");
        assert_eq!(c.text, "good move");
        assert_eq!(
            c.commands[0],
            Command::Eval(Eval {
                score: Score::Cp(-35),
                depth: Some(21)
            })
        );
        assert_eq!(
            c.commands[1],
            Command::Clock(Duration::from_millis(3_900_500))
        );
        assert_eq!(
            c.commands[2],
            Command::Other {
                name: "foo".into(),
                args: "a b".into()
            }
        );
        assert_eq!(
            c.to_string(),
            "[%eval -0.35,21] [%clk 1:05:00.5] [%foo a b] good move"
        );
        assert_eq!(Comment::parse(&c.to_string()), c);
    }

    #[test]
    fn shapes_and_mates() {
        let c = Comment::parse("[%csl Gd4,Re5][%cal Ge2e4,Bg1f3] [%eval #-3] [%emt 0:00:07]");
        assert_eq!(c.text, "");
        assert_eq!(c.commands.len(), 4);
        assert!(matches!(&c.commands[0], Command::Squares(v) if v.len() == 2));
        assert!(matches!(&c.commands[1], Command::Arrows(v) if v.len() == 2));
        assert_eq!(c.eval().map(|e| e.score), Some(Score::Mate(-3)));
        assert_eq!(Comment::parse(&c.to_string()), c);
        // Malformed arguments keep the command verbatim.
        let bad = Comment::parse("[%csl Xz9] [%clk soon]");
        assert!(
            matches!(&bad.commands[0], Command::Other { name, args } if name == "csl" && args == "Xz9")
        );
        assert!(matches!(&bad.commands[1], Command::Other { name, .. } if name == "clk"));
    }

    #[test]
    fn values_that_would_be_written_otherwise_are_kept_verbatim() {
        let text = "[%eval 0.125] [%eval +0.3,20] [%clk 0:05:00.50] [%clk 65:00] [%eval 0.35]";
        let c = Comment::parse(text);
        assert_eq!(c.to_string(), text);
        assert!(
            matches!(&c.commands[0], Command::Other { name, args } if name == "eval" && args == "0.125")
        );
        assert!(matches!(c.commands[4], Command::Eval(_)));
        // Still read as values where the program needs them.
        assert_eq!(c.eval().map(|e| e.score), Some(Score::Cp(13)));
        assert_eq!(
            Comment::parse("[%clk 0:05:00.50]").clock(),
            Some(Duration::from_millis(300_500))
        );
        assert_eq!(c.commands[3].name(), "clk");
    }
}
