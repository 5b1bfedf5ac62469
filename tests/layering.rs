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

/// The allowed arrows of ARCHITECTURE.md: `- module -> a, b` lines under "Allowed arrows".
fn allowed_arrows(map: &str) -> Vec<(String, Vec<String>)> {
    let section = map
        .split("## Allowed arrows")
        .nth(1)
        .expect("ARCHITECTURE.md has an 'Allowed arrows' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| l.split_once("->"))
        .map(|(from, to)| {
            let to = to
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect();
            (from.trim().to_owned(), to)
        })
        .collect()
}

/// The top-level modules a file's code imports through `prefix` (`crate` or `kibitzer`),
/// grouped imports (`crate::{a::X, b}`, over several lines too) included; comments are skipped.
fn imported_modules(text: &str, prefix: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let head = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let needle = format!("{prefix}::");
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find(&needle) {
        let start = at + i;
        at = start + needle.len();
        // `kibitzer::` must not be the tail of another path (`my_kibitzer::`).
        if code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &code[at..];
        let Some(group) = rest.strip_prefix('{') else {
            found.push(head(rest));
            continue;
        };
        // The items of the group at its own depth: `a::{x, y}, b` gives a and b.
        let (mut depth, mut item_start) = (0, 0);
        for (k, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    found.push(head(&group[item_start..k]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    found.push(head(&group[item_start..k]));
                    item_start = k + 1;
                }
                _ => {}
            }
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

/// Every import between top-level modules that the map does not allow, as "file: a -> b".
fn forbidden_arrows(
    arrows: &[(String, Vec<String>)],
    files: &[(String, String, String)],
) -> Vec<String> {
    let modules: Vec<&str> = arrows.iter().map(|(m, _)| m.as_str()).collect();
    let mut bad = Vec::new();
    for (path, module, text) in files {
        let prefix = if module == "cli" { "kibitzer" } else { "crate" };
        let allowed = arrows
            .iter()
            .find(|(m, _)| m == module)
            .map(|(_, to)| to.as_slice())
            .unwrap_or_default();
        for target in imported_modules(text, prefix) {
            let known = modules.contains(&target.as_str());
            if known && target != *module && !allowed.contains(&target) {
                bad.push(format!("{path}: {module} -> {target}"));
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

/// The library's and the binary's files with their top-level module (`cli` for the binary).
fn files_by_module() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let module = match name.as_str() {
            "main" => "cli".to_owned(),
            "lib" | "test_data" => continue,
            _ => name,
        };
        let texts = if path.is_dir() {
            sources(&path)
        } else {
            vec![(
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            )]
        };
        for (file, text) in texts {
            files.push((file, module.clone(), text));
        }
    }
    files
}

#[test]
fn every_import_between_modules_is_an_arrow_of_the_map() {
    let map =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md at the root");
    let arrows = allowed_arrows(&map);
    let files = files_by_module();
    // Every module of the code is on the map, and the map names no module that is gone.
    let mut on_map: Vec<&str> = arrows.iter().map(|(m, _)| m.as_str()).collect();
    let mut in_code: Vec<&str> = files.iter().map(|(_, m, _)| m.as_str()).collect();
    on_map.sort();
    in_code.sort();
    in_code.dedup();
    assert_eq!(on_map, in_code, "ARCHITECTURE.md's modules against src/");
    let bad = forbidden_arrows(&arrows, &files);
    assert!(
        bad.is_empty(),
        "imports the map does not allow:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_forbidden_arrow_is_found() {
    let arrows = allowed_arrows(
        "## Allowed arrows\n- chess ->\n- engine -> chess\n- game -> chess\n- tui -> chess, engine\n- cli -> tui\n",
    );
    let file = |path: &str, module: &str, text: &str| {
        (path.to_owned(), module.to_owned(), text.to_owned())
    };
    let files = [
        file("src/engine/a.rs", "engine", "use crate::chess::Position;\n"),
        file(
            "src/chess/b.rs",
            "chess",
            "// crate::engine in a comment\nuse crate::{engine::X, chess::Y};\n",
        ),
        file(
            "src/tui/c.rs",
            "tui",
            "let x = crate::engine::f(crate::chess::g());\n",
        ),
        file(
            "src/main.rs",
            "cli",
            "use kibitzer::chess::Position;\nuse my_kibitzer::engine::x;\n",
        ),
        file(
            "src/tui/d.rs",
            "tui",
            "use crate::{\n    engine::{A, B},\n    game::Tree,\n};\n",
        ),
    ];
    assert_eq!(
        forbidden_arrows(&arrows, &files),
        [
            "src/chess/b.rs: chess -> engine",
            "src/main.rs: cli -> chess",
            "src/tui/d.rs: tui -> game",
        ]
    );
}
