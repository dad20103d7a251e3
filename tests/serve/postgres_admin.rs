//! What an operator runs beside a team on PostgreSQL: `diagtui migrate` from a data dir,
//! `account create --database` beside running servers, a database with a newer schema refused,
//! and a history written by an older schema read the same after its migration.

use std::process::Command;

use diagtui_server::LocalServer;
use diagtui_store::{Location, PgOptions};
use diagtui_testkit::postgres::shared;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::BIN;
use crate::postgres::{call, serve_database, stop};
use crate::team::team_database;

#[tokio::test(flavor = "multi_thread")]
async fn migrate_copies_a_data_dir_and_verifies_the_counts() {
    let dir = tempfile::tempdir().unwrap();
    let local = LocalServer::start(dir.path()).await.unwrap();
    let http = reqwest::Client::new();
    let key = local.api_key().to_owned();
    let docs = call(&http, local.url(), &key, "/api/v1/doc", None).await.1;
    let first = docs[0]["id"].as_str().unwrap().to_owned();
    // A history to carry: the `started` version, and a retitle.
    let retitle = json!({"docId": first, "title": "Retitled"});
    let path = "/api/v1/doc/change-title";
    call(&http, local.url(), &key, path, Some(retitle)).await;
    let history_path = format!("/api/v1/doc/{first}/history");
    let history = call(&http, local.url(), &key, &history_path, None).await.1;
    assert_eq!(history["head"], 2, "{history}");
    let content = call(
        &http,
        local.url(),
        &key,
        &format!("/api/v1/doc/{first}/obj/all"),
        None,
    )
    .await
    .1;
    // Embeds to carry: a static one and the live one.
    let embed = json!({"docId": first});
    call(
        &http,
        local.url(),
        &key,
        "/api/v1/embed/create-static",
        Some(embed.clone()),
    )
    .await;
    call(
        &http,
        local.url(),
        &key,
        "/api/v1/embed/enable-live",
        Some(embed),
    )
    .await;
    let embeds_path = format!("/api/v1/embed/list/{first}");
    let embeds = call(&http, local.url(), &key, &embeds_path, None).await.1;
    local.shutdown().await;

    let url = shared().new_database();
    let migrate = |force: bool| {
        let mut command = Command::new(BIN);
        command
            .args(["migrate", "--data-dir"])
            .arg(dir.path())
            .args(["--database", &url]);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    let out = migrate(false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("1 accounts") && said.contains("3 documents"),
        "{said}"
    );

    let again = migrate(false);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("--force"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(migrate(true).status.success());

    let served = serve_database(&url);
    let moved = call(
        &http,
        &served.url,
        &key,
        &format!("/api/v1/doc/{first}/obj/all"),
        None,
    )
    .await;
    assert_eq!(moved.0, StatusCode::OK, "the data dir's key works");
    assert_eq!(moved.1, content);
    let moved = call(&http, &served.url, &key, &history_path, None).await;
    assert_eq!(moved.1, history, "the history came along");
    let then = format!("/api/v1/doc/{first}/obj/all?version=1");
    assert_eq!(call(&http, &served.url, &key, &then, None).await.1, content);
    let moved = call(&http, &served.url, &key, &embeds_path, None).await.1;
    let local_url = embeds["embeds"][0]["url"].as_str().unwrap();
    let base = local_url.split("/app/").next().unwrap();
    let moved = moved.to_string().replace(&served.url, base);
    assert_eq!(moved, embeds.to_string(), "the embeds came along");
    stop(served);
}

#[tokio::test(flavor = "multi_thread")]
async fn account_create_works_beside_running_servers() {
    let (url, _) = team_database();
    let served = serve_database(&url);
    let out = Command::new(BIN)
        .args(["account", "create", "bob@example.com", "--database", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let http = reqwest::Client::new();
    let me = call(&http, &served.url, &key, "/api/v1/me", None).await;
    assert_eq!(me.1["email"], "bob@example.com");
    stop(served);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_database_with_a_newer_schema_is_refused() {
    let (url, _) = team_database();
    shared().psql(
        crate::common::database_name(&url),
        "UPDATE diagtui_schema SET version = 999",
    );
    let out = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--database", &url])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("newer than this build"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_history_written_before_keyed_versions_reads_the_same_after_the_migration() {
    // A database as a build of schema version 3 left it: a document whose history created it
    // empty, created `x`, then set its content (`x` changed, `y` created).
    let url = shared().new_database();
    let db = crate::common::database_name(&url);
    let old_schema = diagtui_store::pg_migrations()[..3].join(";\n");
    shared().psql(
        db,
        &format!(
            "{old_schema};
             CREATE TABLE diagtui_schema (version INTEGER NOT NULL);
             INSERT INTO diagtui_schema VALUES (3);
             INSERT INTO accounts VALUES ('old', 'old@example.com', 'h', 't0');
             INSERT INTO folders (id, account_id, title) VALUES ('f', 'old', 'Old');
             INSERT INTO documents VALUES ('d', 'old', 'f', 'Old', 't0', 't3');
             INSERT INTO objects VALUES ('d', 'x', 'label', '{{\"text\":\"b\"}}'),
                 ('d', 'y', 'label', '{{\"text\":\"y\"}}');
             INSERT INTO history_heads VALUES ('d', 3, 3, 0);
             INSERT INTO history_versions VALUES ('d', 1, 't1', 'old', 'created', 0, NULL, true),
                 ('d', 2, 't2', 'old', 'object-created', 1, NULL, false),
                 ('d', 3, 't3', 'old', 'set-content', 2, NULL, false);
             INSERT INTO history_changes VALUES
                 ('d', 2, 'x', NULL, NULL, 'label', '{{\"text\":\"a\"}}'),
                 ('d', 3, 'x', 'label', '{{\"text\":\"a\"}}', 'label', '{{\"text\":\"b\"}}'),
                 ('d', 3, 'y', NULL, NULL, 'label', '{{\"text\":\"y\"}}');"
        ),
    );
    let location = Location::Postgres(PgOptions {
        url: url.clone(),
        pool_size: 2,
    });
    let key = diagtui_server::create_account(&location, "new@example.com").unwrap();
    shared().psql(
        db,
        "INSERT INTO collaborators SELECT 'd', id FROM accounts WHERE email = 'new@example.com'",
    );
    let served = serve_database(&url);
    let http = reqwest::Client::new();
    let get = |path: &'static str| call(&http, &served.url, &key, path, None);
    let text = |side: &Value| side["data"]["text"].clone();

    let page = get("/api/v1/doc/d/history").await.1;
    let numbers: Vec<_> = page["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["version"].as_u64().unwrap(), v["kind"].clone()))
        .collect();
    assert_eq!(
        numbers,
        [
            (3, json!("set-content")),
            (2, json!("object-created")),
            (1, json!("created"))
        ]
    );
    let two = get("/api/v1/doc/d/history/2").await.1;
    assert_eq!(two["objects"][0]["objId"], "x");
    assert_eq!(two["objects"][0]["before"], Value::Null);
    assert_eq!(text(&two["objects"][0]["after"]), "a");
    let three = get("/api/v1/doc/d/history/3").await.1;
    let changes: Vec<_> = three["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["objId"].clone(), text(&o["before"]), text(&o["after"])))
        .collect();
    assert_eq!(
        changes,
        [
            (json!("x"), json!("a"), json!("b")),
            (json!("y"), Value::Null, json!("y"))
        ]
    );
    let at_two = get("/api/v1/doc/d/obj/all?version=2").await.1;
    assert_eq!(
        at_two,
        json!({"x": {"type": "label", "data": {"text": "a"}}})
    );
    let x_versions = get("/api/v1/doc/d/obj/x/history").await.1;
    assert_eq!(x_versions["versions"].as_array().unwrap().len(), 2);

    // The history goes on in the new rows: a new version, its before from the old ones.
    let props = json!({"props": {"text": "c"}});
    call(&http, &served.url, &key, "/api/v1/doc/d/obj/x", Some(props)).await;
    let four = get("/api/v1/doc/d/history/4").await.1;
    assert_eq!(text(&four["objects"][0]["before"]), "b");
    assert_eq!(text(&four["objects"][0]["after"]), "c");
    stop(served);
}
