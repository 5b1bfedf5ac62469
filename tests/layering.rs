//! The dependency rules of the layout: the engine knows nothing of the tablebase module or of
//! shakmaty (it owns a probing trait), and nothing outside the interface imports it.

use std::path::Path;

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.display().to_string(), text));
        }
    }
    out
}

fn uses(text: &str, what: &str) -> bool {
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with("//"))
        .any(|l| l.contains(what))
}

#[test]
fn the_engine_depends_on_neither_the_tables_nor_shakmaty() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (path, text) in sources(&src.join("engine"))
        .into_iter()
        .chain(sources(&src.join("chess")))
    {
        for what in ["crate::tablebase", "shakmaty", "crate::tui", "crate::uci"] {
            assert!(!uses(&text, what), "{path} uses {what}");
        }
    }
}

#[test]
fn nothing_outside_the_interface_imports_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (path, text) in sources(&src) {
        if !path.contains("/src/tui/") && !path.ends_with("main.rs") {
            assert!(!uses(&text, "crate::tui"), "{path} imports the interface");
        }
    }
}
