//! The SQLite write-ahead log under sustained writes: the writer finishes the checkpointer's
//! passes between its batches, so that the log starts over and the file stays bounded.

use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::any::Location;

/// Tasks writing at once, so that a commit is always under way while the checkpointer copies.
const WRITERS: usize = 8;
/// Updates per task; each writes some 128 KB into the log twice (the object and its version).
const UPDATES: usize = 60;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_wal_stays_bounded_under_sustained_concurrent_writes() {
    let dir = tempfile::tempdir().unwrap();
    let key = initialise(&Location::DataDir(dir.path().to_owned()), &[])
        .await
        .unwrap()
        .unwrap();
    let store = Arc::new(Store::open(dir.path(), StoreOptions::default()).unwrap());
    let me = store.authenticate(&key).await.unwrap().unwrap();
    let doc = store.create_doc(&me, "Busy", None).await.unwrap();
    let wal = dir.path().join(format!("{}-wal", crate::DB_FILE));
    let tasks: Vec<_> = (0..WRITERS)
        .map(|writer| {
            let (store, me, doc, wal) = (Arc::clone(&store), me.clone(), doc.clone(), wal.clone());
            tokio::spawn(async move {
                let text = |n: usize| json!({"text": format!("{n}{}", "w".repeat(128 << 10))});
                let props = |n| text(n).as_object().unwrap().clone();
                let (obj, _) = store
                    .create_object(&me, &doc, "label", &props(writer))
                    .await
                    .unwrap();
                let mut largest = 0;
                for n in 0..UPDATES {
                    store
                        .update_object(&me, &doc, &obj, props(n), None)
                        .await
                        .unwrap();
                    largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
                }
                largest
            })
        })
        .collect();
    let mut largest = 0;
    for task in tasks {
        largest = largest.max(task.await.unwrap());
    }
    // Some 120 MB went through the log; without restarts it would hold them all. Started over
    // past 16 MiB, it holds at most that, what came in during the checkpointer's pass and the
    // writer's next batches.
    eprintln!("largest {largest}");
    assert!(largest <= 40 << 20, "the WAL reached {largest} bytes");
}
