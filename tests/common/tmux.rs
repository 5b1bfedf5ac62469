//! The terminal interface in a real tmux pane: a session to send keys to and read the screen
//! of, fresh homes for the binary, and readers of what it leaves behind.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A detached tmux session, by name; ended when dropped.
pub struct Session(pub String);

impl Session {
    /// Runs `command` in a new detached tmux session of `width` x `height`, named after
    /// `tag` and this process. The shell stays open after the program exits, so the test can
    /// read the `EXITED` line and the restored screen.
    pub fn start(tag: &str, width: u16, height: u16, command: &str) -> Session {
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

    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").args(args).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Sends `keys`. An Escape goes alone with a pause after it, or the terminal would read it
    /// and the next key as one alt-key.
    pub fn keys(&self, keys: &[&str]) {
        for group in keys.split_inclusive(|&k| k == "Escape") {
            let mut args = vec!["send-keys", "-t", &self.0];
            args.extend_from_slice(group);
            self.tmux(&args);
            if group.last() == Some(&"Escape") {
                sleep(Duration::from_millis(150));
            }
        }
    }

    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", &self.0])
    }

    /// Quits with `q`, answering the question about the unsaved game with `n` (discard it).
    pub fn quit_discarding(&self) {
        self.keys(&["q"]);
        self.wait_for("the quit question", |t| t.contains("Save it as PGN"));
        self.keys(&["n"]);
        self.wait_for("the exit", |t| t.contains("EXITED 0"));
    }

    /// Waits until the screen satisfies `ok`, or fails showing the screen.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
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

pub fn tmux_missing() -> bool {
    let missing = Command::new("tmux").arg("-V").output().is_err();
    if missing {
        eprintln!("tmux not installed: skipping the end-to-end test");
    }
    missing
}

/// A fresh home for one test: its config and data folders, and the command line that runs
/// kibitzer with `args` there.
pub fn fresh_home(tag: &str, args: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("kibitzer-e2e-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    fresh_home_keep(&dir, args)
}

/// The command line for `args` in the home `dir` made by `fresh_home`, keeping its files.
pub fn fresh_home_keep(dir: &std::path::Path, args: &str) -> (std::path::PathBuf, String) {
    // A config file, empty (the defaults): without one, the first start welcomes the user.
    let config = dir.join("cfg/kibitzer/config.toml");
    if !config.exists() {
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::write(&config, "").unwrap();
    }
    let command = format!(
        "HOME={d} XDG_CONFIG_HOME={d}/cfg XDG_DATA_HOME={d}/data {bin} {args}",
        d = dir.display(),
        bin = env!("CARGO_BIN_EXE_kibitzer"),
    );
    (dir.to_owned(), command)
}

/// The autosave file of a run in `dir`'s data folder, if there is one.
pub fn autosave_file(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir.join("data/kibitzer"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("autosave"))
        })
}

/// The moves of the game in the autosave (UCI), or `None` when there is none.
pub fn autosaved_moves(path: &std::path::Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with("moves"))?;
    Some(
        line.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect(),
    )
}

/// The status line shows a result.
pub fn game_over(screen: &str) -> bool {
    screen.lines().any(|l| {
        l.starts_with(" PLAY ") && (l.contains("1-0") || l.contains("0-1") || l.contains("1/2"))
    })
}

/// A sound move for the player, from the engine's own UCI front end at a few thousand nodes.
pub struct Adviser(std::process::Child);

impl Adviser {
    pub fn start() -> Adviser {
        let child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
            .arg("uci")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        Adviser(child)
    }

    pub fn best(&mut self, moves: &[String]) -> String {
        use std::io::{BufRead, Write};
        let stdin = self.0.stdin.as_mut().unwrap();
        writeln!(stdin, "position startpos moves {}", moves.join(" ")).unwrap();
        writeln!(stdin, "go nodes 3000").unwrap();
        let stdout = std::io::BufReader::new(self.0.stdout.as_mut().unwrap());
        for line in stdout.lines() {
            let line = line.unwrap();
            if let Some(rest) = line.strip_prefix("bestmove ") {
                return rest.split_whitespace().next().unwrap().to_owned();
            }
        }
        panic!("the adviser stopped");
    }
}

impl Drop for Adviser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A captured line without its escape sequences.
pub fn strip_escapes(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters final-byte.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
