//! A write request as the writer runs it: each kind of request is a type of its own
//! ([`Write`]) with the type of its answer, so that a caller receives what its request
//! answers, never an answer of another kind. A [`Request`] is the request with where its
//! answer goes; the writer keeps the answer until the batch has committed. The queue holds
//! requests of every kind as `jobs::Job`.

use tokio::sync::oneshot;

use super::statements::Statements;
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::{StoreError, StoreResult};

/// A request's answer and what it changed, or why it failed.
pub(crate) type Applied<A> = StoreResult<(A, Committed)>;

/// One kind of write request: what it answers, and how it runs inside the writer's transaction.
pub(crate) trait Write: Send + Sized + 'static {
    /// What it answers once committed.
    type Answer: Send + 'static;

    /// Runs the request through an engine's statements; returns its answer and what it changed.
    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<Self::Answer>;

    /// Whether it stores a large upload, after which the memory the upload took is worth
    /// giving back to the operating system.
    fn is_bulky(&self) -> bool {
        false
    }
}

/// A write request with where its answer goes.
pub(crate) struct Request<W: Write> {
    /// The request.
    pub(crate) op: W,
    /// Where its answer goes; `None` once answered.
    pub(super) reply: Option<oneshot::Sender<StoreResult<W::Answer>>>,
    /// Its answer, kept from its run until the batch commits.
    pub(super) answer: Option<W::Answer>,
}

impl<W: Write> Request<W> {
    /// Runs the request, keeping its answer; returns what it changed.
    pub(super) async fn apply(
        &mut self,
        s: &impl Statements,
        batch: &mut Batch<'_>,
    ) -> StoreResult<Committed> {
        let (answer, report) = self.op.apply(s, batch).await?;
        self.answer = Some(answer);
        Ok(report)
    }

    /// Answers the request: its kept answer when its batch committed it, else the failure.
    pub(super) fn answer(&mut self, result: StoreResult<()>) {
        let answer = result.and_then(|()| {
            self.answer
                .take()
                .ok_or_else(|| StoreError::Internal("a write kept no answer".into()))
        });
        if let Some(reply) = self.reply.take() {
            let _ = reply.send(answer);
        }
    }
}

/// Where a request's answer arrives.
pub(crate) struct Answer<A>(pub(super) oneshot::Receiver<StoreResult<A>>);

impl<A> Answer<A> {
    /// Waits for the answer.
    pub async fn wait(self) -> StoreResult<A> {
        self.0.await.map_err(|_| stopped())?
    }

    /// The answer of a request already answered (a batch run on this thread).
    pub fn now(mut self) -> StoreResult<A> {
        self.0.try_recv().map_err(|_| stopped())?
    }
}

/// The failure of a request whose writer went away.
pub(super) fn stopped() -> StoreError {
    StoreError::Internal("the writer has stopped".into())
}
