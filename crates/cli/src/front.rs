//! The TUI, as the command line starts it. The binary hands it in ([`Front`]), so that this
//! crate does not build on the TUI's: an edit to the TUI rebuilds the TUI and the binary only.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use diagtui_client::Client;

/// What the TUI runs on besides its own settings: the connection made for it.
pub struct Session {
    /// The client, talking HTTP to the server (the local one or a remote one).
    pub client: Client,
    /// How the status bar names the connection (`local /path`, or a URL and its profile).
    pub mode: String,
    /// The account's e-mail, when known (local mode).
    pub account: Option<String>,
    /// The time between polls of a server without change events (zero: never).
    pub poll: Duration,
    /// The data dir, where the TUI keeps what it remembers (in remote mode too).
    pub data_dir: PathBuf,
}

/// The TUI, as the command line starts it (`diagtui` with no command) and prints its keys
/// (`diagtui keys`).
pub trait Front {
    /// Its settings in force.
    type Settings;

    /// Its settings from the config file's text (none without a file), or the first that
    /// cannot be used, as `line N: what is wrong` (the command line names the file).
    fn settings(&self, text: Option<&str>) -> Result<Self::Settings, String>;

    /// The key table `settings` put in force, as text or as Markdown.
    fn key_table(&self, settings: &Self::Settings, markdown: bool) -> String;

    /// Starts its log file in `data_dir`.
    fn init_log(&self, data_dir: &Path) -> std::io::Result<()>;

    /// Runs it on `session` until the user quits.
    fn run(
        &self,
        settings: Self::Settings,
        session: Session,
    ) -> impl Future<Output = anyhow::Result<()>>;
}
