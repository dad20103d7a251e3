use serde_json::json;

use crate::any::Location;
use crate::sqlite::DB_FILE;
use crate::store::{Store, StoreOptions, initialise};

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

/// The texts of each changed object before and after a version, in id order.
async fn texts(store: &Store, me: &crate::Account, doc: &str, version: u64) -> Vec<String> {
    let text = |side: &Option<diagtui_model::DiagramObject>| match side {
        Some(object) => object.data["text"].as_str().unwrap_or("?").to_owned(),
        None => "-".to_owned(),
    };
    let details = store.version(me, doc, version).await.unwrap();
    details
        .objects
        .iter()
        .map(|change| format!("{}>{}", text(&change.before), text(&change.after)))
        .collect()
}

#[tokio::test]
async fn states_before_a_version_are_the_content_one_version_back() {
    let dir = tempfile::tempdir().unwrap();
    let at = Location::DataDir(dir.path().to_owned());
    let key = initialise(&at, &[]).await.unwrap().unwrap();
    let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
    let me = store.authenticate(&key).await.unwrap().unwrap();
    let doc = store.create_doc(&me, "Before", None).await.unwrap(); // 1
    let labels = |text: &str| -> serde_json::Map<String, serde_json::Value> {
        (0..70)
            .map(|n| {
                (
                    format!("label{n:02}"),
                    json!({"type": "label", "data": {"text": text}}),
                )
            })
            .collect()
    };
    let body = bytes::Bytes::from(serde_json::to_vec(&labels("a")).unwrap());
    let upload = crate::content::ContentUpload::parse(body).unwrap();
    store.set_content(&me, &doc, upload, None).await.unwrap(); // 2: 70 created
    let props = |text: &str| json!({"text": text}).as_object().unwrap().clone();
    let each = (0..70)
        .map(|n| (format!("label{n:02}"), props("b")))
        .collect();
    store
        .bulk_update(&me, &doc, each, Default::default())
        .await
        .unwrap(); // 3: 70 changed, read from the content
    store
        .update_object(&me, &doc, "label05", props("c"), None)
        .await
        .unwrap(); // 4: one, looked up
    store
        .delete_object(&me, &doc, "label06", None)
        .await
        .unwrap(); // 5: one, looked up

    assert_eq!(texts(&store, &me, &doc, 2).await, vec!["->a"; 70]);
    assert_eq!(texts(&store, &me, &doc, 3).await, vec!["a>b"; 70]);
    assert_eq!(texts(&store, &me, &doc, 4).await, ["b>c"]);
    assert_eq!(texts(&store, &me, &doc, 5).await, ["b>-"]);
    store
        .update_object(&me, &doc, "label07", props("d"), None)
        .await
        .unwrap(); // 6: one never changed alone, from its last bulk change
    assert_eq!(texts(&store, &me, &doc, 6).await, ["b>d"]);

    // Compacted to version 4 and later, version 4 still shows its object before it.
    let conn = rusqlite::Connection::open(dir.path().join(DB_FILE)).unwrap();
    conn.execute(
        "UPDATE history_versions SET at = '2000-01-01T00:00:00.000Z' WHERE id % 1099511627776 <= 3",
        [],
    )
    .unwrap();
    store
        .compact_history(std::time::Duration::from_secs(3600))
        .await
        .unwrap();
    let page = store.history(&me, &doc, None, 10, None).await.unwrap();
    assert_eq!(page.oldest, 4);
    assert_eq!(texts(&store, &me, &doc, 4).await, ["b>c"]);
    assert_eq!(texts(&store, &me, &doc, 5).await, ["b>-"]);
    assert_eq!(
        texts(&store, &me, &doc, 6).await,
        ["b>d"],
        "from the kept snapshot"
    );
}
