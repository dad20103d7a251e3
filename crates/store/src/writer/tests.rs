//! The write path's own rules, on a transaction in memory: what both engines share.

use std::cell::RefCell;

use super::*;
use crate::engine::CommitObserver;

/// Folders' titles in memory, written by `CreateFolder` requests; a title `panic` panics
/// half-way through its request.
#[derive(Default)]
struct Folders {
    /// The titles written, the open savepoint's included.
    rows: Vec<String>,
    /// How many rows there were when the open savepoint began.
    savepoint: usize,
    /// The titles committed.
    committed: Option<Vec<String>>,
}

/// A transaction on [`Folders`].
struct Tx<'a>(&'a RefCell<Folders>);

impl Transaction for Tx<'_> {
    async fn begin(&mut self, _first: &WriteOp) -> StoreResult<i64> {
        self.0.borrow_mut().savepoint = 0;
        Ok(1)
    }

    async fn apply(&self, op: &mut WriteOp, _batch: &mut Batch<'_>) -> StoreResult<Applied> {
        let WriteOp::CreateFolder { title, .. } = op else {
            return Err(StoreError::Invalid("not a folder".into()));
        };
        self.0.borrow_mut().rows.push(title.clone());
        assert_ne!(title, "panic", "a bug in a request");
        Ok((Outcome::Created(title.clone()), Committed::default()))
    }

    async fn end_request(&mut self, keep: bool, _next: bool) -> StoreResult<()> {
        let mut folders = self.0.borrow_mut();
        if !keep {
            let at = folders.savepoint;
            folders.rows.truncate(at);
        }
        folders.savepoint = folders.rows.len();
        Ok(())
    }

    async fn commit(self, _closing: Closing<'_>) -> StoreResult<()> {
        let mut folders = self.0.borrow_mut();
        folders.committed = Some(std::mem::take(&mut folders.rows));
        Ok(())
    }
}

/// A writer alone, that nobody observes.
struct Alone;

impl Turns for Alone {
    fn observer(&self) -> Option<&dyn CommitObserver> {
        None
    }

    async fn missed_before(&self, _generation: i64) -> bool {
        false
    }

    fn ended(&self, _committed: bool) {}

    fn in_turn(&self, _generation: i64, report: impl FnOnce()) {
        report();
    }
}

fn create(title: &str) -> WriteOp {
    WriteOp::CreateFolder {
        account_id: "me".into(),
        title: title.into(),
    }
}

#[tokio::test]
async fn a_request_that_panics_fails_alone_and_leaves_nothing_behind() {
    let folders = RefCell::new(Folders::default());
    let mut ops = [create("first"), create("panic"), create("third")];
    let done = run_batch(Tx(&folders), &mut ops, &Alone).await;
    assert!(matches!(&done.answers[0], Ok(Outcome::Created(id)) if id == "first"));
    assert!(
        matches!(&done.answers[1], Err(StoreError::Internal(e)) if e.contains("panicked")),
        "{:?}",
        done.answers[1]
    );
    assert!(matches!(&done.answers[2], Ok(Outcome::Created(id)) if id == "third"));
    assert_eq!(
        folders.borrow().committed.as_deref(),
        Some(&["first".to_owned(), "third".to_owned()][..])
    );
}
