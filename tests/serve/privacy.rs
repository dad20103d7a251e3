//! What a server leaves where others could see it: the data dir and its files are the user's
//! alone, and the request log never shows a key.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use diagtui_testkit_server::serve::start;

use crate::bin;

/// A file's permission bits.
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_data_dir_and_its_files_are_private() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("new");
    let server = diagtui_server::LocalServer::start(&dir).await.unwrap();
    reqwest::Client::new()
        .get(format!("{}/api/v1/doc", server.url()))
        .bearer_auth(server.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(mode(&dir), 0o700, "the data dir");
    for file in ["diagtui.db", "diagtui.db-wal", "diagtui.db-shm", "api-key"] {
        assert_eq!(mode(&dir.join(file)), 0o600, "{file}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_warns_once_about_a_data_dir_others_can_read() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("loose");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    // An existing database from before is made private too.
    std::fs::write(dir.join("diagtui.db"), b"").unwrap();
    std::fs::set_permissions(
        dir.join("diagtui.db"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let log = parent.path().join("stderr");
    let mut command = bin().serve_command(&dir);
    command.stderr(std::fs::File::create(&log).unwrap());
    let mut served = start(&mut command);
    stop(&mut served.child);
    let stderr = std::fs::read_to_string(&log).unwrap();
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("0755") && warnings[0].contains("chmod 700"),
        "{stderr}"
    );
    assert_eq!(mode(&dir), 0o755, "the user's dir is left as it is");
    assert_eq!(mode(&dir.join("diagtui.db")), 0o600);
}

/// Stops a server with SIGTERM and waits for it.
fn stop(child: &mut std::process::Child) {
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    assert!(child.wait().unwrap().success());
}

#[tokio::test(flavor = "multi_thread")]
async fn each_request_is_logged_once_without_its_key() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    let log = parent.path().join("stderr");
    let mut command = bin().serve_command(&dir);
    command
        .env("RUST_LOG", "info")
        .stderr(std::fs::File::create(&log).unwrap())
        .stdin(Stdio::null());
    let mut served = start(&mut command);
    let key = std::fs::read_to_string(dir.join("api-key")).unwrap();
    let key = key.trim();
    let http = reqwest::Client::new();
    let doc = reqwest::get(format!("{}/api/v1/doc?key={key}", served.url))
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap()[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (path, bearer, status) in [
        (format!("/api/v1/doc/{doc}/obj/all"), true, 200),
        (format!("/api/v1/nothing?key={key}"), false, 404),
        ("/api/v1/me?key=wrong".to_owned(), false, 401),
    ] {
        let mut request = http.get(format!("{}{path}", served.url));
        if bearer {
            request = request.bearer_auth(key);
        }
        assert_eq!(request.send().await.unwrap().status(), status, "{path}");
    }
    stop(&mut served.child);

    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(!stderr.contains(key), "the key is never logged:\n{stderr}");
    assert!(!stderr.contains("key="), "nor the key= query:\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("answered")).collect();
    assert_eq!(lines.len(), 4, "one line per request:\n{stderr}");
    for (line, (route, status)) in lines.iter().zip([
        ("/api/v1/doc", 200),
        ("/api/v1/doc/{doc_id}/obj/all", 200),
        ("/api/v1/nothing", 404),
        ("/api/v1/me", 401),
    ]) {
        assert!(line.contains(" INFO "), "{line}");
        assert!(line.contains("method=GET"), "{line}");
        assert!(line.contains(&format!("route=\"{route}\"")), "{line}");
        assert!(line.contains(&format!("status={status}")), "{line}");
        assert!(line.contains("latency_us="), "{line}");
    }
    for line in &lines[..2] {
        let account = line.split("account=\"").nth(1).unwrap_or_default();
        assert_eq!(account.find('"'), Some(36), "the account's id: {line}");
    }
    assert!(
        !lines[3].contains("account="),
        "no account for a bad key: {}",
        lines[3]
    );
}
