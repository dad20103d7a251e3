//! The SQLite writer's tests: a batch's requests, their answers and what they leave, run
//! through the store's one-shot writes (`write_once`), which sit above the writer.

use std::sync::Arc;

use rusqlite::Connection;

use super::writer::*;
use crate::error::StoreError;
use crate::keys::Account;
use crate::sqlite::{account_by_key_once, open_migrated, write_once};
use crate::writer::ops::accounts::Initialise;
use crate::writer::ops::docs::{CreateDoc, DeleteDoc};
use crate::writer::ops::history::CompactHistory;
use crate::writer::ops::objects::{CreateObject, DeleteObject, UpdateObjects};
use crate::writer::{Job, answer, request};

/// A writer that nobody observes or follows.
const ALONE: Around = Around {
    freshness: None,
    observer: None,
    checkpoints: None,
};

/// A data dir set up in `dir` with no samples; its account.
fn set_up(dir: &std::path::Path) -> Account {
    let op = Initialise {
        samples: Vec::new(),
    };
    let key = write_once(dir, op).unwrap().expect("set up");
    account_by_key_once(dir, &key).unwrap().unwrap()
}

/// Runs requests in one batch on `conn`, unobserved, and answers them.
fn run_answered(conn: &mut Connection, mut jobs: Vec<Job>) {
    let done = run(conn, &mut jobs, &ALONE);
    answer(&mut jobs, done.results);
}

#[test]
fn a_failed_request_leaves_the_others_of_its_batch_in() {
    let dir = tempfile::tempdir().unwrap();
    let me = set_up(dir.path());
    let create = |title: &str| {
        request(CreateDoc {
            account_id: me.id.clone(),
            title: title.into(),
            folder_id: None,
        })
    };
    let (first, first_answer) = create("first");
    let (delete, delete_answer) = request(DeleteDoc {
        account_id: me.id.clone(),
        doc_id: "no such document".into(),
    });
    let (third, third_answer) = create("third");
    let (_, mut conn) = open_migrated(dir.path()).unwrap();
    run_answered(&mut conn, vec![first, delete, third]);
    assert!(first_answer.now().is_ok());
    assert!(matches!(
        delete_answer.now(),
        Err(StoreError::DocNotFound(_))
    ));
    assert!(third_answer.now().is_ok());
    let titles: Vec<String> = conn
        .prepare("SELECT title FROM documents ORDER BY title")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(titles, ["first", "third"]);
}

/// Two updates naming the object's version, committed in one batch (one transaction):
/// the second's check runs against what the first wrote, so it fails and writes nothing.
#[test]
fn two_updates_at_one_version_in_one_batch_commit_only_the_first() {
    use crate::object::StoredObject;
    use crate::write::ObjectUpdate;
    use diagtui_model::props::ObjectType;
    use diagtui_model::versions::VersionCondition;

    let dir = tempfile::tempdir().unwrap();
    let me = set_up(dir.path());
    let create_doc = CreateDoc {
        account_id: me.id.clone(),
        title: "Raced".into(),
        folder_id: None,
    };
    let doc = write_once(dir.path(), create_doc).unwrap();
    let object = StoredObject::created(ObjectType::Label, r#"{"text":"start"}"#);
    let create = CreateObject {
        account_id: me.id.clone(),
        doc_id: doc.clone(),
        object: Arc::new(object),
    };
    let (obj, read) = write_once(dir.path(), create).unwrap();
    let update = |text: &str| {
        let props = serde_json::json!({ "text": text })
            .as_object()
            .unwrap()
            .clone();
        request(UpdateObjects {
            account_id: me.id.clone(),
            doc_id: doc.clone(),
            update: Arc::new(ObjectUpdate::Each {
                objects: [(obj.clone(), props)].into(),
                labelled: false,
                if_versions: [(obj.clone(), VersionCondition::OneOf(vec![read]))].into(),
            }),
            plan: None,
        })
    };
    let (first, first_answer) = update("first");
    let (second, second_answer) = update("second");
    let (_, mut conn) = open_migrated(dir.path()).unwrap();
    run_answered(&mut conn, vec![first, second]);
    let (_, written) = first_answer.now().unwrap();
    assert_eq!(written, read + 1);
    let refused = second_answer.now();
    let Err(StoreError::PreconditionFailed(failed)) = &refused else {
        panic!("the second is refused: {refused:?}");
    };
    assert_eq!(failed.document_version, read + 1);
    let current = failed.objects.as_ref().unwrap()[0].1.as_ref().unwrap();
    assert_eq!(current.version(), read + 1);
    assert!(current.data().contains("first"), "{}", current.data());
    let (data, version): (String, i64) = conn
        .query_row(
            "SELECT data, version FROM objects WHERE obj_id = ?1",
            [&obj],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert!(data.contains("first"), "{data}");
    assert_eq!(version as u64, read + 1);
}

/// The numbers a query answers for a document.
fn numbers(conn: &Connection, sql: &str, doc: &str) -> Vec<i64> {
    conn.prepare(sql)
        .unwrap()
        .query_map([doc], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A document's stored versions; `alone`: only those whose row keeps the one object they
/// changed.
fn versions_of(conn: &Connection, doc: &str, alone: bool) -> Vec<i64> {
    let sql = format!(
        "SELECT v.id - h.num * 1099511627776 FROM history_heads h JOIN history_versions v \
         ON v.id / 1099511627776 = h.num WHERE h.doc_id = ?1 {} ORDER BY v.id",
        if alone {
            "AND v.obj_id IS NOT NULL"
        } else {
            ""
        }
    );
    numbers(conn, &sql, doc)
}

/// The versions of a document's snapshots, one per object.
fn snapshots_of(conn: &Connection, doc: &str) -> Vec<i64> {
    let sql = "SELECT version FROM history_snapshots WHERE doc_id = ?1 ORDER BY version";
    numbers(conn, sql, doc)
}

/// How many versions belong to no history.
fn orphans(conn: &Connection) -> i64 {
    conn.query_row(
        "SELECT count(*) FROM history_versions WHERE id / 1099511627776 NOT IN \
         (SELECT num FROM history_heads)",
        [],
        |row| row.get(0),
    )
    .unwrap()
}

/// A batch's versions are written at its commit: a failed request's are not, a document
/// deleted later in the batch takes its own with it, and a compaction in the batch sees only
/// what earlier batches stored.
#[test]
fn a_batch_writes_the_versions_of_its_committed_requests_at_its_commit() {
    use crate::object::StoredObject;
    use diagtui_model::props::ObjectType;

    let dir = tempfile::tempdir().unwrap();
    let me = set_up(dir.path());
    let create_doc = |title: &str| CreateDoc {
        account_id: me.id.clone(),
        title: title.into(),
        folder_id: None,
    };
    let kept = write_once(dir.path(), create_doc("kept")).unwrap();
    let gone = write_once(dir.path(), create_doc("gone")).unwrap();
    let label = |doc: &str| {
        request(CreateObject {
            account_id: me.id.clone(),
            doc_id: doc.to_owned(),
            object: Arc::new(StoredObject::created(ObjectType::Label, r#"{"text":"a"}"#)),
        })
    };
    let compact = || {
        request(CompactHistory {
            cutoff: "9999-01-01T00:00:00.000Z".into(),
        })
    };
    let (label_1, label_1_answer) = label(&kept);
    let (missing, missing_answer) = request(DeleteObject {
        account_id: me.id.clone(),
        doc_id: kept.clone(),
        obj_id: "nosuchobject".into(),
        if_match: None,
    });
    let (label_2, label_2_answer) = label(&kept);
    let (label_3, label_3_answer) = label(&gone);
    let (delete, delete_answer) = request(DeleteDoc {
        account_id: me.id.clone(),
        doc_id: gone.clone(),
    });
    let (compacted, compacted_answer) = compact();
    let (_, mut conn) = open_migrated(dir.path()).unwrap();
    let jobs = vec![label_1, missing, label_2, label_3, delete, compacted];
    run_answered(&mut conn, jobs);
    assert!(matches!(
        missing_answer.now(),
        Err(StoreError::ObjNotFound(_))
    ));
    assert!(label_1_answer.now().is_ok() && label_2_answer.now().is_ok());
    assert!(label_3_answer.now().is_ok() && delete_answer.now().is_ok());
    assert!(compacted_answer.now().is_ok());
    assert_eq!(versions_of(&conn, &kept, false), [1, 2, 3]);
    assert_eq!(
        versions_of(&conn, &kept, true),
        [2, 3],
        "one label each, in its row"
    );
    assert_eq!(versions_of(&conn, &gone, false), [0; 0]);
    assert_eq!(
        orphans(&conn),
        0,
        "the deleted document's versions went with it"
    );
    // The compaction in the batch kept everything: nothing stored was older than version 1.
    assert_eq!(snapshots_of(&conn, &kept), [0; 0]);

    // Compacted in a batch of its own, the history keeps its newest version as a snapshot
    // of the content then: both labels.
    let (compacted, compacted_answer) = compact();
    run_answered(&mut conn, vec![compacted]);
    assert!(compacted_answer.now().is_ok());
    assert_eq!(versions_of(&conn, &kept, false), [3]);
    assert_eq!(snapshots_of(&conn, &kept), [3, 3]);
}
