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

/// The module path of a file under `src/tui` (`view/moves.rs` is `["view", "moves"]`).
fn module_path(relative: &str) -> Vec<String> {
    let stem = relative.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without its `#[cfg(test)]` module and its comments.
fn code_only(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names below `crate::tui`, resolved from `super::`, `self::` and
/// `crate::tui::` (grouped imports too), as module paths with their first item.
fn named_paths(me: &[String], code: &str) -> Vec<Vec<String>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let starts = ["crate::tui::", "super::", "self::"];
        let Some((offset, start)) = starts
            .iter()
            .filter_map(|s| rest.find(s).map(|i| (i, *s)))
            .min_by_key(|&(i, _)| i)
        else {
            break;
        };
        let begin = at + offset;
        at = begin + start.len();
        if code[..begin]
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == ':')
        {
            continue;
        }
        let mut base: Vec<String> = match start {
            "crate::tui::" => Vec::new(),
            "self::" => me.to_vec(),
            _ => me[..me.len().saturating_sub(1)].to_vec(),
        };
        let mut tail = &code[at..];
        while let Some(t) = tail.strip_prefix("super::") {
            base.pop();
            tail = t;
            at += "super::".len();
        }
        let segments = |s: &str| -> Vec<String> {
            s.split("::")
                .map(|p| {
                    p.trim()
                        .chars()
                        .take_while(|&c| is_word(c))
                        .collect::<String>()
                })
                .take_while(|p| !p.is_empty())
                .collect()
        };
        match tail
            .find('{')
            .filter(|&i| !tail[..i].contains([';', '\n', ' ', '(']))
        {
            Some(open) => {
                let prefix = segments(&tail[..open]);
                let close = tail[open..].find('}').map_or(tail.len(), |c| open + c);
                for item in tail[open + 1..close].split(',') {
                    let mut path = base.clone();
                    path.extend(prefix.iter().cloned());
                    path.extend(segments(item.trim_start_matches('{')));
                    paths.push(path);
                }
            }
            None => {
                let mut path = base.clone();
                path.extend(segments(tail));
                paths.push(path);
            }
        }
    }
    paths
}

/// Groups of files of `src/tui` that import each other in a loop (each group sorted), from the
/// files' paths relative to `src/tui` and their text; test files are left out.
fn import_loops(files: &[(String, String)]) -> Vec<Vec<String>> {
    let modules: Vec<Vec<String>> = files.iter().map(|(f, _)| module_path(f)).collect();
    let edges: Vec<Vec<usize>> = files
        .iter()
        .enumerate()
        .map(|(i, (_, text))| {
            let mut to: Vec<usize> = named_paths(&modules[i], &code_only(text))
                .iter()
                .filter_map(|path| {
                    // The longest prefix of the path that is a file of the interface.
                    (1..=path.len())
                        .rev()
                        .find_map(|n| modules.iter().position(|m| m[..] == path[..n]))
                })
                .filter(|&j| j != i)
                .collect();
            to.sort_unstable();
            to.dedup();
            to
        })
        .collect();
    // Which files reach which: a loop is a set of files that all reach each other.
    let n = files.len();
    let mut reach = vec![vec![false; n]; n];
    for (i, to) in edges.iter().enumerate() {
        let mut stack = to.clone();
        while let Some(j) = stack.pop() {
            if !reach[i][j] {
                reach[i][j] = true;
                stack.extend(&edges[j]);
            }
        }
    }
    let mut loops: Vec<Vec<String>> = Vec::new();
    for (i, row) in reach.iter().enumerate() {
        let mut group: Vec<String> = (0..n)
            .filter(|&j| j == i || (row[j] && reach[j][i]))
            .map(|j| files[j].0.clone())
            .collect();
        group.sort();
        if group.len() > 1 && !loops.contains(&group) {
            loops.push(group);
        }
    }
    loops
}

#[test]
fn the_interface_has_no_import_loop() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("tui");
    let files: Vec<(String, String)> = sources(&tui)
        .into_iter()
        .map(|(path, text)| {
            let relative = Path::new(&path)
                .strip_prefix(&tui)
                .unwrap()
                .display()
                .to_string();
            (relative, text)
        })
        .filter(|(f, _)| !f.ends_with("tests.rs") && !f.ends_with("snapshots.rs"))
        .collect();
    let loops = import_loops(&files);
    assert!(
        loops.is_empty(),
        "files of src/tui in an import loop: {loops:?}"
    );
}

#[test]
fn an_import_loop_is_found() {
    let file = |name: &str, text: &str| (name.to_owned(), text.to_owned());
    let files = [
        file("app.rs", "use super::mode::Mode;\n"),
        file("mode.rs", "use super::{clock::Clocks, play};\n"),
        file("clock.rs", "pub struct Clocks;\n"),
        file("play.rs", "fn f(a: &crate::tui::app::App) {}\n"),
        file("view/board.rs", "use super::super::app::App;\n"),
    ];
    assert_eq!(
        import_loops(&files),
        [["app.rs", "mode.rs", "play.rs"]],
        "app -> mode -> play -> app"
    );
    assert!(import_loops(&files[2..]).is_empty());
}
