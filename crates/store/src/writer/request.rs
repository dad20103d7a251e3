//! A write request as the writer runs it: each kind of request is a type of its own
//! ([`Write`]) with the type of its answer, so that a caller receives what its request
//! answers, never an answer of another kind. A [`Request`] is the request with where its
//! answer goes; the writer keeps the answer until the batch has committed. Each area's file
//! lists its requests with [`area_ops!`]; the queue holds requests of every area as
//! `jobs::Job`.

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
    /// Its area's requests, as the queue holds them: the `Op` that its file declares with
    /// [`area_ops!`].
    type Area: From<Request<Self>> + Send;

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

/// Declares an area's `Op` (in its `ops` file): a variant per request type of the area, each
/// a [`Write`] whose `Area` is this `Op`, and what the writer asks of any of them.
macro_rules! area_ops {
    ($($op:ident,)*) => {
        /// A write request of this area, with where its answer goes.
        #[allow(
            clippy::enum_variant_names,
            reason = "each variant is named by its request's type"
        )]
        pub(crate) enum Op {
            $(
                #[doc = concat!("A [`", stringify!($op), "`] request.")]
                $op($crate::writer::request::Request<$op>),
            )*
        }

        $(
            impl From<$crate::writer::request::Request<$op>> for Op {
                fn from(request: $crate::writer::request::Request<$op>) -> Op {
                    Op::$op(request)
                }
            }
        )*

        impl Op {
            /// Runs the request, keeping its answer until the commit; returns what it changed.
            pub(crate) async fn apply(
                &mut self,
                s: &impl $crate::writer::statements::Statements,
                batch: &mut $crate::batch::Batch<'_>,
            ) -> $crate::error::StoreResult<$crate::change::Committed> {
                match self {
                    $(Op::$op(request) => request.apply(s, batch).await,)*
                }
            }

            /// Answers the request: its answer when its batch committed it, else the failure.
            pub(crate) fn answer(&mut self, result: $crate::error::StoreResult<()>) {
                match self {
                    $(Op::$op(request) => request.answer(result),)*
                }
            }

            /// Whether it stores a large upload (see [`Write::is_bulky`]).
            pub(crate) fn is_bulky(&self) -> bool {
                match self {
                    $(Op::$op(request) => $crate::writer::request::Write::is_bulky(&request.op),)*
                }
            }
        }
    };
}

pub(crate) use area_ops;
