//! End to end: the real binary in a tmux pane. Start a game, play 1. e4, see the engine reply,
//! flip, take back, quit, and check the terminal was restored. Skipped when tmux is missing.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Session(String);

impl Session {
    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").args(args).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.0];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", &self.0])
    }

    /// Waits until the screen satisfies `ok`, or fails showing the screen.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "waiting for {what}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .output();
    }
}

#[test]
fn play_e4_see_reply_flip_takeback_quit() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux not installed: skipping the end-to-end test");
        return;
    }
    let dir = std::env::temp_dir().join(format!("kibitzer-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin = env!("CARGO_BIN_EXE_kibitzer");
    let name = format!("kibitzer-e2e-{}", std::process::id());
    let shell = format!(
        "XDG_CONFIG_HOME={d}/cfg XDG_DATA_HOME={d}/data {bin} play --white --tc untimed; echo EXITED $?; sleep 60",
        d = dir.display()
    );
    let out = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "100",
            "-y",
            "30",
            &shell,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = Session(name);
    s.wait_for("the board", |t| {
        t.contains("PLAY") && t.contains("no moves yet")
    });
    s.keys(&["e", "4", "Enter"]);
    s.wait_for("1. e4", |t| t.contains("1. e4"));
    let screen = s.wait_for("the engine's reply", |t| {
        t.lines().any(|l| {
            l.split("1. e4 ")
                .nth(1)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()))
        }) && t.contains("White to move")
    });
    assert!(!screen.contains("error"), "{screen}");
    s.keys(&["r"]);
    s.wait_for("the flipped board", |t| {
        t.lines()
            .any(|l| l.split_whitespace().take(8).collect::<String>() == "hgfedcba")
    });
    s.keys(&["u"]);
    s.wait_for("the takeback", |t| t.contains("no moves yet"));
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    // Back on the main screen, cursor visible: the terminal was restored.
    let alt = s.tmux(&[
        "display",
        "-p",
        "-t",
        &s.0,
        "#{alternate_on} #{cursor_flag}",
    ]);
    assert_eq!(alt.trim(), "0 1");
    let _ = std::fs::remove_dir_all(&dir);
}
