//! End to end: the real binary in a tmux pane. Start a game, play 1. e4, see the engine reply,
//! flip, take back, quit, and check the terminal was restored. Skipped when tmux is missing.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Session(String);

impl Session {
    /// Runs `command` in a new detached tmux session of `width` x `height`, named after
    /// `tag` and this process. The shell stays open after the program exits, so the test can
    /// read the `EXITED` line and the restored screen.
    fn start(tag: &str, width: u16, height: u16, command: &str) -> Session {
        let name = format!("kibitzer-e2e-{tag}-{}", std::process::id());
        let shell = format!("{command}; echo EXITED $?; sleep 60");
        let (w, h) = (width.to_string(), height.to_string());
        let out = Command::new("tmux")
            .args(["new-session", "-d", "-s", &name, "-x", &w, "-y", &h, &shell])
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Session(name)
    }

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
    let s = Session::start(
        "play",
        100,
        30,
        &format!(
            "XDG_CONFIG_HOME={d}/cfg XDG_DATA_HOME={d}/data {bin} play --white --tc untimed",
            d = dir.display()
        ),
    );
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

/// Browse a PGN file, filter, open a game, make a variation, write it out, quit.
#[test]
fn browse_filter_open_annotate_and_write() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux not installed: skipping the end-to-end test");
        return;
    }
    let dir = std::env::temp_dir().join(format!("kibitzer-e2e-browse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.pgn");
    std::fs::write(
        &games,
        "[White \"Alice\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Nf3 *\n\n\
         [White \"Carol\"]\n[Black \"Dave\"]\n[ECO \"D02\"]\n\n1. d4 d5 2. Nf3 Nf6 *\n\n\
         [White \"Erin\"]\n[Black \"Frank\"]\n\n1. e4 Ke7 2. Qxf7 *\n",
    )
    .unwrap();
    let out_file = dir.join("out.pgn");
    let bin = env!("CARGO_BIN_EXE_kibitzer");
    let s = Session::start(
        "browse",
        120,
        32,
        &format!(
            "XDG_CONFIG_HOME={d}/cfg XDG_DATA_HOME={d}/data {bin} analyse {g}",
            d = dir.display(),
            g = games.display()
        ),
    );
    s.wait_for("the game list", |t| {
        t.contains("BROWSE") && t.contains("Carol") && t.contains("1 with errors")
    });
    s.keys(&["d02"]);
    s.wait_for("the filtered list", |t| {
        t.contains("1 of 3 games") && !t.contains("Alice")
    });
    s.keys(&["Enter"]);
    s.wait_for("the opened game", |t| {
        t.contains("ANALYSE") && t.contains("1. d4 d5 2. Nf3 Nf6")
    });
    s.keys(&["j", "c", "5", "Enter"]);
    s.wait_for("the variation", |t| t.contains("(1... c5)"));
    s.keys(&["w"]);
    s.wait_for("the write prompt", |t| t.contains("Write PGN to"));
    s.keys(&[&out_file.display().to_string(), "Enter"]);
    s.wait_for("the save", |t| t.contains("saved to"));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("[White \"Carol\"]"), "{written}");
    assert!(
        written.contains("1. d4 d5 (1... c5) 2. Nf3 Nf6 *"),
        "{written}"
    );
    s.keys(&["q"]);
    s.wait_for("the exit", |t| t.contains("EXITED 0"));
    let _ = std::fs::remove_dir_all(&dir);
}
