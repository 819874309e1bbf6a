//! A progress line on standard error for long runs: rows done (of how many, when
//! known), drawn only when standard error is a terminal and the run has taken a second.
//!
//! Written by hand rather than with `indicatif`: one line redrawn with `\r` is all that
//! is needed, and `indicatif` would bring its own dependencies (console, unicode-width,
//! a ticker thread) for it.

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

/// Nothing is drawn before the run has taken this long.
const QUIET: Duration = Duration::from_secs(1);
/// Redraws are at least this far apart.
const INTERVAL: Duration = Duration::from_millis(100);
/// The bar's width in characters.
const WIDTH: usize = 30;

/// The progress of a run, drawn on standard error.
pub(crate) struct Progress {
    /// `None` when nothing is drawn (standard error is not a terminal).
    start: Option<Instant>,
    total: Option<u64>,
    next_draw: Duration,
    /// The rows done when the clock was last read.
    checked: u64,
    drawn: bool,
}

impl Progress {
    /// Progress towards `total` rows (when known).
    pub(crate) fn new(total: Option<u64>) -> Self {
        Self {
            start: std::io::stderr().is_terminal().then(Instant::now),
            total,
            next_draw: QUIET,
            checked: 0,
            drawn: false,
        }
    }

    /// `done` rows are done.
    pub(crate) fn update(&mut self, done: u64) {
        let Some(start) = self.start else {
            return;
        };
        // Reading the clock for every row of a fast run would show.
        if done.saturating_sub(self.checked) < 256 {
            return;
        }
        self.checked = done;
        let elapsed = start.elapsed();
        if elapsed < self.next_draw {
            return;
        }
        self.next_draw = elapsed + INTERVAL;
        let line = render(done, self.total, elapsed);
        // A progress line that cannot be written is no reason to stop.
        let _ = write!(std::io::stderr().lock(), "\r{line}\x1b[K");
        self.drawn = true;
    }
}

impl Drop for Progress {
    /// Clears the line, so that what follows (a message) starts clean.
    fn drop(&mut self) {
        if self.drawn {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// The progress line: `[#######-------] 1200/5000 rows 24% 1.5s`, or without a total
/// `1200 rows 1.5s`.
fn render(done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    match total {
        Some(total) if total > 0 => {
            let done = done.min(total);
            // Both fit a u128, and the quotients are at most WIDTH and 100.
            let filled = usize::try_from(u128::from(done) * WIDTH as u128 / u128::from(total))
                .unwrap_or(WIDTH);
            let percent = u128::from(done) * 100 / u128::from(total);
            format!(
                "[{}{}] {done}/{total} rows {percent}% {seconds:.1}s",
                "#".repeat(filled),
                "-".repeat(WIDTH - filled),
            )
        }
        _ => format!("{done} rows {seconds:.1}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_show_rows_and_total() {
        let second = Duration::from_millis(1500);
        assert_eq!(
            render(1200, Some(4800), second),
            "[#######-----------------------] 1200/4800 rows 25% 1.5s"
        );
        assert_eq!(
            render(9, Some(9), second),
            "[##############################] 9/9 rows 100% 1.5s"
        );
        assert_eq!(render(1200, None, second), "1200 rows 1.5s");
        assert_eq!(render(0, Some(0), second), "0 rows 1.5s");
    }

    #[test]
    fn nothing_is_drawn_off_a_terminal() {
        // Tests run with standard error captured, not on a terminal.
        let mut progress = Progress::new(Some(10));
        if progress.start.is_none() {
            for i in 0..1000 {
                progress.update(i);
            }
            assert!(!progress.drawn);
        }
    }
}
