//! The `wrk` load generator (Debian's `wrk`), pinned to a core with `taskset`, for the benches
//! that measure a server's throughput: `scripts/ceiling.sh` installs it.

use std::path::Path;
use std::process::Command;

/// A run's settings: the core wrk runs on, its keep-alive connections (one thread) and seconds.
#[derive(Clone, Copy, Debug)]
pub struct Wrk {
    /// The core wrk is pinned to (`taskset -c`).
    pub core: &'static str,
    /// Connections kept open.
    pub connections: usize,
    /// Seconds per run.
    pub seconds: u32,
}

/// What a run measured.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Requests answered.
    pub requests: u64,
    /// Requests per second.
    pub rate: f64,
}

/// Whether `wrk` and `taskset` are installed; names the one missing otherwise.
pub fn missing() -> Option<&'static str> {
    ["wrk", "taskset"]
        .into_iter()
        .find(|tool| Command::new(tool).arg("--version").output().is_err())
}

impl Wrk {
    /// Runs wrk against `url` with `key` as bearer token and the Lua `script` (a POST, say)
    /// when given; panics when a request failed or wrk printed no rate.
    pub fn run(&self, url: &str, key: &str, script: Option<&Path>) -> Run {
        let mut command = Command::new("taskset");
        command
            .args(["-c", self.core, "wrk", "-t1"])
            .arg(format!("-c{}", self.connections))
            .arg(format!("-d{}s", self.seconds))
            .args(["-H", &format!("Authorization: Bearer {key}")]);
        if let Some(script) = script {
            command.arg("-s").arg(script);
        }
        let out = command.arg(url).output().expect("wrk runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            !text.contains("Non-2xx") && !text.contains("Socket errors"),
            "wrk saw failed requests against {url}:\n{text}"
        );
        let rate = text
            .lines()
            .find_map(|line| line.strip_prefix("Requests/sec:"))
            .and_then(|rate| rate.trim().parse().ok());
        let requests = text
            .lines()
            .find_map(|line| line.trim().split_once(" requests in "))
            .and_then(|(count, _)| count.parse().ok());
        match (requests, rate) {
            (Some(requests), Some(rate)) => Run { requests, rate },
            _ => panic!("no rate in wrk's output:\n{text}"),
        }
    }
}

/// A wrk script that POSTs `body` as JSON.
pub fn post_script(body: &str) -> String {
    format!(
        "wrk.method = \"POST\"\nwrk.body = '{}'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n",
        body.replace('\'', "\\'")
    )
}
