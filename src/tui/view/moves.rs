//! The move list: numbered SAN with NAG glyphs and comments, variations in parentheses on
//! their own indented lines, the current move highlighted and kept in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::chess::Color;
use crate::game::{Comment, LineVisitor, MoveNumber, Nag, NodeId, Tree, walk_line};
use crate::tui::app::{App, Mode};
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
    /// The last line of the current move's comment (its own line without one).
    current_end: usize,
    /// Where each move went: its line, first column and width, for clicks.
    moves: Vec<MoveSpot>,
}

/// A move's place in the laid-out list.
#[derive(Clone, Copy, Debug)]
struct MoveSpot {
    line: usize,
    column: usize,
    width: usize,
    node: NodeId,
}

impl Layout {
    /// Adds a word; returns its line and first column.
    fn word(&mut self, spans: Vec<Span<'static>>) -> (usize, usize) {
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
        let at = (self.lines.len(), self.used);
        self.used += w;
        self.line.extend(spans);
        at
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

fn layout(app: &App, width: u16) -> Layout {
    let styles = Styles::new(app.colors());
    let tree = app.game().tree();
    let mut out = Layout {
        width: width.max(8) as usize,
        lines: Vec::new(),
        line: Vec::new(),
        used: 0,
        indent: 0,
        glue: false,
        current: app.game().current_node(),
        current_line: 0,
        current_end: 0,
        moves: Vec::new(),
    };
    let root = tree.node(NodeId::ROOT);
    let mut list = MoveList {
        app,
        styles: &styles,
        out: &mut out,
        depth: 0,
        last_move: None,
    };
    if matches!(app.mode(), Mode::Learn(_)) {
        // Solving a puzzle: only the moves that led to it, as what followed tells the answer.
        let path = tree.path(app.game().current_node());
        for (i, pair) in path.windows(2).enumerate() {
            let pos = tree.position(pair[0]);
            let black = pos.turn() == Color::Black;
            let number = (!black || i == 0).then(|| MoveNumber {
                fullmove: pos.fullmoves(),
                black,
            });
            list.mv(tree, pair[1], number);
        }
        out.break_line(0);
        return out;
    }
    let force_number = root
        .comment_after
        .as_ref()
        .is_some_and(|comment| list.comment(comment));
    if let Some(&first) = root.children().first() {
        walk_line(tree, NodeId::ROOT, first, force_number, &mut list);
    }
    let result = app.game().result();
    if result != crate::game::GameResult::Unknown {
        out.word(vec![Span::styled(result.as_str(), styles.main)]);
    }
    out.break_line(0);
    out
}

/// Lays out what a walk over the tree meets: variations in parentheses on their own lines,
/// indented by depth; the line goes on below them.
struct MoveList<'a> {
    app: &'a App,
    styles: &'a Styles,
    out: &'a mut Layout,
    depth: usize,
    /// The move just laid out, whose comment comes next (none after a parenthesis).
    last_move: Option<NodeId>,
}

impl LineVisitor for MoveList<'_> {
    fn comment(&mut self, comment: &Comment) -> bool {
        // Clock and evaluation commands alone are not shown and do not interrupt.
        if comment.text.is_empty() {
            return false;
        }
        self.out.comment(&comment.text, self.styles.comment);
        if self.last_move == Some(self.out.current) {
            self.out.current_end = self.out.lines.len();
        }
        true
    }

    fn mv(&mut self, tree: &Tree, node: NodeId, number: Option<MoveNumber>) {
        let styles = self.styles;
        let mut spans = Vec::new();
        if let Some(number) = number {
            spans.push(Span::styled(format!("{number} "), styles.number));
        }
        let style = if node == self.out.current {
            styles.current
        } else if self.depth == 0 {
            styles.main
        } else {
            styles.variation
        };
        spans.push(Span::styled(tree.san(node).unwrap_or_default(), style));
        let mut assessed = false;
        for &nag in &tree.node(node).nags {
            assessed |= nag.glyph().is_some();
            let sep = if nag.glyph().is_some() { "" } else { " " };
            spans.push(Span::styled(format!("{sep}{}", nag_text(nag)), styles.nag));
        }
        if !assessed
            && !self.app.engine_hidden()
            && let Some(j) = judge_move(self.app.game(), node)
        {
            spans.push(Span::styled(
                j.nag().glyph().unwrap_or_default(),
                styles.judged,
            ));
        }
        let width = spans.iter().map(|s| s.content.chars().count()).sum();
        let (line, column) = self.out.word(spans);
        self.out.moves.push(MoveSpot {
            line,
            column,
            width,
            node,
        });
        if node == self.out.current {
            self.out.current_line = self.out.lines.len();
            self.out.current_end = self.out.current_line;
        }
        self.last_move = Some(node);
    }

    fn start_variation(&mut self) {
        self.last_move = None;
        self.depth += 1;
        self.out.break_line(self.depth * INDENT);
        self.out
            .word(vec![Span::styled("(", self.styles.variation)]);
        self.out.glue = true;
    }

    fn end_variation(&mut self) {
        self.last_move = None;
        self.out.line.push(Span::styled(")", self.styles.variation));
        self.out.used += 1;
        self.depth -= 1;
    }

    fn end_variations(&mut self, goes_on: bool) {
        if goes_on {
            self.out.break_line(self.depth * INDENT);
        }
    }
}

/// The first line shown of the laid-out list in `height` rows: the current move kept in view
/// with as much of its comment as fits, near the bottom when the list is long.
fn scroll(laid: &Layout, height: usize) -> usize {
    (laid.current_end.max(laid.current_line) + 1)
        .saturating_sub(height)
        .min(laid.current_line)
        .min(laid.lines.len().saturating_sub(height))
}

/// The move under cell (`x`, `y`) of the move list drawn in `area`, if any.
pub fn node_at(app: &App, area: Rect, x: u16, y: u16) -> Option<NodeId> {
    let inner = Block::default().borders(Borders::TOP).inner(area);
    if !inner.contains((x, y).into()) {
        return None;
    }
    let laid = layout(app, inner.width);
    let first = scroll(&laid, inner.height as usize);
    let line = first + usize::from(y - inner.y);
    let column = usize::from(x - inner.x);
    laid.moves
        .iter()
        .find(|m| m.line == line && (m.column..m.column + m.width).contains(&column))
        .map(|m| m.node)
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let title = match app.game().opening() {
        Some(opening) => format!(" Moves · {opening} "),
        None => " Moves ".to_owned(),
    };
    let block = Block::default().borders(Borders::TOP).title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let laid = layout(app, inner.width);
    let scroll = scroll(&laid, inner.height as usize);
    let lines = laid.lines;
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
