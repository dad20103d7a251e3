//! The local data dir: where it is, and opening it (creating, migrating and seeding it the
//! first time). It holds the database and `api-key`, the default account's key (mode 0600).

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::samples;
use crate::store::{DEFAULT_EMAIL, Store};

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

/// Opens the store in a data dir. A new one gets the default account, whose key is written
/// to [`KEY_FILE`], and the sample documents.
pub fn open(dir: &Path) -> anyhow::Result<Store> {
    let store = Store::open(dir).with_context(|| format!("cannot open {}", dir.display()))?;
    if let Some(key) = store.initialise(&samples::all()?)? {
        write_key(dir, &key)?;
    }
    Ok(store)
}

/// The default account's key, from [`KEY_FILE`]. When the file is missing or holds a key
/// that no longer works, the account gets a new key and the file is rewritten.
pub fn default_key(store: &Store, dir: &Path) -> anyhow::Result<String> {
    let path = dir.join(KEY_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let key = text.trim().to_owned();
        if store
            .account_by_key(&key)?
            .is_some_and(|account| account.email == DEFAULT_EMAIL)
        {
            return Ok(key);
        }
    }
    let key = store.rotate_key(DEFAULT_EMAIL)?;
    write_key(dir, &key)?;
    Ok(key)
}

/// Writes the key file, readable by the user only.
fn write_key(dir: &Path, key: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let path = dir.join(KEY_FILE);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        // A file left by an earlier run keeps its mode through `open`: set it again.
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    let mut file = options
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(file, "{key}")?;
    file.sync_all()?;
    Ok(())
}
