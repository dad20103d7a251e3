//! The worker: a tokio task that owns the client, runs every request concurrently and sends each
//! reply back tagged with its request id. A document's content is read whole and parsed into
//! the compact [`ObjectModel`] on a blocking thread, so the input loop only takes it in.
//! [`settle`] drives an app the same way without a terminal, one effect after another (tests
//! and benchmarks).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio::task::AbortHandle;

use crate::app::update::{App, Effect, Msg};
use crate::document::ObjectModel;
use crate::document::{ObjectVersions, RequestId, Versioned};
use crate::requests::call::{Answer, Failure, Reply, Request, Stale};
use crate::transfer;
use diagtui_client::{AnswerBody, ApiError, Client};
use diagtui_model::versions::VersionedObject;
use diagtui_model::{Content, DiagramObject, ErrorCode, Props, Selector};

/// What the loop asks of the worker.
#[derive(Debug)]
pub(crate) enum Job {
    /// Make this request and send its reply.
    Run(RequestId, Request),
    /// Drop this request if it is still running: no reply comes.
    Cancel(RequestId),
}

/// Runs until the job channel closes; each request in its own task.
pub(crate) async fn run(
    client: Client,
    mut jobs: UnboundedReceiver<Job>,
    replies: UnboundedSender<Reply>,
) {
    let mut running: HashMap<RequestId, AbortHandle> = HashMap::new();
    while let Some(job) = jobs.recv().await {
        running.retain(|_, task| !task.is_finished());
        match job {
            Job::Run(id, request) => {
                let client = client.clone();
                let replies = replies.clone();
                let task = tokio::spawn(async move {
                    // The app may have quit meanwhile; then nobody wants the reply.
                    let _ = replies.send(reply(&client, id, request).await);
                });
                running.insert(id, task.abort_handle());
            }
            Job::Cancel(id) => {
                if let Some(task) = running.remove(&id) {
                    task.abort();
                }
            }
        }
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
/// through [`reply`], file jobs through [`transfer::perform`], scenes through `SceneJob::run`,
/// pictures through `PictureJob::run`.
/// Quitting, copying and `$EDITOR` need a terminal, and following change events the loop: they
/// are skipped. Drives an app headless, against a real server.
pub async fn settle(app: &mut App, client: &Client, effects: Vec<Effect>) {
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        queue.extend(settle_one(app, client, effect).await);
    }
}

/// Carries out one effect as [`settle`] does; returns the effects that follow from it.
pub async fn settle_one(app: &mut App, client: &Client, effect: Effect) -> Vec<Effect> {
    match effect {
        Effect::Request(id, request) => app.update(Msg::Api(reply(client, id, request).await)),
        Effect::File(what, job) => {
            let outcome = transfer::perform(&job);
            app.update(Msg::File(what, job, outcome))
        }
        Effect::BuildScene(job) => app.update(Msg::Scene(job.run())),
        Effect::DrawPicture(job) => match job.run() {
            Some(drawn) => app.update(Msg::Picture(drawn)),
            None => Vec::new(),
        },
        Effect::Quit
        | Effect::Cancel(_)
        | Effect::Copy(_)
        | Effect::OpenEditor(_)
        | Effect::Follow(_) => Vec::new(),
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
        Request::Embeds { doc } => Answer::Embeds(client.embeds(&doc).await?),
        Request::Content { doc } => Answer::Objects(Box::new(
            content_model(client.content_body_versioned(&doc).await?).await?,
        )),
        Request::GetObject { doc, obj } => {
            Answer::Object(versioned(client.get_object_versioned(&doc, &obj).await?))
        }
        Request::GetObjects { doc, objs } => {
            Answer::Fresh(fresh_objects(client, &doc, objs).await?)
        }
        Request::UpdateObject {
            doc,
            obj,
            props,
            if_match,
        } => update_object(client, &doc, &obj, &props, if_match).await?,
        Request::CreateObject { doc, kind, props } => {
            Answer::Created(client.create_object(&doc, &kind, &props).await?)
        }
        Request::DeleteObject { doc, obj, if_match } => {
            client.delete_object_if(&doc, &obj, if_match).await?;
            Answer::Done
        }
        Request::ObjectsWhere { doc, selector } => {
            let read = client.objects_where_versioned(&doc, &selector).await?;
            Answer::Content(read.content(), read.versions())
        }
        Request::UpdateWhere {
            doc,
            selector,
            props,
            if_versions,
        } => update_where(client, &doc, &selector, &props, if_versions).await?,
        Request::BulkUpdate {
            doc,
            objects,
            if_versions,
        } => bulk_update(client, &doc, &objects, if_versions).await?,
        Request::SetContent {
            doc,
            content,
            if_match,
        } => set_content(client, &doc, &content, if_match).await?,
        Request::CreateDoc { title, folder } => {
            Answer::Created(client.create_doc(&title, folder.as_deref()).await?)
        }
        Request::RenameDoc { doc, title } => done(client.rename_doc(&doc, &title).await?),
        Request::CloneDoc { doc, title } => Answer::Created(client.clone_doc(&doc, &title).await?),
        Request::ShareDoc { doc, email } => done(client.share_doc(&doc, &email).await?),
        Request::EmptyDoc { doc } => {
            Answer::Written(client.empty_doc_versioned(&doc).await?.document)
        }
        Request::DeleteDoc { doc } => done(client.delete_doc(&doc).await?),
        Request::MoveDoc { doc, folder } => done(client.move_doc(&doc, &folder).await?),
        Request::CreateFolder { title } => Answer::Created(client.create_folder(&title).await?),
        Request::RenameFolder { folder, title } => {
            done(client.rename_folder(&folder, &title).await?)
        }
        Request::DeleteFolder { folder } => done(client.delete_folder(&folder).await?),
        Request::History { doc, before, limit } => {
            Answer::History(client.history(&doc, None, before, Some(limit)).await?)
        }
        Request::ObjectHistory { doc, obj } => {
            Answer::History(client.history(&doc, Some(&obj), None, Some(1)).await?)
        }
        Request::Version { doc, version } => {
            Answer::Version(Box::new(client.version(&doc, version).await?))
        }
        Request::DiffSince { doc, from } => {
            Answer::Diff(Box::new(client.diff(&doc, from, None).await?))
        }
        Request::ContentAt { doc, version } => {
            let body = client.content_body_at(&doc, version).await?;
            Answer::Objects(Box::new(content_model(body).await?))
        }
        Request::CreateDiagram {
            doc,
            content_type,
            body,
        } => create_diagram(client, &doc, &content_type, body).await?,
        Request::Restore {
            doc,
            version,
            if_match,
        } => Answer::Restored(client.restore_if(&doc, version, if_match).await?),
    })
}

/// Merges `props` into an object, if it is at `if_match`: the version it is at after.
async fn update_object(
    client: &Client,
    doc: &str,
    obj: &str,
    props: &Props,
    if_match: Option<u64>,
) -> Result<Answer, ApiError> {
    let written = client.update_object_if(doc, obj, props, if_match).await?;
    Ok(Answer::Written(written.etag))
}

/// Merges `props` into the objects `selector` picks, if those named in `if_versions` are at
/// their versions: what was updated.
async fn update_where(
    client: &Client,
    doc: &str,
    selector: &Selector,
    props: &Props,
    if_versions: Option<ObjectVersions>,
) -> Result<Answer, ApiError> {
    let updated = client.update_where_if(doc, selector, props, if_versions.as_ref());
    Ok(Answer::Updated(updated.await?.0))
}

/// Merges each object's props, if those named in `if_versions` are at their versions.
async fn bulk_update(
    client: &Client,
    doc: &str,
    objects: &BTreeMap<String, Props>,
    if_versions: Option<ObjectVersions>,
) -> Result<Answer, ApiError> {
    client
        .bulk_update_if(doc, objects, if_versions.as_ref())
        .await?;
    Ok(Answer::Done)
}

/// Replaces the document's content, if it is at `if_match`: the version it is at after.
async fn set_content(
    client: &Client,
    doc: &str,
    content: &Content,
    if_match: Option<u64>,
) -> Result<Answer, ApiError> {
    let written = client.set_content_if(doc, content, if_match).await?;
    Ok(Answer::Written(written.document))
}

/// Makes a new document's content from `body` (a file of create-diagram entries of
/// `content_type`): the objects created, and the notes on the file's lines.
async fn create_diagram(
    client: &Client,
    doc: &str,
    content_type: &str,
    body: String,
) -> Result<Answer, ApiError> {
    let created = client
        .create_diagram(doc, content_type, body.into_bytes(), &[], false)
        .await?;
    let notes = (created.notes.into_iter())
        .map(|note| match note.line {
            Some(line) => format!("line {line}: {}", note.text),
            None => note.text,
        })
        .collect();
    Ok(Answer::DiagramCreated(created.object_count, notes))
}

/// Objects `objs` of `doc` as the server has them now, with their versions, each read at once;
/// `None` for an object that is gone.
async fn fresh_objects(
    client: &Client,
    doc: &str,
    objs: Vec<String>,
) -> Result<Vec<(String, Option<Versioned>)>, ApiError> {
    let mut reads = tokio::task::JoinSet::new();
    for obj in objs {
        let (client, doc) = (client.clone(), doc.to_owned());
        reads.spawn(async move {
            let read = client.get_object_versioned(&doc, &obj).await;
            (obj, read)
        });
    }
    let mut fresh = Vec::with_capacity(reads.len());
    while let Some(done) = reads.join_next().await {
        let (obj, read) = done.map_err(|e| ApiError::Request {
            detail: format!("reading an object stopped: {e}"),
        })?;
        match read {
            Ok(read) => fresh.push((obj, Some(versioned(read)))),
            Err(error) if error.code() == Some(&ErrorCode::ObjNotFound) => fresh.push((obj, None)),
            Err(error) => return Err(error),
        }
    }
    Ok(fresh)
}

/// A document's content (now or at a version), read whole, then parsed into the compact model
/// on a blocking thread (off the input loop and the tasks that serve the other requests).
async fn content_model(mut body: AnswerBody) -> Result<ObjectModel, ApiError> {
    let mut json = Vec::new();
    while let Some(piece) = body.chunk().await? {
        json.extend_from_slice(&piece);
    }
    tokio::task::spawn_blocking(move || {
        ObjectModel::from_json(&json).map_err(|e| {
            ApiError::unexpected(200, format!("the content could not be read: {e}"), &json)
        })
    })
    .await
    .map_err(|e| ApiError::Request {
        detail: format!("reading the content stopped: {e}"),
    })?
}

/// The app's view of an object read with its version.
fn versioned(read: diagtui_client::VersionedObject) -> Versioned {
    Versioned {
        object: read.object,
        version: read.version,
    }
}

/// The app's view of a client error.
fn failure(error: &ApiError) -> Failure {
    Failure {
        status: error.status(),
        code: error.code().cloned(),
        message: error.to_string(),
        stale: error.conflict().map(|conflict| {
            let now = |now: &VersionedObject| Versioned {
                object: DiagramObject {
                    kind: now.kind.clone(),
                    data: now.data.clone(),
                },
                version: Some(now.version),
            };
            Box::new(Stale {
                objects: (conflict.objects.iter().flatten())
                    .map(|(id, object)| (id.clone(), object.as_ref().map(now)))
                    .collect(),
                now_match: conflict.now_match.clone().unwrap_or_default(),
                no_longer_match: conflict.no_longer_match.clone().unwrap_or_default(),
            })
        }),
    }
}
