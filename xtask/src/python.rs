//! The Python virtual environment of `conformance` and `interop`: pyarrow, `DuckDB`, polars,
//! pyorc and numpy at the versions pinned in `xtask/requirements.txt`, installed from `PyPI` into
//! `<target>/xtask-venv` and reused while its stamp (the requirements and the interpreter's
//! version) is unchanged.

use crate::run;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The Python of the virtual environment, and the scripts of `xtask/python/`.
pub(crate) struct Python {
    interpreter: PathBuf,
    scripts: PathBuf,
}

impl Python {
    /// The environment under `target`, created or rebuilt when it is missing or stale.
    pub(crate) fn setup(root: &Path, target: &Path) -> Result<Self, String> {
        let xtask = root.join("xtask");
        let requirements = xtask.join("requirements.txt");
        let base = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
        let version = Command::new(&base)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot start {}: {e}", base.display()))?;
        let stamp_text = format!(
            "{}{}",
            String::from_utf8_lossy(&version.stdout),
            read(&requirements)?
        );
        let venv = target.join("xtask-venv");
        let interpreter = venv.join("bin").join("python");
        let stamp = venv.join("xtask-stamp");
        let python = Python {
            interpreter,
            scripts: xtask.join("python"),
        };
        if python.interpreter.exists()
            && std::fs::read_to_string(&stamp).is_ok_and(|text| text == stamp_text)
        {
            return Ok(python);
        }

        let started = Instant::now();
        println!(
            "python: creating {} from {}",
            venv.display(),
            requirements.display()
        );
        if venv.exists() {
            std::fs::remove_dir_all(&venv).map_err(|e| format!("{}: {e}", venv.display()))?;
        }
        run(Command::new(&base).args(["-m", "venv"]).arg(&venv))?;
        run(Command::new(&python.interpreter)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
            ])
            .arg(&requirements))?;
        std::fs::write(&stamp, stamp_text).map_err(|e| format!("{}: {e}", stamp.display()))?;
        println!("python: ready in {:.0} s", started.elapsed().as_secs_f64());
        Ok(python)
    }

    /// A command running `script` of `xtask/python/` (which may import the others: no
    /// `__pycache__` is written into the source tree).
    pub(crate) fn script(&self, script: &str) -> Command {
        let mut command = Command::new(&self.interpreter);
        command
            .arg(self.scripts.join(script))
            .env("PYTHONDONTWRITEBYTECODE", "1");
        command
    }
}

/// The text of a file, or an error naming it.
pub(crate) fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}
