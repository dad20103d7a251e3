//! The local data dir: where it is, and setting it up (creating, migrating and seeding it the
//! first time). It holds the database and `api-key`, the default account's key; the dir is
//! readable by the user only (0700), and so are the files in it (0600).

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::samples;
use diagtui_model::private_files;
use diagtui_store::{self as store, DEFAULT_EMAIL, Location};

/// The file holding the default account's API key.
pub const KEY_FILE: &str = "api-key";

/// The data dir: the flag (or `DIAGTUI_DATA_DIR`, which clap folds into it), else the
/// platform data dir's `diagtui`, else `./diagtui-data` on a platform without one.
pub fn resolve(flag: Option<PathBuf>) -> PathBuf {
    flag.unwrap_or_else(|| {
        dirs::data_dir()
            .map(|dir| dir.join("diagtui"))
            .unwrap_or_else(|| PathBuf::from("diagtui-data"))
    })
}

/// A warning when an existing data dir can be read or entered by other users, with how to fix
/// it; `None` when it is private or does not exist yet (it is then created private).
pub fn looseness_warning(dir: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir).ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then(|| {
            format!(
                "warning: the data dir {} has mode {mode:04o}: other users can see into it; \
                 `chmod 700 {}` makes it private",
                dir.display(),
                dir.display()
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// Sets up a data dir: a new one gets the default account, whose key is written to
/// [`KEY_FILE`], and the sample documents.
pub async fn prepare(dir: &Path) -> anyhow::Result<()> {
    let at = Location::DataDir(dir.to_owned());
    if let Some(key) = seed(&at)
        .await
        .with_context(|| format!("cannot open {}", dir.display()))?
    {
        write_key(dir, &key)?;
    }
    Ok(())
}

/// Gives an empty database the default account and the sample documents; the account's key,
/// or `None` when the database was set up already.
pub async fn seed(at: &Location) -> anyhow::Result<Option<String>> {
    Ok(store::initialise(at, &samples::all()?).await?)
}

/// The default account's key, from [`KEY_FILE`]. When the file is missing or holds a key
/// that no longer works, the account gets a new key and the file is rewritten.
pub async fn default_key(dir: &Path) -> anyhow::Result<String> {
    let at = Location::DataDir(dir.to_owned());
    let path = dir.join(KEY_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let key = text.trim().to_owned();
        let account = store::account_by_key(&at, &key).await?;
        if account.is_some_and(|account| account.email == DEFAULT_EMAIL) {
            return Ok(key);
        }
    }
    let key = store::rotate_key(&at, DEFAULT_EMAIL).await?;
    write_key(dir, &key)?;
    Ok(key)
}

/// Writes the key file, readable by the user only.
fn write_key(dir: &Path, key: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let path = dir.join(KEY_FILE);
    // A file left by an earlier run keeps its mode through `open`: set it again.
    if path.exists() {
        private_files::restrict(&path)?;
    }
    let mut file = private_files::open_options()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(file, "{key}")?;
    file.sync_all()?;
    Ok(())
}
