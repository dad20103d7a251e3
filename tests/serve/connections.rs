//! `diagtui serve` under the common limit of 1,024 open files: idle connections cannot starve it.

use std::process::Stdio;
use std::time::Duration;

use tokio::net::TcpStream;

use crate::bin;
use diagtui_testkit_server::serve::start;

/// Raises this process's limit on open files to its hard limit; returns it.
#[allow(unsafe_code, reason = "FFI: getrlimit and setrlimit")]
fn raise_file_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given, on this stack.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = limit.rlim_max;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
    }
    limit.rlim_cur
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_connections_cannot_starve_a_server_at_the_common_file_limit() {
    const IDLE: usize = 1_100;
    let limit = raise_file_limit();
    assert!(
        limit > IDLE as u64 + 256,
        "this test opens {IDLE} connections and needs a higher hard limit on open files than {limit}"
    );
    let dir = tempfile::tempdir().unwrap();
    // The server runs under the common limit of 1,024 open files.
    let mut command = std::process::Command::new("sh");
    let server = bin().serve_command(dir.path());
    command
        .arg("-c")
        .arg("ulimit -n 1024 && exec \"$0\" \"$@\"")
        .arg(server.get_program())
        .args(server.get_args())
        .stderr(Stdio::null());
    let mut served = start(&mut command);
    let addr = served.url.strip_prefix("http://").unwrap().to_owned();
    let key = std::fs::read_to_string(dir.path().join("api-key")).unwrap();
    let mut idle = Vec::with_capacity(IDLE);
    for _ in 0..IDLE {
        idle.push(TcpStream::connect(&addr).await.unwrap());
    }
    let answer = reqwest::Client::new()
        .get(format!("{}/api/v1/me", served.url))
        .bearer_auth(key.trim())
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("a normal request is answered while the idle connections are open");
    assert_eq!(answer.status(), 200);
    drop(idle);
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}
