//! What the text protocols our engine speaks (UCI, xboard) share: the output that the command
//! loop and the event printer write whole lines to, and the input read line by line.

use std::borrow::Cow;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};

/// Output shared by the command loop and the event printer; each line is written whole.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // A closed stdout leaves nothing to tell; the GUI is gone.
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// Hands each line of `input` to `handle` until it returns false or the input ends. Lines are
/// read as bytes: one that is not UTF-8 (a Latin-1 path from a GUI) comes decoded with
/// replacement characters (`Cow::Owned`).
pub fn read_lines(mut input: impl BufRead, mut handle: impl FnMut(Cow<'_, str>) -> bool) {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !handle(String::from_utf8_lossy(&bytes)) {
            break;
        }
    }
}

/// An output the protocols' tests read back.
#[cfg(test)]
pub(crate) mod testing {
    use std::io::Write;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// A writer the test can read back (clones share it).
    #[derive(Clone, Default)]
    pub struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        pub fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }

        pub fn clear(&self) {
            self.0.lock().unwrap().clear();
        }

        /// Waits (up to 20 s) until `found` finds something in the text, and returns it.
        fn wait<T>(&self, what: &str, found: impl Fn(&str) -> Option<T>) -> T {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if let Some(t) = found(&self.text()) {
                    return t;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            panic!("no {what} in:\n{}", self.text());
        }

        /// Waits for `needle` anywhere and returns the whole text.
        pub fn wait_for(&self, needle: &str) -> String {
            self.wait(&format!("'{needle}'"), |t| {
                t.contains(needle).then(|| t.to_owned())
            })
        }

        /// Waits for a line starting with `prefix` and returns that line.
        pub fn wait_for_line(&self, prefix: &str) -> String {
            self.wait(&format!("line starting '{prefix}'"), |t| {
                t.lines().find(|l| l.starts_with(prefix)).map(str::to_owned)
            })
        }
    }
}
