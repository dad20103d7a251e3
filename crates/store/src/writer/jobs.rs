//! Every kind of write request, as the writer's queue holds them: one [`Job`] variant per
//! request type (see [`ops`](super::ops)). A new kind of write is its type and handler in the
//! `ops` file of its area, and a line here.

use super::ops::accounts::{CreateAccount, Initialise, RotateKey};
use super::ops::content::{AddObjects, EmptyDoc, SetContent};
use super::ops::docs::{CloneDoc, CreateDoc, DeleteDoc, MoveDoc, RenameDoc, Share};
use super::ops::embeds::{CreateStatic, DeleteStatic, DisableLive, EnableLive, RotateLive};
use super::ops::folders::{CreateFolder, DeleteFolder, RenameFolder};
use super::ops::history::CompactHistory;
use super::ops::objects::{CreateObject, DeleteObject, UpdateObjects};
use super::request::{Answer, Request, Write, stopped};
use super::statements::Statements;
use crate::batch::Batch;
use crate::change::Committed;
use crate::error::StoreResult;
use tokio::sync::{mpsc, oneshot};

/// A kind of write request that the writer's queue takes (one [`Job`] variant each).
pub(crate) trait Queue: Write {
    /// The request, with where its answer goes, as the queue holds it.
    fn queued(request: Request<Self>) -> Job;
}

/// A write request queued for the writer, with where its answer goes (an engine hands it on
/// without looking inside).
pub struct Job(pub(crate) Op);

/// Declares [`Op`], a variant per request type, and what the writer asks of any job.
macro_rules! jobs {
    ($($op:ident,)*) => {
        /// A write request of any kind, with where its answer goes.
        pub(crate) enum Op {
            $(
                #[doc = concat!("A [`", stringify!($op), "`] request.")]
                $op(Request<$op>),
            )*
        }

        $(
            impl Queue for $op {
                fn queued(request: Request<Self>) -> Job {
                    Job(Op::$op(request))
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
                    $(Op::$op(request) => request.apply(s, batch).await,)*
                }
            }

            /// Answers the request: its answer when its batch committed it, else the failure.
            pub(crate) fn answer(&mut self, result: StoreResult<()>) {
                match &mut self.0 {
                    $(Op::$op(request) => request.answer(result),)*
                }
            }

            /// Whether it stores a large upload (see [`Write::is_bulky`]).
            pub(crate) fn is_bulky(&self) -> bool {
                match &self.0 {
                    $(Op::$op(request) => request.op.is_bulky(),)*
                }
            }
        }
    };
}

jobs! {
    Initialise,
    CreateAccount,
    RotateKey,
    CreateFolder,
    RenameFolder,
    DeleteFolder,
    CreateDoc,
    RenameDoc,
    CloneDoc,
    Share,
    MoveDoc,
    DeleteDoc,
    EmptyDoc,
    SetContent,
    AddObjects,
    CreateObject,
    UpdateObjects,
    DeleteObject,
    CompactHistory,
    CreateStatic,
    DeleteStatic,
    EnableLive,
    RotateLive,
    DisableLive,
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
