//! The write path's own rules, on a transaction in memory: what both engines share.

use std::cell::RefCell;

use super::jobs::Area;
use super::ops::folders::{self, CreateFolder};
use super::request::Answer;
use super::*;
use crate::observer::CommitObserver;

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
    async fn begin(&mut self, _first: &Job) -> StoreResult<i64> {
        self.0.borrow_mut().savepoint = 0;
        Ok(1)
    }

    async fn apply(&self, job: &mut Job, _batch: &mut Batch<'_>) -> StoreResult<Committed> {
        let Job(Area::Folders(folders::Op::CreateFolder(request))) = job else {
            return Err(StoreError::Invalid("not a folder".into()));
        };
        let title = request.op.title.clone();
        self.0.borrow_mut().rows.push(title.clone());
        assert_ne!(title, "panic", "a bug in a request");
        request.answer = Some(title);
        Ok(Committed::default())
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

/// A folder's creation queued, and where its answer arrives.
fn create(title: &str) -> (Job, Answer<String>) {
    request(CreateFolder {
        account_id: "me".into(),
        title: title.into(),
    })
}

#[tokio::test]
async fn a_request_that_panics_fails_alone_and_leaves_nothing_behind() {
    let folders = RefCell::new(Folders::default());
    let (answers, mut jobs): (Vec<_>, Vec<_>) = ["first", "panic", "third"]
        .into_iter()
        .map(|title| {
            let (job, answer) = create(title);
            (answer, job)
        })
        .unzip();
    let done = run_batch(Tx(&folders), &mut jobs, &Alone).await;
    answer(&mut jobs, done.results);
    let answers: Vec<StoreResult<String>> = answers.into_iter().map(Answer::now).collect();
    assert!(matches!(&answers[0], Ok(id) if id == "first"));
    assert!(
        matches!(&answers[1], Err(StoreError::Internal(e)) if e.contains("panicked")),
        "{:?}",
        answers[1]
    );
    assert!(matches!(&answers[2], Ok(id) if id == "third"));
    assert_eq!(
        folders.borrow().committed.as_deref(),
        Some(&["first".to_owned(), "third".to_owned()][..])
    );
}
