//! A document's history in the store, on SQLite in a temp data dir (durable commits): the size
//! that 10,000 single-object updates to a 10,000-object document add (each object updated once,
//! 32 writers at a time), their rate, the newest 100 versions listed, the content 10,000
//! versions back, one version with its objects before and after (the before is the content one
//! version back), and a restore of all 10,000 objects. Run with `cargo bench --bench history`;
//! prints the figures.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use diagtui_store::content::ContentUpload;
use diagtui_store::{Account, Location, Store, StoreOptions, initialise};
use serde_json::json;

const OBJECTS: usize = 10_000;
const WRITERS: usize = 32;

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let key = initialise(&Location::DataDir(dir.path().to_owned()), &[])
            .await
            .unwrap()
            .unwrap();
        let (store, me) = open(dir.path(), &key).await;
        let doc = store.create_doc(&me, "History", None).await.unwrap();
        let content = diagtui_testkit::generated::content(OBJECTS);
        let ids: Vec<String> = content.keys().cloned().collect();
        let body = Bytes::from(serde_json::to_vec(&content).unwrap());
        store
            .set_content(&me, &doc, ContentUpload::parse(body).unwrap(), None)
            .await
            .unwrap();
        drop(store);
        let before = stored_bytes(dir.path());

        let (store, me) = open(dir.path(), &key).await;
        let store = Arc::new(store);
        let started = Instant::now();
        let mut writers = Vec::new();
        for part in ids.chunks(OBJECTS / WRITERS + 1) {
            let (store, me, doc, part) = (store.clone(), me.clone(), doc.clone(), part.to_vec());
            writers.push(tokio::spawn(async move {
                for id in part {
                    let props = json!({"opacity": 0.5}).as_object().unwrap().clone();
                    store.update_object(&me, &doc, &id, props, None).await.unwrap();
                }
            }));
        }
        for writer in writers {
            writer.await.unwrap();
        }
        let took = started.elapsed();
        drop(store);
        let after = stored_bytes(dir.path());
        println!(
            "{OBJECTS} single-object updates, {WRITERS} writers: {:.0}/s; the store grew by {:.1} MB ({} → {} bytes in use)",
            OBJECTS as f64 / took.as_secs_f64(),
            (after - before) as f64 / 1e6,
            before,
            after
        );

        let (store, me) = open(dir.path(), &key).await;
        let head = store.history(&me, &doc, None, 1, None).await.unwrap().head;
        let list = median(20, || async {
            let page = store.history(&me, &doc, None, 100, None).await.unwrap();
            assert_eq!(page.versions.len(), 100);
        })
        .await;
        println!("the newest 100 versions listed: median {list:?}");
        // 10,000 versions back is the set-content's version, a snapshot; the version before
        // the newest is the farthest from one (its snapshot plus 9,999 changes).
        let back = head - OBJECTS as u64;
        for (at, what) in [(back, "10,000 versions back"), (head - 1, "farthest from a snapshot")] {
            let took = median(5, || async {
                store.content_json_at(&me, &doc, at).await.unwrap();
            })
            .await;
            println!("the content at version {at} of {head} ({what}): median {took:?}");
        }
        let took = median(5, || async {
            let details = store.version(&me, &doc, head - 1).await.unwrap();
            assert!(details.objects.iter().all(|o| o.before.is_some()));
        })
        .await;
        println!(
            "version {} with its object before and after (farthest from a snapshot): median {took:?}",
            head - 1
        );
        let mut times = Vec::new();
        for round in 0..3u64 {
            let (to, expected) = if round % 2 == 0 { (back, OBJECTS) } else { (head, OBJECTS) };
            let started = Instant::now();
            let restored = store.restore(&me, &doc, to, None).await.unwrap();
            times.push(started.elapsed());
            assert_eq!(restored.changed as usize, expected);
        }
        times.sort();
        println!("a restore changing all {OBJECTS} objects: median {:?} of 3", times[1]);
    });
}

/// A store on the data dir and the account of the key.
async fn open(dir: &Path, key: &str) -> (Store, Account) {
    let store = Store::open(dir, StoreOptions::default()).unwrap();
    let me = store.authenticate(key).await.unwrap().unwrap();
    (store, me)
}

/// The bytes the database holds (the store closed): its log checkpointed into the file, then
/// the pages in use (free pages, which later writes reuse, not counted); and the bytes of each
/// history table.
fn stored_bytes(dir: &Path) -> u64 {
    let conn = rusqlite::Connection::open(dir.join(diagtui_store::DB_FILE)).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    let pragma = |name: &str| -> u64 {
        conn.query_row(&format!("PRAGMA {name}"), [], |row| row.get::<_, i64>(0))
            .unwrap() as u64
    };
    let mut tables = conn
        .prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6")
        .unwrap();
    let sizes: Vec<String> = tables
        .query_map([], |row| {
            Ok(format!(
                "{} {:.1} MB",
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)? as f64 / 1e6
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    println!("  largest: {}", sizes.join(", "));
    (pragma("page_count") - pragma("freelist_count")) * pragma("page_size")
}

/// The median time of `runs` runs of `f`.
async fn median<F, Fut>(runs: usize, f: F) -> Duration
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        f().await;
        times.push(started.elapsed());
    }
    times.sort();
    times[runs / 2]
}
