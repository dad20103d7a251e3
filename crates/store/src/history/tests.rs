use serde_json::json;

use crate::{DB_FILE, Location, Store, StoreOptions, initialise};

/// How many rows of each history table belong to a document: its head, its versions (by
/// their keys), those of its versions that keep their one changed object, its changes and its
/// snapshots; and how many versions belong to no head.
fn rows_of(dir: &std::path::Path, doc: &str) -> Vec<i64> {
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    let versions = "SELECT count(*) FROM history_versions v JOIN history_heads h \
                    ON v.id / 1099511627776 = h.num WHERE h.doc_id = ?1";
    [
        "SELECT count(*) FROM history_heads WHERE doc_id = ?1",
        versions,
        &format!("{versions} AND v.obj_id IS NOT NULL"),
        "SELECT count(*) FROM history_changes WHERE doc_id = ?1",
        "SELECT count(*) FROM history_snapshots WHERE doc_id = ?1",
        "SELECT count(*) + 0 * length(?1) FROM history_versions \
         WHERE id / 1099511627776 NOT IN (SELECT num FROM history_heads)",
    ]
    .iter()
    .map(|sql| conn.query_row(sql, [doc], |row| row.get(0)).unwrap())
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
        [1, 2, 1, 0, 0, 0],
        "head, versions, one keeping its change"
    );

    store.delete_doc(&me, &doc).await.unwrap();
    store.delete_folder(&me, &folder).await.unwrap();
    assert_eq!(rows_of(dir.path(), &doc), [0; 6]);
    assert_eq!(rows_of(dir.path(), &in_folder), [0; 6]);
}
