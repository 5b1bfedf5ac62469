//! The move list: numbered SAN with NAG glyphs and comments, variations in parentheses on
//! their own indented lines, the current move highlighted and kept in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::chess::Color;
use crate::game::{Nag, NodeId, Tree};
use crate::tui::app::App;
use crate::tui::review::judge_move;

/// Columns of indentation per variation level.
const INDENT: usize = 2;

/// How a NAG is shown: the move and position assessments as their usual symbols.
pub fn nag_text(nag: Nag) -> String {
    if let Some(g) = nag.glyph() {
        return g.to_owned();
    }
    let symbol = match nag.0 {
        7 => "□",
        10 => "=",
        13 => "∞",
        14 => "⩲",
        15 => "⩱",
        16 => "±",
        17 => "∓",
        18 => "+−",
        19 => "−+",
        22 | 23 => "⨀",
        32 | 33 => "⟳",
        36 | 37 => "→",
        40 | 41 => "↑",
        132 | 133 => "⇆",
        138 | 139 => "⊕",
        140 => "∆",
        146 => "N",
        _ => return nag.to_string(),
    };
    symbol.to_owned()
}

/// Lines of at most `width` cells, indented per variation level.
struct Layout {
    width: usize,
    lines: Vec<Line<'static>>,
    line: Vec<Span<'static>>,
    used: usize,
    indent: usize,
    /// The next word follows without a space (after `(`).
    glue: bool,
    current: NodeId,
    current_line: usize,
}

impl Layout {
    fn word(&mut self, spans: Vec<Span<'static>>) {
        let w: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        let glued = std::mem::take(&mut self.glue);
        if !glued && self.used > self.indent {
            if self.used + 1 + w > self.width {
                self.break_line(self.indent);
            } else {
                self.line.push(Span::raw(" "));
                self.used += 1;
            }
        }
        self.used += w;
        self.line.extend(spans);
    }

    /// Ends the line; the next starts at `indent`.
    fn break_line(&mut self, indent: usize) {
        if !self.line.is_empty() {
            self.lines.push(Line::from(std::mem::take(&mut self.line)));
        }
        self.indent = indent;
        self.used = indent;
        if indent > 0 {
            self.line.push(Span::raw(" ".repeat(indent)));
        }
    }

    fn comment(&mut self, text: &str, style: Style) {
        for word in text.split_whitespace() {
            self.word(vec![Span::styled(word.to_owned(), style)]);
        }
    }
}

struct Styles {
    number: Style,
    main: Style,
    variation: Style,
    comment: Style,
    nag: Style,
    judged: Style,
    current: Style,
}

impl Styles {
    fn new(colors: bool) -> Styles {
        let dim = Style::default().add_modifier(Modifier::DIM);
        let fg = |c: Tc| {
            if colors {
                Style::default().fg(c)
            } else {
                Style::default()
            }
        };
        Styles {
            number: dim,
            main: Style::default().add_modifier(Modifier::BOLD),
            variation: fg(Tc::Cyan),
            comment: fg(Tc::Green).add_modifier(Modifier::ITALIC),
            nag: fg(Tc::Yellow).add_modifier(Modifier::BOLD),
            judged: fg(Tc::LightRed),
            current: if colors {
                Style::default()
                    .bg(Tc::Rgb(60, 90, 160))
                    .fg(Tc::White)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().add_modifier(Modifier::REVERSED)
            },
        }
    }
}

/// Lays the game out in lines of at most `width` cells; returns the lines and the line of the
/// current move.
pub fn lines(app: &App, width: u16) -> (Vec<Line<'static>>, usize) {
    let styles = Styles::new(app.colors);
    let tree = app.game.tree();
    let mut out = Layout {
        width: width.max(8) as usize,
        lines: Vec::new(),
        line: Vec::new(),
        used: 0,
        indent: 0,
        glue: false,
        current: app.game.current_node(),
        current_line: 0,
    };
    let root = tree.node(NodeId::ROOT);
    let mut force_number = false;
    if let Some(c) = root.comment_after.as_ref().filter(|c| !c.text.is_empty()) {
        out.comment(&c.text, styles.comment);
        force_number = true;
    }
    if let Some(&first) = root.children().first() {
        write_line(
            app,
            tree,
            NodeId::ROOT,
            first,
            0,
            force_number,
            &styles,
            &mut out,
        );
    }
    let result = app.game.result();
    if result != crate::game::GameResult::Unknown {
        out.word(vec![Span::styled(result.as_str(), styles.main)]);
    }
    out.break_line(0);
    (out.lines, out.current_line)
}

/// Writes the line from `child` (a move after `parent`) at variation depth `depth`, with the
/// alternatives to each of its moves as indented, parenthesised lines.
#[allow(clippy::too_many_arguments)]
fn write_line(
    app: &App,
    tree: &Tree,
    mut parent: NodeId,
    mut child: NodeId,
    depth: usize,
    mut force: bool,
    styles: &Styles,
    out: &mut Layout,
) {
    let base = if depth == 0 {
        styles.main
    } else {
        styles.variation
    };
    loop {
        let node = tree.node(child);
        if let Some(c) = node.comment_before.as_ref().filter(|c| !c.text.is_empty()) {
            out.comment(&c.text, styles.comment);
            force = true;
        }
        let pos = tree.position(parent);
        let mut spans = Vec::new();
        match pos.turn() {
            Color::White => spans.push(Span::styled(
                format!("{}. ", pos.fullmoves()),
                styles.number,
            )),
            Color::Black if force => spans.push(Span::styled(
                format!("{}... ", pos.fullmoves()),
                styles.number,
            )),
            Color::Black => {}
        }
        let style = if child == out.current {
            styles.current
        } else {
            base
        };
        spans.push(Span::styled(tree.san(child).unwrap_or_default(), style));
        let mut assessed = false;
        for &nag in &node.nags {
            assessed |= nag.glyph().is_some();
            let sep = if nag.glyph().is_some() { "" } else { " " };
            spans.push(Span::styled(format!("{sep}{}", nag_text(nag)), styles.nag));
        }
        if !assessed && let Some(j) = judge_move(&app.game, child) {
            spans.push(Span::styled(j.glyph(), styles.judged));
        }
        out.word(spans);
        if child == out.current {
            out.current_line = out.lines.len();
        }
        force = false;
        if let Some(c) = node.comment_after.as_ref().filter(|c| !c.text.is_empty()) {
            out.comment(&c.text, styles.comment);
            force = true;
        }
        let siblings = tree.node(parent).children();
        if siblings.first() == Some(&child) && siblings.len() > 1 {
            for &alternative in &siblings[1..] {
                let indent = (depth + 1) * INDENT;
                out.break_line(indent);
                out.word(vec![Span::styled("(", styles.variation)]);
                out.glue = true;
                write_line(app, tree, parent, alternative, depth + 1, true, styles, out);
                out.line.push(Span::styled(")", styles.variation));
                out.used += 1;
            }
            // The line goes on below its variations; a line that ends there closes after them.
            if !node.children().is_empty() {
                out.break_line(depth * INDENT);
            }
            force = true;
        }
        match node.children().first() {
            Some(&next) => {
                parent = child;
                child = next;
            }
            None => break,
        }
    }
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let block = Block::default().borders(Borders::TOP).title(" Moves ");
    let inner = block.inner(area);
    block.render(area, buf);
    let (lines, current) = lines(app, inner.width);
    // Keep the current move in view, near the bottom when the list is long.
    let height = inner.height as usize;
    let scroll = (current + 1)
        .saturating_sub(height)
        .min(lines.len().saturating_sub(height));
    let text = if lines.is_empty() {
        vec![Line::styled(
            "no moves yet",
            Style::default().add_modifier(Modifier::DIM),
        )]
    } else {
        lines
    };
    Paragraph::new(text)
        .scroll((scroll as u16, 0))
        .render(inner, buf);
}
