//! Shell completions and man pages come from the command-line definitions.

use std::process::Command;

fn kibitzer(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn completions_for_each_shell_know_the_subcommands() {
    for shell in ["bash", "zsh", "fish"] {
        let script = kibitzer(&["completions", shell]);
        for sub in ["play", "annotate", "datagen", "completions"] {
            assert!(script.contains(sub), "{shell} misses {sub}");
        }
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn man_pages_for_the_command_and_each_subcommand() {
    let page = kibitzer(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH kibitzer 1"),
        "{page}"
    );
    let dir = std::env::temp_dir().join(format!("kibitzer-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let listed = kibitzer(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(listed.lines().count() >= 15, "{listed}");
    let play = std::fs::read_to_string(dir.join("kibitzer-play.1")).unwrap();
    assert!(
        play.contains(".TH kibitzer-play 1") && play.contains("\\-\\-level"),
        "{play}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
