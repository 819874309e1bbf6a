//! Temporary files that SIGINT, SIGTERM and SIGHUP remove before pqkit dies of them.
//!
//! A thread waits for the signals (installed with the first temporary file); on one, it
//! removes every file still listed and ends the process by that signal's default
//! action, so the shell sees status 130, 143 or 129 as usual. Files are listed and
//! taken off the list (created, renamed into place, removed) under the list's lock, so
//! a signal never removes a file that is not pqkit's, nor one renamed into place. A
//! signal that pqkit was started ignoring (SIGHUP under `nohup`, SIGINT in a background
//! job) stays ignored.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Runs `f` on the list of files to remove on a signal, which waits for it.
pub(crate) fn with_temporary<T>(f: impl FnOnce(&mut Vec<PathBuf>) -> T) -> T {
    install();
    let mut temporary = TEMPORARY.lock().unwrap_or_else(PoisonError::into_inner);
    f(&mut temporary)
}

#[cfg(unix)]
fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // Without the handlers (which only fails when the system refuses them), a signal
        // does what it did before: the temporary file then stays behind.
        let wanted = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&s| !ignored(s));
        let Ok(mut signals) = Signals::new(wanted) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let temporary = TEMPORARY.lock().unwrap_or_else(PoisonError::into_inner);
                for path in temporary.iter() {
                    let _ = std::fs::remove_file(path);
                }
                // Dies of the signal, the lock held so that nothing is renamed after.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Whether the process was started ignoring `signal`, by the `SigIgn` mask of
/// /proc/self/status (Linux); elsewhere, none is taken to be.
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .zip(u32::try_from(signal - 1).ok())
        .is_some_and(|(mask, bit)| mask.checked_shr(bit).is_some_and(|m| m & 1 == 1))
}

#[cfg(not(unix))]
fn install() {}
