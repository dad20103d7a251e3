//! A new document from a file end to end: the real worker, the real file read, the local
//! server's create-diagram. A CSV file becomes a laid-out document opened on its map; a Mermaid
//! file the server refuses leaves no document behind and keeps the prompt.

use crate::harness::overlay_text;
use crate::live::Live;

#[tokio::test]
async fn a_csv_file_becomes_a_document_and_a_refused_mermaid_file_leaves_none() {
    let mut live = Live::start("From file e2e", &Default::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("services.csv");
    std::fs::write(
        &csv,
        "id,type,componentType,groups,connections,label\n\
         lb,component,networking.haproxy,vpc,\"app1, app2\",Balancer\n\
         app1,component,generic.server,vpc,,App one\n\
         app2,component,generic.server,vpc,,App two\n\
         vpc,group,,,,Main VPC\n",
    )
    .unwrap();
    live.keys("1 n").await;
    live.ctrl('o').await;
    live.text(&csv.display().to_string()).await;
    live.keys("Enter").await;

    let docs = live.client.list_docs().await.unwrap();
    let made = docs
        .iter()
        .find(|d| d.title == "services")
        .expect("a document named after the file");
    let content = live.client.content(&made.id).await.unwrap();
    for id in ["lb", "app1", "app2", "vpc"] {
        assert!(content.contains_key(id), "{id} laid out: {content:?}");
    }
    let screen = live.screen();
    assert!(
        screen.contains(&format!(
            "made \"services\" from {}: {} objects laid out",
            csv.display(),
            content.len()
        )),
        "{screen}"
    );
    assert!(screen.contains("Map"), "{screen}");
    assert!(
        screen.contains("Balancer"),
        "the map shows the diagram: {screen}"
    );

    // A Mermaid file with a line the server cannot read.
    let mmd = dir.path().join("broken.mmd");
    std::fs::write(
        &mmd,
        "flowchart LR\n  a[Web] --> b[(DB)]\n  this is not mermaid\n",
    )
    .unwrap();
    live.keys("1 n").await;
    live.ctrl('o').await;
    live.text(&mmd.display().to_string()).await;
    live.keys("Enter").await;
    let screen = live.screen();
    assert!(
        overlay_text(&screen, "New document from a file").contains("broken.mmd"),
        "the prompt is kept: {screen}"
    );
    assert!(screen.contains("HTTP 400 VALIDATION_ERROR"), "{screen}");
    assert!(screen.contains("line 3"), "{screen}");
    let docs = live.client.list_docs().await.unwrap();
    assert!(
        !docs.iter().any(|d| d.title == "broken"),
        "nothing left behind: {docs:?}"
    );
    live.server.shutdown().await;
}
