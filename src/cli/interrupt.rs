//! Ctrl-C, SIGTERM and SIGHUP for the headless commands: the temporary files of saves in
//! progress are removed and the process ends with status 130, unless the command asked to
//! finish its work first (`annotate` writes the games it has), when the first signal only sets
//! a flag and a second one ends it the same way.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static GRACEFUL: AtomicBool = AtomicBool::new(false);
static SIGNALS: AtomicUsize = AtomicUsize::new(0);

/// Installs the handler; called once, before any command runs.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let seen = SIGNALS.fetch_add(1, Ordering::SeqCst);
        if GRACEFUL.load(Ordering::SeqCst) && seen == 0 {
            return;
        }
        kibitzer::game::remove_temporaries();
        std::process::exit(130);
    });
}

/// From now on the first signal only sets [`interrupted`]; the command polls it and stops.
pub fn finish_work_on_signal() {
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// Whether a signal came.
pub fn interrupted() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}
