//! Several `diagtui serve` instances serving one PostgreSQL database as one server: writes,
//! change events, a kill mid-write, every kind of write and conditional writes across
//! instances. `diagtui migrate`, `account create --database` and the schema's versions are
//! `postgres_admin.rs`'s.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use diagtui_testkit::postgres::shared;
use diagtui_testkit_server::serve::{Served, start};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::BIN;
use crate::common::send;
use crate::stream::Stream;
use crate::team::{PATIENCE, team_database};

/// `diagtui serve --database URL` on a free port.
pub(crate) fn serve_database(url: &str) -> Served {
    let mut command = Command::new(BIN);
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--db-pool", "4"])
        .env("DIAGTUI_DATABASE_URL", url)
        .stderr(Stdio::null());
    start(&mut command)
}

/// Kills a server (`kill -9`) and waits for it.
pub(crate) fn stop(mut served: Served) {
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}

/// A request with a key; the status and JSON answer.
pub(crate) async fn call(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let url = format!("{base}{path}");
    let req = match body {
        Some(body) => http.post(url).json(&body),
        None => http.get(url),
    };
    send(req.bearer_auth(key)).await
}

/// Two instances on one new database, and a document made through the first.
struct Two {
    url: String,
    key: String,
    a: Served,
    b: Served,
    http: reqwest::Client,
    doc: String,
}

async fn two_instances() -> Two {
    let (url, key) = team_database();
    let (a, b) = (serve_database(&url), serve_database(&url));
    let http = reqwest::Client::new();
    let body = Some(json!({"title": "Shared"}));
    let created = call(&http, &a.url, &key, "/api/v1/doc/create", body).await;
    let doc = created.1["docId"].as_str().unwrap().to_owned();
    Two {
        url,
        key,
        a,
        b,
        http,
        doc,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_answered_by_one_instance_is_read_by_the_other_at_once() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let obj_path = format!("/api/v1/doc/{doc}/obj");
    let mut obj = String::new();
    for round in 0..20 {
        // Alternate the instances, so that each reads from memory what the other changed.
        let (writer, reader) = if round % 2 == 0 { (&a, &b) } else { (&b, &a) };
        if obj.is_empty() {
            let made = call(
                &http,
                &writer.url,
                &key,
                &obj_path,
                Some(json!({"type": "label", "props": {"text": "0"}})),
            )
            .await;
            obj = made.1["objId"].as_str().unwrap().to_owned();
        } else {
            let body = json!({"props": {"text": round.to_string()}});
            let path = format!("{obj_path}/{obj}");
            assert_eq!(
                call(&http, &writer.url, &key, &path, Some(body)).await.0,
                200
            );
        }
        let read = call(&http, &reader.url, &key, &format!("{obj_path}/{obj}"), None).await;
        assert_eq!(read.0, StatusCode::OK, "{}", read.1);
        assert_eq!(read.1["data"]["text"], round.to_string(), "round {round}");
        let list = call(
            &http,
            &reader.url,
            &key,
            &format!("/api/v1/doc/{doc}/obj/all"),
            None,
        )
        .await;
        assert_eq!(list.1[&obj]["data"]["text"], round.to_string());
    }
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn change_events_reach_subscribers_of_the_other_instance() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let doc_events = format!("/api/v1/doc/{doc}/events");
    let mut on_b = Stream::open_at(&http, &b.url, &doc_events, &key, None).await;
    on_b.expect("current").await;
    let made = call(
        &http,
        &a.url,
        &key,
        &format!("/api/v1/doc/{doc}/obj"),
        Some(json!({"type": "label", "props": {"text": "from a"}})),
    )
    .await;
    let obj = made.1["objId"].as_str().unwrap().to_owned();
    // The next event is the write itself, not a resync.
    let (_, change) = on_b.expect("change").await;
    assert_eq!(change["changed"], json!([obj]), "{change}");
    let mut account_on_b = Stream::open_at(&http, &b.url, "/api/v1/events", &key, None).await;
    account_on_b.expect("current").await;
    let renamed = call(
        &http,
        &a.url,
        &key,
        "/api/v1/doc/change-title",
        Some(json!({"docId": doc, "title": "Renamed on a"})),
    )
    .await;
    assert_eq!(renamed.0, StatusCode::OK, "{}", renamed.1);
    let (_, retitled) = account_on_b.expect("change").await;
    assert_eq!(retitled["docId"], doc.as_str(), "{retitled}");
    assert_eq!(retitled["document"], "retitled", "{retitled}");
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_instance_killed_mid_write_loses_no_answered_write() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let answered = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let mut writers = Vec::new();
    for _ in 0..8 {
        let (http, base, key, doc, answered) = (
            http.clone(),
            a.url.clone(),
            key.clone(),
            doc.clone(),
            Arc::clone(&answered),
        );
        writers.push(tokio::spawn(async move {
            loop {
                let sent = http
                    .post(format!("{base}/api/v1/doc/{doc}/obj"))
                    .bearer_auth(&key)
                    .json(&json!({"type": "label", "props": {}}))
                    .send()
                    .await;
                let Ok(response) = sent else { return };
                let Ok(body) = response.json::<Value>().await else {
                    return;
                };
                match body["objId"].as_str() {
                    Some(id) => answered.lock().await.push(id.to_owned()),
                    None => return,
                }
            }
        }));
    }
    // Kill once writes are flowing.
    tokio::time::timeout(PATIENCE, async {
        while answered.lock().await.len() < 50 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap();
    stop(a);
    for writer in writers {
        writer.await.unwrap();
    }
    let all = call(
        &http,
        &b.url,
        &key,
        &format!("/api/v1/doc/{doc}/obj/all"),
        None,
    )
    .await;
    let answered = answered.lock().await;
    for id in answered.iter() {
        assert!(all.1.get(id).is_some(), "answered {id} is lost");
    }
    stop(b);
}

/// The content of a document as read through an instance.
async fn content(http: &reqwest::Client, base: &str, key: &str, doc: &str) -> Value {
    let (status, all) = call(http, base, key, &format!("/api/v1/doc/{doc}/obj/all"), None).await;
    assert_eq!(status, StatusCode::OK, "{all}");
    all
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_write_through_one_instance_reads_back_through_the_other() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let obj_path = format!("/api/v1/doc/{doc}/obj");
    // Each write through `a`, then at once the whole content through `b` (which keeps the
    // document in memory all along) must be what `a` has, and hold the write.
    let same = |what: &'static str| {
        let (http, a, b, key, doc) = (&http, &a.url, &b.url, &key, &doc);
        async move {
            let through_b = content(http, b, key, doc).await;
            assert_eq!(through_b, content(http, a, key, doc).await, "after {what}");
            through_b
        }
    };
    assert_eq!(same("nothing").await, json!({}));
    let mut ids = Vec::new();
    for n in 0..20 {
        let body = json!({"type": "label", "props": {"text": format!("made {n}")}});
        let made = call(&http, &a.url, &key, &obj_path, Some(body)).await;
        let id = made.1["objId"].as_str().unwrap().to_owned();
        let read = call(&http, &b.url, &key, &format!("{obj_path}/{id}"), None).await;
        assert_eq!(read.1["data"]["text"], format!("made {n}"), "create {n}");
        ids.push(id);
    }
    assert_eq!(same("creates").await.as_object().unwrap().len(), 20);

    let path = format!("{obj_path}/{}", ids[0]);
    let body = Some(json!({"props": {"text": "one"}}));
    assert_eq!(call(&http, &a.url, &key, &path, body).await.0, 200);
    assert_eq!(same("an update").await[&ids[0]]["data"]["text"], "one");

    // More than 16 objects: planned from `a`'s cached copy.
    let objects: serde_json::Map<String, Value> = ids
        .iter()
        .map(|id| (id.clone(), json!({"text": format!("bulk {id}")})))
        .collect();
    let bulk = Some(json!({"objects": objects}));
    let answer = call(&http, &a.url, &key, &format!("/api/v1/doc/{doc}"), bulk).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let all = same("a bulk update").await;
    for id in &ids {
        assert_eq!(all[id]["data"]["text"], format!("bulk {id}"));
    }

    let gone = format!("{obj_path}/{}/delete", ids[1]);
    assert_eq!(
        call(&http, &a.url, &key, &gone, Some(json!({}))).await.0,
        200
    );
    let read = call(&http, &b.url, &key, &format!("{obj_path}/{}", ids[1]), None).await;
    assert_eq!(read.0, StatusCode::NOT_FOUND, "{}", read.1);
    assert!(same("a delete").await.get(&ids[1]).is_none());

    let upload = json!({"uploaded1": {"type": "label", "data": {"text": "up"}}});
    let set = format!("/api/v1/doc/set-content/{doc}");
    let answer = call(&http, &a.url, &key, &set, Some(upload.clone())).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let all = same("set-content").await;
    assert_eq!(all.as_object().unwrap().len(), 1, "{all}");
    assert_eq!(all["uploaded1"]["data"]["text"], "up");

    let empty = Some(json!({"docId": doc}));
    let answer = call(&http, &a.url, &key, "/api/v1/doc/empty", empty).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    assert_eq!(same("empty").await, json!({}));
    stop(a);
    stop(b);
}

/// Writer `writer`'s 30 rounds through the instance at `a` on its objects `ids` (every third a
/// bulk update of them all, else one object's update), each read back through `b` at once:
/// the value each object was last given.
async fn write_and_read_back(
    http: &reqwest::Client,
    a: &str,
    b: &str,
    key: &str,
    doc: &str,
    writer: usize,
    ids: Vec<String>,
) -> std::collections::HashMap<String, String> {
    let mut last = std::collections::HashMap::new();
    for round in 1..=30 {
        let value = format!("w{writer} r{round}");
        if round % 3 == 0 {
            // A bulk update of all the writer's objects (more than 16: planned
            // ahead from `a`'s cached copy).
            let objects: serde_json::Map<String, Value> = ids
                .iter()
                .map(|id| (id.clone(), json!({"text": value})))
                .collect();
            let bulk = Some(json!({"objects": objects}));
            let path = format!("/api/v1/doc/{doc}");
            let answer = call(http, a, key, &path, bulk).await;
            assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
            for id in &ids {
                last.insert(id.clone(), value.clone());
            }
        } else {
            let id = &ids[round % ids.len()];
            let path = format!("/api/v1/doc/{doc}/obj/{id}");
            let body = Some(json!({"props": {"text": value}}));
            let answer = call(http, a, key, &path, body).await;
            assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
            last.insert(id.clone(), value.clone());
        }
        let all = content(http, b, key, doc).await;
        for (id, value) in &last {
            assert_eq!(all[id]["data"]["text"], **value, "{id} after {round}");
        }
    }
    last
}

#[tokio::test(flavor = "multi_thread")]
async fn writes_through_one_instance_under_reads_through_the_other_all_read_back() {
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    // Four writers through `a`, each with its own objects; each write, once answered, must
    // read back through `b` at once, while four readers keep `b` busy with the document.
    let mut mine = Vec::new();
    for writer in 0..4 {
        let mut ids = Vec::new();
        for _ in 0..17 {
            let body = json!({"type": "label", "props": {"text": "0"}});
            let made = call(
                &http,
                &a.url,
                &key,
                &format!("/api/v1/doc/{doc}/obj"),
                Some(body),
            )
            .await;
            ids.push(made.1["objId"].as_str().unwrap().to_owned());
        }
        mine.push((writer, ids));
    }
    let stop_reading = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (http, b, key, doc, stop_reading) = (
                http.clone(),
                b.url.clone(),
                key.clone(),
                doc.clone(),
                Arc::clone(&stop_reading),
            );
            tokio::spawn(async move {
                while !stop_reading.load(std::sync::atomic::Ordering::Relaxed) {
                    content(&http, &b, &key, &doc).await;
                }
            })
        })
        .collect();
    let writers: Vec<_> = mine
        .into_iter()
        .map(|(writer, ids)| {
            let (http, a, b, key, doc) = (
                http.clone(),
                a.url.clone(),
                b.url.clone(),
                key.clone(),
                doc.clone(),
            );
            tokio::spawn(async move {
                write_and_read_back(&http, &a, &b, &key, &doc, writer, ids).await
            })
        })
        .collect();
    let mut acknowledged = std::collections::HashMap::new();
    for writer in writers {
        acknowledged.extend(writer.await.unwrap());
    }
    stop_reading.store(true, std::sync::atomic::Ordering::Relaxed);
    for reader in readers {
        reader.await.unwrap();
    }
    let all = content(&http, &b.url, &key, &doc).await;
    for (id, value) in &acknowledged {
        assert_eq!(all[id]["data"]["text"], **value, "{id}");
    }
    stop(a);
    stop(b);
}

/// Each write reads the object it merges into inside its transaction, after the counter's bump
/// has waited for every other instance's write before it (the first request of a batch reads
/// in the same round trip as the transaction's start): read any earlier, a write of the other
/// instance committing meanwhile would be merged over and lost.
#[tokio::test(flavor = "multi_thread")]
async fn two_instances_updating_one_object_at_once_lose_no_update() {
    const CLIENTS: usize = 16;
    const ROUNDS: u64 = 15;
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let obj_path = format!("/api/v1/doc/{doc}/obj");
    let made = call(
        &http,
        &a.url,
        &key,
        &obj_path,
        Some(json!({"type": "label", "props": {"text": "shared"}})),
    )
    .await;
    let shared = format!("{obj_path}/{}", made.1["objId"].as_str().unwrap());
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|client| {
            // Half the clients write through each instance.
            let base = if client % 2 == 0 { &a.url } else { &b.url }.clone();
            let (http, key, shared) = (http.clone(), key.clone(), shared.clone());
            tokio::spawn(async move {
                for n in 1..=ROUNDS {
                    let body = json!({"props": {format!("p{client}"): n}});
                    let (status, answer) = call(&http, &base, &key, &shared, Some(body)).await;
                    assert_eq!(status, StatusCode::OK, "{answer}");
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    for instance in [&a, &b] {
        let (_, object) = call(&http, &instance.url, &key, &shared, None).await;
        for client in 0..CLIENTS {
            assert_eq!(
                object["data"][format!("p{client}")],
                ROUNDS,
                "client {client}'s last update, read through {}: {object}",
                instance.url
            );
        }
    }
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_listener_that_lost_its_connection_resyncs() {
    let Two {
        url,
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let database = crate::common::database_name(&url).to_owned();
    let mut on_b = Stream::open_at(
        &http,
        &b.url,
        &format!("/api/v1/doc/{doc}/events"),
        &key,
        None,
    )
    .await;
    on_b.expect("current").await;
    let obj_path = format!("/api/v1/doc/{doc}/obj");
    let create = |n: usize| {
        let (http, a, key, obj_path) = (&http, &a.url, &key, &obj_path);
        async move {
            let body = Some(json!({"type": "label", "props": {"text": format!("n{n}")}}));
            let made = call(http, a, key, obj_path, body).await;
            assert_eq!(made.0, StatusCode::OK, "{}", made.1);
            made.1["objId"].as_str().unwrap().to_owned()
        }
    };
    let mut made = Vec::new();
    for n in 0..10 {
        made.push(create(n).await);
    }
    assert_eq!(
        content(&http, &b.url, &key, &doc)
            .await
            .as_object()
            .unwrap()
            .len(),
        10
    );
    // The listening connections go (their backends terminated) and cannot come back while
    // writes go on through `a` (its pooled connections stay): their reports are lost.
    let pg = shared();
    pg.psql(
        "postgres",
        &format!("ALTER DATABASE {database} ALLOW_CONNECTIONS false"),
    );
    let listeners = format!(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
         WHERE datname = '{database}' AND application_name = 'diagtui listener'"
    );
    assert_eq!(pg.query("postgres", &listeners), "2");
    for n in 10..20 {
        made.push(create(n).await);
    }
    pg.psql(
        "postgres",
        &format!("ALTER DATABASE {database} ALLOW_CONNECTIONS true"),
    );
    on_b.until("resync").await;
    let listening = format!(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = '{database}' AND application_name = 'diagtui listener'"
    );
    tokio::time::timeout(PATIENCE, async {
        while pg.query("postgres", &listening) != "2" {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("both listen again");
    // Back: what was lost is read again, and later writes are applied as they come.
    for n in 20..30 {
        made.push(create(n).await);
    }
    let all = content(&http, &b.url, &key, &doc).await;
    assert_eq!(all.as_object().unwrap().len(), 30, "{all}");
    for (n, id) in made.iter().enumerate() {
        assert_eq!(all[id]["data"]["text"], format!("n{n}"));
    }
    stop(a);
    stop(b);
}

#[tokio::test(flavor = "multi_thread")]
async fn conditional_writes_hold_across_instances() {
    use crate::answer::request;
    use reqwest::Method;
    let Two {
        key,
        a,
        b,
        http,
        doc,
        ..
    } = two_instances().await;
    let made = request(
        &http,
        &a.url,
        &key,
        Method::POST,
        &format!("/api/v1/doc/{doc}/obj"),
        &[],
        Some(json!({"type": "label", "props": {"text": "start"}})),
    )
    .await;
    let obj = made.body["objId"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/doc/{doc}/obj/{obj}");
    // One client reads through A, the other through B: the same version.
    let through_a = request(&http, &a.url, &key, Method::GET, &path, &[], None).await;
    let through_b = request(&http, &b.url, &key, Method::GET, &path, &[], None).await;
    assert_eq!(through_a.etag(), made.etag());
    assert_eq!(through_b.etag(), made.etag());
    // Both write with it, each through the other instance: one 200, one 412, nothing lost.
    let won = request(
        &http,
        &b.url,
        &key,
        Method::POST,
        &path,
        &[("if-match", &through_a.etag())],
        Some(json!({"props": {"text": "through b"}})),
    )
    .await;
    assert_eq!(won.status, StatusCode::OK, "{}", won.body);
    let lost = request(
        &http,
        &a.url,
        &key,
        Method::POST,
        &path,
        &[("if-match", &through_b.etag())],
        Some(json!({"props": {"meta": {"by": "a"}}})),
    )
    .await;
    assert_eq!(
        lost.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        lost.body
    );
    assert_eq!(lost.body["objects"][&obj]["data"]["text"], "through b");
    assert_eq!(lost.body["documentVersion"], won.doc_version());
    // A version read through B is good for a write through A.
    let read = request(&http, &b.url, &key, Method::GET, &path, &[], None).await;
    assert_eq!(read.etag(), won.etag());
    let retried = request(
        &http,
        &a.url,
        &key,
        Method::POST,
        &path,
        &[("if-match", &read.etag())],
        Some(json!({"props": {"meta": {"by": "a"}}})),
    )
    .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    for server in [&a, &b] {
        let all = request(
            &http,
            &server.url,
            &key,
            Method::GET,
            &format!("/api/v1/doc/{doc}/obj/all?versions=true"),
            &[],
            None,
        )
        .await;
        assert_eq!(all.body[&obj]["data"]["text"], "through b");
        assert_eq!(all.body[&obj]["data"]["meta"]["by"], "a");
        assert_eq!(all.body[&obj]["version"], retried.doc_version());
        assert_eq!(all.doc_version(), retried.doc_version());
    }
    stop(a);
    stop(b);
}
