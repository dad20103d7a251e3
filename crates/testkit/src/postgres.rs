//! Throwaway PostgreSQL clusters for the tests: `initdb` and `pg_ctl` in a temporary
//! directory, listening on a free loopback port, run as the `postgres` user when the tests run
//! as root (PostgreSQL refuses root). A cluster stops, and its directory goes, when the test
//! process ends: a watchdog shell waits for the process's end (its stdin closing) to do it.
//!
//! Without a PostgreSQL server binary, [`shared`] prints a note and ends the test binary
//! (skipping its tests), unless `CI` is set: under CI it must run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::net::free_port;

/// The settings of the tests' clusters: no fsync, room for many test servers' pools.
pub const TEST_SETTINGS: &str = "-c fsync=off -c full_page_writes=off -c max_connections=300 \
     -c max_wal_size=64MB -c min_wal_size=32MB";

/// A running cluster.
pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
    databases: AtomicUsize,
    settings: String,
    /// Kept open for as long as the process lives; its end stops the cluster.
    _watchdog: Mutex<(Child, ChildStdin)>,
}

/// The directory holding `pg_ctl`, if PostgreSQL is installed: the newest of Debian's
/// `/usr/lib/postgresql/*/bin` (not on `PATH`), else the first on `PATH`.
fn bin_dir() -> Option<PathBuf> {
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|dirs| {
            let mut versions: Vec<PathBuf> = dirs
                .filter_map(|entry| Some(entry.ok()?.path().join("bin")))
                .filter(|dir| dir.join("pg_ctl").is_file())
                .collect();
            versions.sort();
            versions.pop()
        });
    debian.or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).find(|dir| dir.join("pg_ctl").is_file())
    })
}

/// A client program (`psql`, `pg_dump`): beside the server's, else on `PATH`.
fn client(bin: &Path, name: &str) -> Command {
    let beside = bin.join(name);
    Command::new(if beside.is_file() {
        beside
    } else {
        PathBuf::from(name)
    })
}

/// Whether this process runs as root.
#[allow(unsafe_code, reason = "FFI: geteuid")]
fn is_root() -> bool {
    // SAFETY: `geteuid` takes nothing and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A command for a PostgreSQL program, as the `postgres` user when running as root.
fn pg_command(bin: &Path, program: &str) -> Command {
    let path = bin.join(program);
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(path);
        command
    } else {
        Command::new(path)
    }
}

/// Runs a command that must succeed; its stdout.
pub fn run(mut command: Command, what: &str) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The cluster shared by the test binary's tests; ends the binary (skipping its tests) when
/// PostgreSQL is not installed, unless under CI.
pub fn shared() -> &'static Cluster {
    static SHARED: OnceLock<Cluster> = OnceLock::new();
    SHARED.get_or_init(|| match Cluster::start() {
        Some(cluster) => cluster,
        None if std::env::var_os("CI").is_some() => {
            panic!("CI is set but no PostgreSQL server binary (pg_ctl) was found")
        }
        None => {
            eprintln!(
                "note: no PostgreSQL server binary (pg_ctl) found: the PostgreSQL tests are \
                 skipped (install postgresql to run them)"
            );
            std::process::exit(0)
        }
    })
}

impl Cluster {
    /// A new cluster of its own for tests (no fsync: a crash of the machine is no test's
    /// concern), or `None` when PostgreSQL is not installed.
    pub fn start() -> Option<Cluster> {
        Cluster::start_with(TEST_SETTINGS)
    }

    /// A new cluster with these server settings (`-c name=value ...`) besides the address.
    pub fn start_with(settings: impl Into<String>) -> Option<Cluster> {
        let bin = bin_dir()?;
        let root = tempfile::Builder::new()
            .prefix("diagtui-pg-")
            .tempdir()
            .unwrap()
            .keep();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let data = root.join("data");
        let mut initdb = pg_command(&bin, "initdb");
        initdb
            .args([
                "--auth=trust",
                "--username=postgres",
                "--encoding=UTF8",
                "-D",
            ])
            .arg(&data);
        run(initdb, "initdb");
        let port = free_port();
        let cluster = Cluster {
            _watchdog: Mutex::new(watchdog(&bin, &root, &data)),
            bin,
            data,
            port,
            databases: AtomicUsize::new(0),
            settings: settings.into(),
        };
        cluster.start_server();
        Some(cluster)
    }

    /// Starts the server (again), waiting until it accepts connections.
    pub fn start_server(&self) {
        let mut start = pg_command(&self.bin, "pg_ctl");
        start
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(self.data.join("log"))
            .arg("-o")
            .arg(format!(
                "-p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories='{}' {}",
                self.port,
                self.data.display(),
                self.settings
            ))
            .args(["-w", "start"]);
        run(start, "pg_ctl start");
    }

    /// Stops the server at once (as a crash would), waiting until it is down.
    pub fn stop_server(&self) {
        let mut stop = pg_command(&self.bin, "pg_ctl");
        stop.arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"]);
        run(stop, "pg_ctl stop");
    }

    /// The URL of a database of the cluster.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// A new empty database; its URL.
    pub fn new_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            self.databases.fetch_add(1, Ordering::Relaxed)
        );
        self.psql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(&name)
    }

    /// Runs SQL in a database of the cluster.
    pub fn psql(&self, database: &str, sql: &str) {
        let mut psql = client(&self.bin, "psql");
        psql.args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .arg(self.url(database));
        run(psql, "psql");
    }

    /// Runs a query in a database of the cluster; its rows, one a line, fields split by `|`.
    pub fn query(&self, database: &str, sql: &str) -> String {
        let mut psql = client(&self.bin, "psql");
        psql.args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .arg(self.url(database));
        run(psql, "psql").trim().to_owned()
    }
}

impl Cluster {
    /// Every row of a database's tables, as text (`pg_dump --data-only`).
    pub fn dump(&self, database: &str) -> String {
        let mut pg_dump = client(&self.bin, "pg_dump");
        pg_dump.arg("--data-only").arg(self.url(database));
        run(pg_dump, "pg_dump")
    }
}

/// A shell that stops the cluster and removes its directory once its stdin closes: when the
/// test process ends, however it ends.
fn watchdog(bin: &Path, root: &Path, data: &Path) -> (Child, ChildStdin) {
    let runuser = if is_root() {
        "runuser -u postgres -- "
    } else {
        ""
    };
    let script = format!(
        "cat >/dev/null; {runuser}'{}' -D '{}' -m immediate stop >/dev/null 2>&1; rm -rf '{}'",
        bin.join("pg_ctl").display(),
        data.display(),
        root.display()
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the watchdog starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.flush().unwrap();
    (child, stdin)
}
