//! The test harness: a server on a temp data dir, or on a new database of the test binary's
//! PostgreSQL cluster when the binary runs the suite on PostgreSQL (`crate::engine`), a few
//! request helpers. The binary's suite (`tests/serve`) includes this file too.

use diagtui_server::{LocalServer, ServerOptions};
use diagtui_store::{Location, PgOptions};
use diagtui_testkit::postgres;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;

/// A running local server with its own data dir.
pub struct Harness {
    pub server: LocalServer,
    pub http: reqwest::Client,
    pub dir: TempDir,
}

impl Harness {
    /// A fresh data dir (seeded) and a server on it.
    pub async fn new() -> Harness {
        Harness::with(ServerOptions::default()).await
    }

    /// A fresh data dir (or database) and a server on it with these settings.
    pub async fn with(options: ServerOptions) -> Harness {
        let dir = tempfile::tempdir().expect("temp dir");
        let location = if crate::engine::POSTGRES {
            postgres_location()
        } else {
            Location::DataDir(dir.path().to_owned())
        };
        let server = LocalServer::start_at(location, options)
            .await
            .expect("server starts");
        Harness {
            server,
            http: reqwest::Client::new(),
            dir,
        }
    }

    /// The server's address, for raw connections.
    pub fn addr(&self) -> String {
        self.server
            .url()
            .strip_prefix("http://")
            .expect("an http URL")
            .to_owned()
    }

    /// Runs SQL on the server's database, behind its back.
    pub fn run_sql(&self, sql: &str) {
        match self.server.location() {
            Location::DataDir(dir) => {
                let conn = rusqlite::Connection::open(dir.join("diagtui.db")).unwrap();
                conn.execute_batch(sql).unwrap();
            }
            Location::Postgres(pg) => postgres::shared().psql(database_name(&pg.url), sql),
        }
    }

    /// Everything the database stores, as text: the SQLite file's bytes, or a dump of the
    /// PostgreSQL database's tables.
    pub fn stored_text(&self) -> String {
        match self.server.location() {
            Location::DataDir(dir) => {
                String::from_utf8_lossy(&std::fs::read(dir.join("diagtui.db")).unwrap())
                    .into_owned()
            }
            Location::Postgres(pg) => postgres::shared().dump(database_name(&pg.url)),
        }
    }

    /// The default account's key.
    pub fn key(&self) -> String {
        self.server.api_key().to_owned()
    }

    /// Sends a request with a key (or none) and an optional JSON body; returns the status
    /// and the JSON answer.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.server.url()));
        if let Some(key) = key {
            req = req.bearer_auth(key);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        send(req).await
    }

    /// GET with the default key.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, Some(&self.key()), None).await
    }

    /// POST JSON with the default key.
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, Some(&self.key()), Some(body))
            .await
    }

    /// GET that must succeed.
    pub async fn get_ok(&self, path: &str) -> Value {
        let (status, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        body
    }

    /// POST that must succeed with `success: true`.
    pub async fn post_ok(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.post(path, body).await;
        assert_eq!(status, StatusCode::OK, "POST {path}: {answer}");
        assert_eq!(answer["success"], true, "POST {path}: {answer}");
        answer
    }

    /// A new empty document.
    pub async fn new_doc(&self, title: &str) -> String {
        let answer = self
            .post_ok("/api/v1/doc/create", json!({ "title": title }))
            .await;
        answer["docId"].as_str().expect("docId").to_owned()
    }

    /// A new object in a document.
    pub async fn new_obj(&self, doc: &str, kind: &str, props: Value) -> String {
        let answer = self
            .post_ok(
                &format!("/api/v1/doc/{doc}/obj"),
                json!({ "type": kind, "props": props }),
            )
            .await;
        answer["objId"].as_str().expect("objId").to_owned()
    }

    /// A new component with the given meta.
    pub async fn new_component(&self, doc: &str, meta: Value) -> String {
        self.new_obj(
            doc,
            "component",
            json!({ "componentId": "generic.server", "meta": meta }),
        )
        .await
    }
}

/// Two more accounts, `friend@example.com` (a collaborator on `doc`) and
/// `stranger@example.com`: their keys.
pub async fn friend_and_stranger(h: &Harness, doc: &str) -> (String, String) {
    let location = h.server.location();
    let friend = diagtui_server::create_account(location, "friend@example.com").unwrap();
    let stranger = diagtui_server::create_account(location, "stranger@example.com").unwrap();
    h.post_ok(
        "/api/v1/doc/add-collaborator",
        json!({"docId": doc, "email": "friend@example.com"}),
    )
    .await;
    (friend, stranger)
}

/// A new database of the test binary's cluster.
pub fn postgres_location() -> Location {
    Location::Postgres(PgOptions {
        url: postgres::shared().new_database(),
        pool_size: 4,
    })
}

/// The database a PostgreSQL URL names.
pub fn database_name(url: &str) -> &str {
    url.rsplit('/').next().expect("a database in the URL")
}

/// Asserts an error answer's status and code; returns its message.
pub fn assert_error(answer: &(StatusCode, Value), status: StatusCode, code: &str) -> String {
    let (got, body) = answer;
    assert_eq!(*got, status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["error"], code, "{body}");
    body["message"].as_str().expect("message").to_owned()
}

/// Sends a request built by hand and reads its status and JSON answer.
pub async fn send(req: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let resp = req.send().await.expect("request sent");
    let status = resp.status();
    let text = resp.text().await.expect("body read");
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {text}"));
    (status, value)
}
