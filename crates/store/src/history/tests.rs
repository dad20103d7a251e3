use serde_json::json;

use crate::{DB_FILE, Location, Store, StoreOptions, initialise};

/// How many rows of each history table belong to a document.
fn rows_of(dir: &std::path::Path, doc: &str) -> Vec<i64> {
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    [
        "history_heads",
        "history_versions",
        "history_changes",
        "history_snapshots",
    ]
    .iter()
    .map(|table| {
        let sql = format!("SELECT count(*) FROM {table} WHERE doc_id = ?1");
        conn.query_row(&sql, [doc], |row| row.get(0)).unwrap()
    })
    .collect()
}

#[tokio::test]
async fn a_documents_history_goes_with_it_and_its_folders() {
    let dir = tempfile::tempdir().unwrap();
    let at = Location::DataDir(dir.path().to_owned());
    let key = initialise(&at, &[]).await.unwrap().unwrap();
    let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
    let me = store.authenticate(&key).await.unwrap().unwrap();
    let props = json!({"text": "a"}).as_object().unwrap().clone();
    let doc = store.create_doc(&me, "Gone", None).await.unwrap();
    store
        .create_object(&me, &doc, "label", &props)
        .await
        .unwrap();
    let folder = store.create_folder(&me, "Folder").await.unwrap();
    let in_folder = store
        .create_doc(&me, "Gone too", Some(&folder))
        .await
        .unwrap();
    store
        .create_object(&me, &in_folder, "label", &props)
        .await
        .unwrap();
    assert_eq!(
        rows_of(dir.path(), &doc),
        [1, 2, 1, 0],
        "head, versions, a change"
    );

    store.delete_doc(&me, &doc).await.unwrap();
    store.delete_folder(&me, &folder).await.unwrap();
    assert_eq!(rows_of(dir.path(), &doc), [0, 0, 0, 0]);
    assert_eq!(rows_of(dir.path(), &in_folder), [0, 0, 0, 0]);
}
