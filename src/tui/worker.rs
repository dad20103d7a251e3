//! The worker: a tokio task that owns the client, runs every request concurrently and sends each
//! reply back tagged with its request id. [`settle`] drives an app the same way without a
//! terminal, one effect after another (tests and benchmarks).

use std::collections::VecDeque;
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::app::{App, Effect, Msg};
use super::request::{Answer, Failure, Reply, Request, RequestId};
use super::transfer;
use crate::client::{ApiError, Client};

/// Runs until the request channel closes; each request in its own task.
pub async fn run(
    client: Client,
    mut requests: UnboundedReceiver<(RequestId, Request)>,
    replies: UnboundedSender<Reply>,
) {
    while let Some((id, request)) = requests.recv().await {
        let client = client.clone();
        let replies = replies.clone();
        tokio::spawn(async move {
            // The app may have quit meanwhile; then nobody wants the reply.
            let _ = replies.send(reply(&client, id, request).await);
        });
    }
}

/// Makes one request and wraps its answer as the app's reply.
pub async fn reply(client: &Client, id: RequestId, request: Request) -> Reply {
    let started = Instant::now();
    let outcome = perform(client, request).await.map_err(|e| failure(&e));
    if let Err(failure) = &outcome {
        tracing::info!(id, status = ?failure.status, message = %failure.message, "request failed");
    }
    Reply {
        id,
        latency: started.elapsed(),
        outcome,
    }
}

/// Carries out `effects` and every effect that follows until none is left, in order: requests
/// through [`reply`], file jobs through [`transfer::perform`]. Quitting, copying and `$EDITOR`
/// need a terminal, and following change events the loop: they are skipped. Drives an app headless, against a real server.
pub async fn settle(app: &mut App, client: &Client, effects: Vec<Effect>) {
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        let more = match effect {
            Effect::Request(id, request) => app.update(Msg::Api(reply(client, id, request).await)),
            Effect::File(what, job) => {
                let outcome = transfer::perform(&job);
                app.update(Msg::File(what, job, outcome))
            }
            Effect::Quit | Effect::Copy(_) | Effect::OpenEditor(_) | Effect::Follow(_) => {
                Vec::new()
            }
        };
        queue.extend(more);
    }
}

/// Makes one call.
pub async fn perform(client: &Client, request: Request) -> Result<Answer, ApiError> {
    let done = |_| Answer::Done;
    Ok(match request {
        Request::WhoAmI => Answer::Me(client.whoami().await?),
        Request::ListDocs => Answer::Docs(client.list_docs().await?),
        Request::Folders => Answer::Folders(client.list_folders().await?),
        Request::Details { doc } => Answer::Details(client.doc_details(&doc).await?),
        Request::Content { doc } => Answer::Content(client.content(&doc).await?),
        Request::GetObject { doc, obj } => Answer::Object(client.get_object(&doc, &obj).await?),
        Request::UpdateObject { doc, obj, props } => {
            done(client.update_object(&doc, &obj, &props).await?)
        }
        Request::CreateObject { doc, kind, props } => {
            Answer::Created(client.create_object(&doc, &kind, &props).await?)
        }
        Request::DeleteObject { doc, obj } => done(client.delete_object(&doc, &obj).await?),
        Request::ObjectsWhere { doc, selector } => {
            Answer::Content(client.objects_where(&doc, &selector).await?)
        }
        Request::UpdateWhere {
            doc,
            selector,
            props,
        } => Answer::Updated(client.update_where(&doc, &selector, &props).await?),
        Request::BulkUpdate { doc, objects } => done(client.bulk_update(&doc, &objects).await?),
        Request::SetContent { doc, content } => done(client.set_content(&doc, &content).await?),
        Request::CreateDoc { title, folder } => {
            Answer::Created(client.create_doc(&title, folder.as_deref()).await?)
        }
        Request::RenameDoc { doc, title } => done(client.rename_doc(&doc, &title).await?),
        Request::CloneDoc { doc, title } => Answer::Created(client.clone_doc(&doc, &title).await?),
        Request::ShareDoc { doc, email } => done(client.share_doc(&doc, &email).await?),
        Request::EmptyDoc { doc } => done(client.empty_doc(&doc).await?),
        Request::DeleteDoc { doc } => done(client.delete_doc(&doc).await?),
    })
}

/// The app's view of a client error.
fn failure(error: &ApiError) -> Failure {
    Failure {
        status: error.status(),
        code: error.code().cloned(),
        message: error.to_string(),
    }
}
