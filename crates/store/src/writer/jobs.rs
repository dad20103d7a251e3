//! Every write request, as the writer's queue holds them: a [`Job`] holds a request of one
//! area (see [`ops`](super::ops)), each area's `Op` a request of one type. A new kind of write
//! is its type, handler and name in its area's file; a new area, a line here.

use tokio::sync::{mpsc, oneshot};

use super::ops::{accounts, content, docs, embeds, folders, history, objects};
use super::request::{Answer, Request, Write, stopped};
use super::statements::Statements;
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::StoreResult;

/// A write request queued for the writer, with where its answer goes (an engine hands it on
/// without looking inside).
pub struct Job(pub(crate) Area);

/// A kind of write request that the writer's queue takes (any [`Write`] of an area listed in
/// [`Area`]).
pub(crate) trait Queue: Write {
    /// The request, with where its answer goes, as the queue holds it.
    fn queued(request: Request<Self>) -> Job;
}

impl<W: Write> Queue for W
where
    Job: From<W::Area>,
{
    fn queued(request: Request<Self>) -> Job {
        Job::from(W::Area::from(request))
    }
}

/// Declares [`Area`], a variant per area's `Op`, and what the writer asks of any job.
macro_rules! areas {
    ($($area:ident($op:ty),)*) => {
        /// A write request of any area.
        pub(crate) enum Area {
            $(
                #[doc = concat!("A request of `", stringify!($op), "`.")]
                $area($op),
            )*
        }

        $(
            impl From<$op> for Job {
                fn from(op: $op) -> Job {
                    Job(Area::$area(op))
                }
            }
        )*

        impl Job {
            /// Runs the request, keeping its answer until the commit; returns what it changed.
            pub(crate) async fn apply(
                &mut self,
                s: &impl Statements,
                batch: &mut Batch<'_>,
            ) -> StoreResult<Committed> {
                match &mut self.0 {
                    $(Area::$area(op) => op.apply(s, batch).await,)*
                }
            }

            /// Answers the request: its answer when its batch committed it, else the failure.
            pub(crate) fn answer(&mut self, result: StoreResult<()>) {
                match &mut self.0 {
                    $(Area::$area(op) => op.answer(result),)*
                }
            }

            /// Whether it stores a large upload (see [`Write::is_bulky`]).
            pub(crate) fn is_bulky(&self) -> bool {
                match &self.0 {
                    $(Area::$area(op) => op.is_bulky(),)*
                }
            }
        }
    };
}

areas! {
    Accounts(accounts::Op),
    Folders(folders::Op),
    Docs(docs::Op),
    Content(content::Op),
    Objects(objects::Op),
    History(history::Op),
    Embeds(embeds::Op),
}

/// A request queued as a [`Job`], and where its answer arrives.
pub(crate) fn request<W: Queue>(op: W) -> (Job, Answer<W::Answer>) {
    let (reply, answer) = oneshot::channel();
    let request = Request {
        op,
        reply: Some(reply),
        answer: None,
    };
    (W::queued(request), Answer(answer))
}

/// Hands a request to a writer's queue.
pub(crate) async fn queue(writer: &mpsc::Sender<Job>, job: Job) -> StoreResult<()> {
    writer.send(job).await.map_err(|_| stopped())
}
