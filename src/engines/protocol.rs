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
