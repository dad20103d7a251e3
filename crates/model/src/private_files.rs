//! Files and directories readable by their user only: 0700 for a directory and 0600 for a file
//! on Unix, the platform's defaults elsewhere. The data dir, its database, its key file and the
//! TUI's log are made through these, whichever layer makes them.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io;
use std::path::Path;

/// Creates `dir` and its missing parents, each one made readable by the user only; an existing
/// directory keeps its mode.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let mut dirs = DirBuilder::new();
    dirs.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut dirs, 0o700);
    dirs.create(dir)
}

/// Options whose `create` makes a file readable by the user only (an existing file keeps its
/// mode through `open`: see [`restrict`]).
pub fn open_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

/// Makes the existing file `path` readable by the user only.
pub fn restrict(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, Permissions::from_mode(0o600))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}
