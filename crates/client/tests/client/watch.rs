//! Following event streams with the client's `Watch`: events in order, a lost connection and
//! the pause before the next try, resuming after a server restart on the same port, a server
//! without the streams, a document that is not there.

use std::net::SocketAddr;
use std::time::Duration;

use crate::Local;
use crate::client_with_key;
use diagtui_client::{AccountStreamEvent, DocStreamEvent, FIRST_RETRY, Watch, Watched};
use diagtui_model::events::{DocEventKind, ResyncReason};
use diagtui_server::{LocalServer, ServerOptions};
use diagtui_store::Location;
use serde_json::json;

/// Longer than anything here should take.
const PATIENCE: Duration = Duration::from_secs(30);

/// The next thing the watch brings, in time.
async fn next<T: diagtui_client::StreamEvent>(watch: &mut Watch<T>) -> Watched<T> {
    tokio::time::timeout(PATIENCE, watch.next())
        .await
        .expect("something in time")
        .expect("the watch goes on")
}

fn props(value: serde_json::Value) -> diagtui_model::Props {
    value.as_object().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watch_brings_the_current_state_then_each_change() {
    let f = Local::start().await;
    let doc = f.client.create_doc("Watched", None).await.unwrap();
    let mut watch = f.client.watch_doc(&doc);
    assert_eq!(next(&mut watch).await, Watched::Connected);
    let details = f.client.doc_details(&doc).await.unwrap();
    let Watched::Event(DocStreamEvent::Current(current)) = next(&mut watch).await else {
        panic!("current first");
    };
    assert_eq!(current.last_change.as_deref(), Some(&*details.last_change));
    let obj = f
        .client
        .create_object(&doc, "label", &props(json!({})))
        .await
        .unwrap();
    let Watched::Event(DocStreamEvent::Change(change)) = next(&mut watch).await else {
        panic!("a change");
    };
    assert_eq!(change.changed, [obj]);
    assert!(watch.last_id().is_some());

    let mut account = f.client.watch_account();
    assert_eq!(next(&mut account).await, Watched::Connected);
    assert_eq!(
        next(&mut account).await,
        Watched::Event(AccountStreamEvent::Current)
    );
    f.client.rename_doc(&doc, "Renamed").await.unwrap();
    let Watched::Event(AccountStreamEvent::Change(event)) = next(&mut account).await else {
        panic!("a change");
    };
    assert_eq!(
        (event.doc_id, event.document),
        (doc, DocEventKind::Retitled)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watch_reconnects_to_a_server_started_again_on_the_same_port() {
    let dir = tempfile::tempdir().unwrap();
    let server = LocalServer::start(dir.path()).await.unwrap();
    let addr: SocketAddr = server.url().trim_start_matches("http://").parse().unwrap();
    let client = client_with_key(&server, server.api_key());
    let doc = client.create_doc("Survives", None).await.unwrap();
    let mut watch = client.watch_doc(&doc);
    assert_eq!(next(&mut watch).await, Watched::Connected);
    assert!(matches!(
        next(&mut watch).await,
        Watched::Event(DocStreamEvent::Current(_))
    ));
    server.shutdown().await;
    let Watched::Lost { retry_in, .. } = next(&mut watch).await else {
        panic!("lost when the server stops");
    };
    assert_eq!(retry_in, FIRST_RETRY);
    let Watched::Lost { retry_in, .. } = next(&mut watch).await else {
        panic!("nothing listens on the port");
    };
    assert_eq!(retry_in, FIRST_RETRY * 2, "the pause grows");

    let again = LocalServer::start_on(
        Location::DataDir(dir.path().to_owned()),
        addr,
        ServerOptions::default(),
    )
    .await
    .unwrap();
    loop {
        match next(&mut watch).await {
            Watched::Lost { .. } => {}
            Watched::Connected => break,
            other => panic!("{other:?}"),
        }
    }
    let Watched::Event(DocStreamEvent::Resync(resync)) = next(&mut watch).await else {
        panic!("a resync: the events of the old run are gone");
    };
    assert_eq!(resync.reason, ResyncReason::Backlog);
    client.empty_doc(&doc).await.unwrap();
    let Watched::Event(DocStreamEvent::Change(change)) = next(&mut watch).await else {
        panic!("a change");
    };
    assert_eq!(change.document, Some(DocEventKind::Emptied));
    again.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_without_the_streams_is_unsupported_and_a_missing_document_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let options = ServerOptions {
        events: false,
        ..ServerOptions::default()
    };
    let server = LocalServer::start_with(dir.path(), options).await.unwrap();
    let client = client_with_key(&server, server.api_key());
    let doc = client.create_doc("Polled", None).await.unwrap();
    let mut watch = client.watch_doc(&doc);
    assert!(matches!(next(&mut watch).await, Watched::Unsupported(_)));
    assert_eq!(watch.next().await, None, "nothing follows");

    let f = Local::start().await;
    let mut watch = f.client.watch_doc("no-such-doc");
    let Watched::Failed(error) = next(&mut watch).await else {
        panic!("a failure");
    };
    assert_eq!(error.status(), Some(404));
    assert_eq!(watch.next().await, None);
}
