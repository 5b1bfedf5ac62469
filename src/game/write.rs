//! The PGN export format: roster tags first, escaped values, movetext wrapped at 80 columns,
//! move numbers resumed after comments and variations (`12... Nf6`), NAGs as `$n`.

use super::annotation::Comment;
use super::headers::escape_value;
use super::record::Game;
use super::tree::{NodeId, Tree};
use super::walk::{LineVisitor, MoveNumber, walk_line};

/// Longest movetext line the export format allows.
const LINE_WIDTH: usize = 80;

/// Appends `game` in export format, ending with a newline. Separate games with a blank line.
pub fn write_game(game: &Game, out: &mut String) {
    for (name, value) in game.headers.iter() {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        escape_value(value, out);
        out.push_str("\"]\n");
    }
    out.push('\n');
    let mut w = Wrapper {
        out,
        column: 0,
        glue: false,
    };
    let tree = &game.tree;
    let root = tree.node(NodeId::ROOT);
    for nag in &root.nags {
        w.token(&nag.to_string());
    }
    let force_number = root
        .comment_after
        .as_ref()
        .is_some_and(|comment| LineVisitor::comment(&mut w, comment));
    if let Some(&first) = root.children().first() {
        walk_line(tree, NodeId::ROOT, first, force_number, &mut w);
    }
    w.token(game.result.as_str());
    w.out.push('\n');
}

impl Game {
    /// The game in export format.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        write_game(self, &mut s);
        s
    }
}

impl LineVisitor for Wrapper<'_> {
    fn comment(&mut self, comment: &Comment) -> bool {
        self.comment(comment);
        !comment.is_empty()
    }

    fn mv(&mut self, tree: &Tree, node: NodeId, number: Option<MoveNumber>) {
        if let Some(number) = number {
            self.token(&number.to_string());
        }
        self.token(&tree.san(node).unwrap_or_default());
        for nag in &tree.node(node).nags {
            self.token(&nag.to_string());
        }
    }

    fn start_variation(&mut self) {
        self.open();
    }

    fn end_variation(&mut self) {
        self.close();
    }
}

/// Fills lines with space-separated tokens up to the line width.
struct Wrapper<'a> {
    out: &'a mut String,
    column: usize,
    /// The next token follows without a space (after `(`).
    glue: bool,
}

impl Wrapper<'_> {
    fn token(&mut self, token: &str) {
        let width = token.chars().count();
        if self.glue {
            self.glue = false;
        } else if self.column > 0 {
            if self.column + 1 + width > LINE_WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(token);
        self.column += width;
    }

    fn open(&mut self) {
        self.token("(");
        self.glue = true;
    }

    fn close(&mut self) {
        if self.column + 1 > LINE_WIDTH {
            self.out.push('\n');
            self.column = 0;
        }
        self.out.push(')');
        self.column += 1;
    }

    fn comment(&mut self, comment: &Comment) {
        if comment.is_empty() {
            return;
        }
        // A command is never split from its operands. A line starting with '[' would read as a
        // new game's tags, one starting with '%' as an escape line: such a piece stays on the
        // line of the piece before it (the first one on the line of its brace).
        let commands = comment.commands.iter().map(ToString::to_string);
        let words = comment
            .text
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_owned);
        if comment.text.contains('}') {
            // A brace comment cannot hold a `}`: a rest-of-line comment can, and keeps the text
            // exactly (the text has no line breaks).
            let line: Vec<String> = commands.chain(words).collect();
            self.token(&format!("; {}", line.join(" ")));
            self.out.push('\n');
            self.column = 0;
            return;
        }
        let mut tokens: Vec<String> = vec!["{".to_owned()];
        for (i, piece) in commands.chain(words).enumerate() {
            let last = tokens.last_mut().expect("the brace is there");
            if i == 0 {
                last.push_str(&piece);
            } else if piece.starts_with(['[', '%']) {
                last.push(' ');
                last.push_str(&piece);
            } else {
                tokens.push(piece);
            }
        }
        tokens.last_mut().expect("the brace is there").push('}');
        for token in &tokens {
            self.token(token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::read::parse_all;

    #[test]
    fn commands_keep_their_values_and_are_never_split_from_them() {
        let mut text = String::from("1. e4 {[%eval 0.125] [%clk 0:05:00.50]} e5 ");
        // Knights out and back, with commands of several widths to wrap at every column.
        for n in 0..38 {
            text.push_str(&format!("Nf3 {{[%clk 0:0{}:00] a few words}} Nf6 ", n % 10));
            text.push_str(&format!("Ng1 {{[%eval 0.1{n}] [%clk 0:01:00]}} Ng8 "));
        }
        text.push_str("*\n");
        let games = parse_all(&text);
        let pgn = games[0].game.to_pgn();
        assert!(pgn.contains("{[%eval 0.125] [%clk 0:05:00.50]}"), "{pgn}");
        for line in pgn.lines() {
            assert!(line.chars().count() <= 80 || line.contains("[%"), "{line}");
            let trimmed = line.trim_end();
            assert!(
                !trimmed.ends_with("[%clk") && !trimmed.ends_with("[%eval"),
                "{pgn}"
            );
            assert!(!line.starts_with('[') || line.starts_with("[Event") || !line.contains('%'));
        }
        assert_eq!(parse_all(&pgn)[0].game, games[0].game);
        // A comment with a closing brace survives exactly, as a rest-of-line comment.
        let game = &parse_all("1. e4 {x} e5 2. Nf3 *")[0].game;
        let mut edited = game.clone();
        let node = edited.tree.mainline().nth(1).unwrap();
        edited.tree.node_mut(node).comment_after =
            Some(super::Comment::parse("a } b {c} [%eval 0.5]"));
        let pgn = edited.to_pgn();
        assert!(pgn.contains("; [%eval 0.5] a } b {c}\n2. Nf3"), "{pgn}");
        let back = &parse_all(&pgn)[0].game;
        assert_eq!(*back, edited);
        let comment = back.tree.node(node).comment_after.as_ref().unwrap();
        assert_eq!(comment.text, "a } b {c}");
        // A brace inside a comment's text stays a word of its own.
        let game = &parse_all("{ a { b } 1. e4 *")[0].game;
        assert_eq!(parse_all(&game.to_pgn())[0].game, *game);
    }

    #[test]
    fn export_format() {
        let text = "[White \"A \\\"B\\\"\"]\n[Event \"e\"]\n\n{start} 1. e4 {good} e5 (1... c5 $1 {sharp} 2. Nf3) (1... e6) 2. Nf3 $2 $14 Nc6 *";
        let games = parse_all(text);
        assert!(games[0].is_ok(), "{:?}", games[0].errors);
        let out = games[0].game.to_pgn();
        assert_eq!(
            out,
            "[Event \"e\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A \\\"B\\\"\"]\n[Black \"?\"]\n[Result \"*\"]\n\n{start} 1. e4 {good} 1... e5 (1... c5 $1 {sharp} 2. Nf3) (1... e6) 2. Nf3 $2 $14\nNc6 *\n"
        );
        assert_eq!(parse_all(&out)[0].game, games[0].game);
    }

    #[test]
    fn lines_are_wrapped() {
        let mut text = String::new();
        for _ in 0..20 {
            text.push_str("Nf3 Nf6 Ng1 Ng8 ");
        }
        let game = &parse_all(&text)[0];
        assert!(game.is_ok());
        let out = game.game.to_pgn();
        assert!(out.lines().all(|l| l.chars().count() <= 80));
        assert_eq!(parse_all(&out)[0].game, game.game);
    }

    #[test]
    fn no_comment_line_starts_like_a_tag_or_an_escape() {
        let filler = "word ".repeat(15);
        let text = format!("1. e4 {{{filler}[Event \"x\"] {filler}%escape {filler}}} *");
        let out = parse_all(&text)[0].game.to_pgn();
        let movetext = out.split("\n\n").nth(1).unwrap();
        assert!(
            movetext
                .lines()
                .all(|l| !l.starts_with('[') && !l.starts_with('%')),
            "{out}"
        );
        assert_eq!(parse_all(&out).len(), 1);
    }
}
