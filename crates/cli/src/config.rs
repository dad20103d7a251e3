//! Connection settings shared by the TUI and the CLI: which server, which key, which timeouts.
//!
//! Resolution, field by field: flags, then the environment (`DIAGTUI_URL`, `DIAGTUI_API_KEY`; clap
//! reads both), then a profile of the config file (`--profile NAME`, else a `default` profile if
//! the file has one), else local mode: the local server started in-process on the data dir.
//!
//! The config file is `--config FILE`, else `DIAGTUI_CONFIG` when set, else
//! `dirs::config_dir()/diagtui/config.toml`; a file named by the flag or the variable must
//! exist ([`config_path`]):
//!
//! ```toml
//! [profiles.default]
//! url = "https://diagrams.example.com"
//! api_key = "..."
//! connect_timeout = 5   # seconds, optional
//! timeout = 30          # seconds, optional
//! poll = 5              # seconds between polls without change events, optional; 0: never
//! ```
//!
//! The same file holds the TUI's settings: the command line reads its text ([`read_text`]) and
//! hands it to the TUI, which reads its own tables (see `tui::settings`, `tui::keys` and
//! `tui::theme` for what they mean):
//!
//! ```toml
//! theme = "light"
//! [styles]
//! selected = "black on yellow"
//! [keys.objects]
//! delete = "x"
//! [map]
//! status_key = "health"   # the meta entry read as a component's status
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use serde::Deserialize;

use diagtui_client::DEFAULT_POLL;
use diagtui_client::{ApiKey, ClientConfig};

/// The environment variable that overrides the config file's path.
pub const CONFIG_ENV: &str = "DIAGTUI_CONFIG";

/// The connection flags and the config file that holds the profiles, flattened into the
/// top-level command line as global flags.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct ConnectionArgs {
    /// Root URL of an API server, e.g. https://diagrams.example.com (without /api/v1).
    #[arg(long, global = true, env = "DIAGTUI_URL", value_name = "URL")]
    pub url: Option<String>,
    /// API key for --url (sent as `Authorization: Bearer`; never printed).
    #[arg(
        long,
        global = true,
        env = "DIAGTUI_API_KEY",
        hide_env_values = true,
        value_name = "KEY",
        value_parser = parse_key
    )]
    pub api_key: Option<ApiKey>,
    /// Profile of the config file to use (default: the `default` profile, if there is one).
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Seconds to wait for a connection [default: 5].
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    pub connect_timeout: Option<Duration>,
    /// Seconds to wait for a whole answer [default: 30].
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Seconds between polls of a server without change events (the TUI, `doc watch`)
    /// [default: 5; 0 turns polling off].
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_poll)]
    pub poll: Option<Duration>,
    /// The config file (profiles, keys, looks); it must exist [default: DIAGTUI_CONFIG, else
    /// the platform config dir/diagtui/config.toml].
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The outcome of resolution, before any connection.
#[derive(Debug)]
pub struct Settings {
    /// URL, key and profile name of a remote server; `None` for local mode.
    pub remote: Option<(String, ApiKey, Option<String>)>,
    /// The timeouts given, applied to the client of either mode.
    pub timeouts: Timeouts,
    /// The time between polls of a server without change events; zero: never poll.
    pub poll: Duration,
}

/// Resolves the connection settings from flags, environment and the config file; nothing is
/// contacted or started (that is [`crate::connect`]'s).
pub fn settings(args: &ConnectionArgs) -> anyhow::Result<Settings> {
    let config = config_path(args.config.as_deref()).map_err(|e| anyhow!(e))?;
    resolve(args, config.as_ref().map(|c| c.path.as_path()))
}

/// The timeouts given, each falling back to the client's default.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timeouts {
    /// To connect.
    pub connect: Option<Duration>,
    /// For a whole answer.
    pub request: Option<Duration>,
}

impl Timeouts {
    /// The client settings with these timeouts where they were given.
    pub fn apply(self, mut config: ClientConfig) -> ClientConfig {
        if let Some(connect) = self.connect {
            config.connect_timeout = connect;
        }
        if let Some(request) = self.request {
            config.request_timeout = request;
        }
        config
    }
}

/// One `[profiles.NAME]` table of the config file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Profile {
    url: String,
    #[serde(deserialize_with = "deserialize_key")]
    api_key: ApiKey,
    #[serde(default)]
    connect_timeout: Option<f64>,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    poll: Option<f64>,
}

/// The config file, as the connection reads it (the TUI's tables are [`UiFile`]'s).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
    #[serde(default, rename = "theme")]
    _theme: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "styles")]
    _styles: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "keys")]
    _keys: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "map")]
    _map: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "serve")]
    _serve: Option<serde::de::IgnoredAny>,
}

/// Flags and environment first, then the profile of the config file at `config`.
///
/// A profile's key goes only to that profile's server: `--url` (or `DIAGTUI_URL`) with a
/// profile needs its own `--api-key`, and the `default` profile is used only when flags and
/// environment name no server and no key. Timeouts are taken field by field.
fn resolve(args: &ConnectionArgs, config: Option<&Path>) -> anyhow::Result<Settings> {
    let from_flags = args.url.is_some() || args.api_key.is_some();
    let profile = if args.profile.is_some() || !from_flags {
        load_profile(config, args.profile.as_deref())?
    } else {
        None
    };
    let seconds = |secs: Option<f64>, what: &str| -> anyhow::Result<Option<Duration>> {
        secs.map(|s| duration_from_secs(s).map_err(|e| anyhow!("profile {what}: {e}")))
            .transpose()
    };
    let profile_fields = profile.as_ref().map(|(_, p)| p);
    let timeouts = Timeouts {
        connect: match args.connect_timeout {
            Some(d) => Some(d),
            None => seconds(
                profile_fields.and_then(|p| p.connect_timeout),
                "connect_timeout",
            )?,
        },
        request: match args.timeout {
            Some(d) => Some(d),
            None => seconds(profile_fields.and_then(|p| p.timeout), "timeout")?,
        },
    };
    let poll = match (args.poll, profile_fields.and_then(|p| p.poll)) {
        (Some(poll), _) => poll,
        (None, Some(secs)) => poll_from_secs(secs).map_err(|e| anyhow!("profile poll: {e}"))?,
        (None, None) => DEFAULT_POLL,
    };
    let remote = match (&args.url, &args.api_key, profile) {
        (Some(url), Some(key), profile) => Some((url.clone(), key.clone(), profile.map(|p| p.0))),
        (None, key, Some((name, p))) => Some((p.url, key.clone().unwrap_or(p.api_key), Some(name))),
        (Some(_), None, Some((name, _))) => bail!(
            "--url replaces the server of profile \"{name}\": give its --api-key too \
             (a profile's key is sent only to the profile's own server)"
        ),
        (Some(_), None, None) => {
            bail!("--url needs an API key: pass --api-key or set DIAGTUI_API_KEY")
        }
        (None, Some(_), None) => bail!("--api-key needs a server: pass --url or set DIAGTUI_URL"),
        (None, None, None) => None,
    };
    Ok(Settings {
        remote,
        timeouts,
        poll,
    })
}

/// The profile named, or the `default` profile when none is named and the file has one.
fn load_profile(
    path: Option<&Path>,
    name: Option<&str>,
) -> anyhow::Result<Option<(String, Profile)>> {
    let file = match path {
        Some(path) => read_config::<ConfigFile>(path)?.map(|(file, _)| file),
        None => None,
    };
    let Some(mut file) = file else {
        return match name {
            Some(name) => Err(anyhow!(
                "no profile \"{name}\": there is no config file{}",
                path.map(|p| format!(" at {}", p.display()))
                    .unwrap_or_default()
            )),
            None => Ok(None),
        };
    };
    match name {
        Some(name) => match file.profiles.remove(name) {
            Some(profile) => Ok(Some((name.to_owned(), profile))),
            None => {
                let known: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
                bail!(
                    "no profile \"{name}\" in {} (it has: {})",
                    path.expect("a file was read").display(),
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                )
            }
        },
        None => Ok(file
            .profiles
            .remove("default")
            .map(|p| ("default".to_owned(), p))),
    }
}

/// What named the config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedBy {
    /// `--config`.
    Flag,
    /// `DIAGTUI_CONFIG`.
    Env,
    /// Nothing: the platform's place, read when it exists.
    Default,
}

/// The config file to read and what named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigPath {
    /// The file.
    pub path: PathBuf,
    /// What named it.
    pub named_by: NamedBy,
}

impl std::fmt::Display for ConfigPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match self.named_by {
            NamedBy::Flag => write!(f, "{path} (--config)"),
            NamedBy::Env => write!(f, "{path} ({CONFIG_ENV})"),
            NamedBy::Default => write!(f, "{path}"),
        }
    }
}

/// The config file: `flag` (`--config`), else `DIAGTUI_CONFIG`, else
/// `config_dir/diagtui/config.toml` (`None` without a config dir). A file the flag or the
/// variable names must exist (a mistyped path would otherwise be ignored without a word); the
/// default one is read only when it does.
pub fn config_path(flag: Option<&Path>) -> Result<Option<ConfigPath>, String> {
    let given = match (flag, std::env::var_os(CONFIG_ENV)) {
        (Some(path), _) => Some((path.to_owned(), NamedBy::Flag)),
        (None, Some(path)) if !path.is_empty() => Some((PathBuf::from(path), NamedBy::Env)),
        _ => None,
    };
    match given {
        Some((path, named_by)) => {
            let config = ConfigPath { path, named_by };
            if config.path.exists() {
                Ok(Some(config))
            } else {
                Err(format!("the config file {config} does not exist"))
            }
        }
        None => Ok(dirs::config_dir().map(|dir| ConfigPath {
            path: dir.join("diagtui").join("config.toml"),
            named_by: NamedBy::Default,
        })),
    }
}

/// The config file's text; `None` when it does not exist.
pub fn read_text(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Reads and parses the config file; `None` when it does not exist. Parse errors name the line
/// but never quote it (it may hold a key).
fn read_config<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Option<(T, String)>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    match toml::from_str(&text) {
        Ok(parsed) => Ok(Some((parsed, text))),
        Err(e) => {
            let line = e
                .span()
                .map(|span| format!(" line {}", line_of(&text, span.start)))
                .unwrap_or_default();
            Err(anyhow!(
                "{}{line}: {}",
                path.display(),
                e.message().trim_end().replace('\n', " ")
            ))
        }
    }
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The config file as `serve` reads it: its `[serve]` table.
#[derive(Deserialize)]
struct ServeFile {
    #[serde(default)]
    serve: Option<ServeTable>,
}

/// The config file's `[serve]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServeTable {
    #[serde(default)]
    public_url: Option<toml::Spanned<String>>,
}

/// The `[serve]` table's `public_url` of the config file at `path` (none when there is no file
/// or no such key); a bad one is an error naming the file and the line.
pub fn serve_public_url(path: Option<&Path>) -> anyhow::Result<Option<String>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let Some((file, text)) = read_config::<ServeFile>(path)? else {
        return Ok(None);
    };
    let Some(url) = file.serve.and_then(|serve| serve.public_url) else {
        return Ok(None);
    };
    let line = line_of(&text, url.span().start);
    diagtui_server::public_url(url.get_ref())
        .map(Some)
        .map_err(|problem| anyhow!("{} line {line}: public_url: {problem}", path.display()))
}

/// A profile's `api_key`, held to the same rules as `--api-key`.
fn deserialize_key<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<ApiKey, D::Error> {
    parse_key(&String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
}

fn parse_key(text: &str) -> Result<ApiKey, String> {
    if text.trim().is_empty() {
        Err("the API key is empty".into())
    } else {
        Ok(ApiKey::new(text.trim()))
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("\"{text}\" is not a number of seconds"))?;
    duration_from_secs(secs)
}

/// Reads the seconds between polls: 0 (never), or as a timeout.
fn parse_poll(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("\"{text}\" is not a number of seconds"))?;
    poll_from_secs(secs)
}

fn poll_from_secs(secs: f64) -> Result<Duration, String> {
    if secs == 0.0 {
        Ok(Duration::ZERO)
    } else {
        duration_from_secs(secs)
            .map_err(|_| format!("{secs} is not a time between polls: give 0 (never) or seconds above 0, at most 86400"))
    }
}

fn duration_from_secs(secs: f64) -> Result<Duration, String> {
    if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!(
            "{secs} is not a timeout: give seconds above 0, at most 86400"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(url: Option<&str>, key: Option<&str>, profile: Option<&str>) -> ConnectionArgs {
        ConnectionArgs {
            url: url.map(str::to_owned),
            api_key: key.map(ApiKey::new),
            profile: profile.map(str::to_owned),
            ..ConnectionArgs::default()
        }
    }

    fn config_file(text: &str) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text).unwrap();
        file
    }

    const PROFILES: &str = r#"
[profiles.default]
url = "http://default.example"
api_key = "default-key-0001"

[profiles.prod]
url = "https://prod.example"
api_key = "prod-key-0002"
connect_timeout = 2
timeout = 0.5
"#;

    fn remote(settings: &Settings) -> (&str, &str, Option<&str>) {
        let (url, key, profile) = settings.remote.as_ref().expect("remote");
        (url, key.expose(), profile.as_deref())
    }

    #[test]
    fn the_time_between_polls_comes_from_the_flag_then_the_profile_and_0_turns_it_off() {
        let file = config_file(
            "[profiles.slow]\nurl = \"http://s\"\napi_key = \"slow-key-0003\"\npoll = 30\n\
             [profiles.off]\nurl = \"http://o\"\napi_key = \"off-key-0004\"\npoll = 0\n\
             [profiles.bad]\nurl = \"http://b\"\napi_key = \"bad-key-0005\"\npoll = -1\n",
        );
        let poll = |args: &ConnectionArgs| resolve(args, Some(file.path())).map(|s| s.poll);
        assert_eq!(
            poll(&args(Some("http://h"), Some("k"), None)).unwrap(),
            DEFAULT_POLL
        );
        assert_eq!(
            poll(&args(None, None, Some("slow"))).unwrap(),
            Duration::from_secs(30)
        );
        assert_eq!(
            poll(&args(None, None, Some("off"))).unwrap(),
            Duration::ZERO
        );
        let flagged = ConnectionArgs {
            poll: Some(Duration::from_secs(2)),
            ..args(None, None, Some("slow"))
        };
        assert_eq!(
            poll(&flagged).unwrap(),
            Duration::from_secs(2),
            "the flag wins"
        );
        let err = poll(&args(None, None, Some("bad")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("profile poll"), "{err}");
        assert_eq!(parse_poll("0"), Ok(Duration::ZERO));
        assert!(parse_poll("-2").is_err());
        assert!(parse_poll("soon").is_err());
    }

    #[test]
    fn flags_alone_do_not_read_the_config_file() {
        let broken = config_file("this is not toml [");
        let s = resolve(
            &args(Some("http://h"), Some("k"), None),
            Some(broken.path()),
        )
        .unwrap();
        assert_eq!(remote(&s), ("http://h", "k", None));
    }

    #[test]
    fn the_default_profile_then_a_named_one() {
        let file = config_file(PROFILES);
        let s = resolve(&args(None, None, None), Some(file.path())).unwrap();
        assert_eq!(
            remote(&s),
            (
                "http://default.example",
                "default-key-0001",
                Some("default")
            )
        );
        let s = resolve(&args(None, None, Some("prod")), Some(file.path())).unwrap();
        assert_eq!(
            remote(&s),
            ("https://prod.example", "prod-key-0002", Some("prod"))
        );
        assert_eq!(s.timeouts.connect, Some(Duration::from_secs(2)));
        assert_eq!(s.timeouts.request, Some(Duration::from_millis(500)));
    }

    #[test]
    fn flags_override_profile_fields_but_never_send_its_key_elsewhere() {
        let file = config_file(PROFILES);
        let mut a = args(None, Some("mine"), Some("prod"));
        a.timeout = Some(Duration::from_secs(9));
        let s = resolve(&a, Some(file.path())).unwrap();
        assert_eq!(remote(&s), ("https://prod.example", "mine", Some("prod")));
        assert_eq!(s.timeouts.request, Some(Duration::from_secs(9)));
        assert_eq!(s.timeouts.connect, Some(Duration::from_secs(2)));

        // Another server with the profile's key: refused, named or default profile alike.
        let err = resolve(
            &args(Some("http://other"), None, Some("prod")),
            Some(file.path()),
        )
        .unwrap_err();
        assert!(err.to_string().contains("give its --api-key too"), "{err}");
        let err = resolve(&args(Some("http://other"), None, None), Some(file.path())).unwrap_err();
        assert!(err.to_string().contains("--url needs an API key"), "{err}");
        let err = resolve(&args(None, Some("k"), None), Some(file.path())).unwrap_err();
        assert!(
            err.to_string().contains("--api-key needs a server"),
            "{err}"
        );
        let s = resolve(
            &args(Some("http://other"), Some("k"), Some("prod")),
            Some(file.path()),
        )
        .unwrap();
        assert_eq!(remote(&s), ("http://other", "k", Some("prod")));
    }

    #[test]
    fn nothing_configured_means_local_mode() {
        let missing = Path::new("/nonexistent/diagtui/config.toml");
        let s = resolve(&args(None, None, None), Some(missing)).unwrap();
        assert!(s.remote.is_none());
        let file = config_file("[profiles.prod]\nurl = \"http://p\"\napi_key = \"k\"\n");
        assert!(
            resolve(&args(None, None, None), Some(file.path()))
                .unwrap()
                .remote
                .is_none()
        );
    }

    #[test]
    fn mistakes_are_explained_without_showing_keys() {
        let file = config_file(PROFILES);
        let err = resolve(&args(None, None, Some("staging")), Some(file.path())).unwrap_err();
        assert!(err.to_string().contains("no profile \"staging\""), "{err}");
        assert!(err.to_string().contains("(it has: default, prod)"), "{err}");
        let err = resolve(&args(Some("http://h"), None, None), None).unwrap_err();
        assert!(err.to_string().contains("--api-key"), "{err}");
        let err = resolve(&args(None, Some("k"), None), None).unwrap_err();
        assert!(err.to_string().contains("--url"), "{err}");

        for (bad, line) in [
            // An unknown field after the key, and a syntax error on the key's own line.
            (
                "url = \"http://h\"\napi_key = \"secret-key-123456\"\nport = 1\n",
                "line 4",
            ),
            (
                "url = \"http://h\"\napi_key = \"secret-key-123456\" junk\n",
                "line 3",
            ),
        ] {
            let bad = config_file(&format!("[profiles.x]\n{bad}"));
            let err = resolve(&args(None, None, Some("x")), Some(bad.path())).unwrap_err();
            let text = err.to_string();
            assert!(text.contains(line), "{text}");
            assert!(!text.contains("secret-key"), "{text}");
        }
        let empty = config_file("[profiles.x]\nurl = \"http://h\"\napi_key = \" \"\n");
        let err = resolve(&args(None, None, Some("x")), Some(empty.path())).unwrap_err();
        assert!(err.to_string().contains("the API key is empty"), "{err}");
    }

    #[test]
    fn the_connection_reads_the_file_without_minding_the_tuis_tables() {
        let file = config_file(
            "theme = \"light\"\n\n[profiles.p]\nurl = \"http://h\"\napi_key = \"k\"\n\n\
             [styles]\nselected = \"black on yellow\"\n\n[keys.objects]\ndelete = \"x\"\n\
             add = [\"A\", \"ctrl-a\"]\n\n[map]\nstatus_key = \"health\"\ngraphics = \"sixel\"\n",
        );
        let s = resolve(&args(None, None, Some("p")), Some(file.path())).unwrap();
        assert_eq!(remote(&s), ("http://h", "k", Some("p")));
        assert_eq!(read_text(file.path()).unwrap().unwrap().lines().count(), 16);
        assert_eq!(
            read_text(Path::new("/nonexistent/config.toml")).unwrap(),
            None
        );
    }

    #[test]
    fn timeouts_must_be_positive_seconds() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["0", "-1", "NaN", "inf", "soon"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
