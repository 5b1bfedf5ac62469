//! The documents at the root keep their prose within 100 columns, as the code does, so that a diff
//! of a reworded paragraph stays readable. Headings, tables, code blocks and lines with a web
//! address may run longer: breaking them would break what they show (tables and code blocks also
//! when indented inside a list item).

use std::path::Path;

const WIDTH: usize = 100;

/// The lines of `text` past `WIDTH` characters that are prose, as (line number, length).
fn long_prose_lines(text: &str) -> Vec<(usize, usize)> {
    let mut in_code = false;
    let mut long = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let exempt =
            in_code || line.starts_with('#') || trimmed.starts_with('|') || line.contains("://");
        let width = line.chars().count();
        if !exempt && width > WIDTH {
            long.push((i + 1, width));
        }
    }
    long
}

#[test]
fn root_documents_wrap_prose_at_100_columns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["README.md", "ARCHITECTURE.md", "SEARCH.md", "NETWORKS.md"] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        let long = long_prose_lines(&text);
        assert!(
            long.is_empty(),
            "{name}: lines (number, width) past {WIDTH}: {long:?}"
        );
    }
}

#[test]
fn code_blocks_tables_and_headings_may_run_long() {
    let wide = "x".repeat(WIDTH + 1);
    let text = [
        format!("# {wide}"),
        format!("| {wide} |"),
        "```".into(),
        wide.clone(),
        "```".into(),
        format!("see https://{wide}"),
        "- an item holding a table and a code block:".into(),
        String::new(),
        format!("  | {wide} |"),
        "  ```".into(),
        format!("  {wide}"),
        "  ```".into(),
        wide.clone(),
    ]
    .join("\n");
    assert_eq!(long_prose_lines(&text), vec![(13, WIDTH + 1)]);
}
