//! The `diagtui` binary as a process, clear of the settings of the machine running it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A `diagtui` binary: the one under test (`Bin::new(env!("CARGO_BIN_EXE_diagtui"))`), or
/// another build to compare with.
#[derive(Clone, Debug)]
pub struct Bin(PathBuf);

impl Bin {
    /// The binary at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Bin {
        Bin(path.into())
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A command running it with no `DIAGTUI_*` setting of the machine (and no config file).
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.0);
        command
            .env_remove("DIAGTUI_URL")
            .env_remove("DIAGTUI_API_KEY")
            .env_remove("DIAGTUI_DATA_DIR")
            .env("DIAGTUI_CONFIG", "/dev/null");
        command
    }

    /// `diagtui serve` on a free loopback port and the data dir `dir`, ready for more
    /// arguments.
    pub fn serve_command(&self, dir: &Path) -> Command {
        let mut command = self.command();
        command
            .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
            .arg(dir);
        command
    }
}
