//! The TUI's own vocabulary for talking to the API: what `App::update` asks for and what comes
//! back. The worker maps these onto `Client` calls, so the app state never sees the client.

use std::collections::BTreeMap;
use std::time::Duration;

use diagtui_client::route;

use crate::document::{ObjectModel, ObjectVersions, RequestId, Versioned};
use diagtui_model::embeds::EmbedList;
use diagtui_model::history::{Diff, HistoryPage, Restored, VersionDetails};
use diagtui_model::{
    Content, DocDetails, DocSummary, FolderList, Props, Selector, SelectorUpdated, UserRef,
};

/// One API call the app wants made.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `GET /api/v1/me`: the account behind the key.
    WhoAmI,
    /// `GET /api/v1/doc`.
    ListDocs,
    /// `GET /api/v1/folder/list`.
    Folders,
    /// `GET /api/v1/doc/{doc}`.
    Details {
        /// The document id.
        doc: String,
    },
    /// `GET /api/v1/embed/list/{doc}`.
    Embeds {
        /// The document id.
        doc: String,
    },
    /// `GET /api/v1/doc/{doc}/obj/all?versions=true`: the objects with their versions, when
    /// the server gives them.
    Content {
        /// The document id.
        doc: String,
    },
    /// `GET /api/v1/doc/{doc}/obj/{obj}`.
    GetObject {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
    },
    /// `GET /api/v1/doc/{doc}/obj/{obj}` of each object, at once: a few objects read again
    /// (changed elsewhere), those gone answering as gone.
    GetObjects {
        /// The document id.
        doc: String,
        /// The object ids.
        objs: Vec<String>,
    },
    /// `POST /api/v1/doc/{doc}/obj/{obj}`.
    UpdateObject {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
        /// The properties to merge.
        props: Props,
        /// The version the object must be at (`If-Match`, our server's extension): else
        /// nothing is written and the failure is [`Stale`]. `None`: unconditional.
        if_match: Option<u64>,
    },
    /// `POST /api/v1/doc/{doc}/obj/`.
    CreateObject {
        /// The document id.
        doc: String,
        /// The object type's wire name.
        kind: String,
        /// The properties to merge.
        props: Props,
    },
    /// `POST /api/v1/doc/{doc}/obj/{obj}/delete`.
    DeleteObject {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
        /// The version the object must be at (`If-Match`, our server's extension): else
        /// nothing is deleted and the failure is [`Stale`]. `None`: unconditional.
        if_match: Option<u64>,
    },
    /// `GET /api/v1/doc/{doc}/obj/where/{selector}?versions=true`.
    ObjectsWhere {
        /// The document id.
        doc: String,
        /// Which objects, by their meta.
        selector: Selector,
    },
    /// `POST /api/v1/doc/{doc}/obj/where`.
    UpdateWhere {
        /// The document id.
        doc: String,
        /// Which objects, by their meta.
        selector: Selector,
        /// The properties to merge.
        props: Props,
        /// "Exactly the objects previewed, at these versions" (`ifVersions`, our server's
        /// extension): else nothing is written and the failure is [`Stale`]. `None`:
        /// unconditional.
        if_versions: Option<ObjectVersions>,
    },
    /// `POST /api/v1/doc/{doc}`: each object's own properties.
    BulkUpdate {
        /// The document id.
        doc: String,
        /// Object id to the properties to merge into it.
        objects: BTreeMap<String, Props>,
        /// The versions the objects named must be at (`ifVersions`, our server's extension):
        /// else nothing is written and the failure is [`Stale`]. `None`: unconditional.
        if_versions: Option<ObjectVersions>,
    },
    /// `POST /api/v1/doc/set-content/{doc}`.
    SetContent {
        /// The document id.
        doc: String,
        /// The new content, replacing all.
        content: Content,
        /// The document version it must be at (`If-Match`, our server's extension): else
        /// nothing is set and the failure is [`Stale`]. `None`: unconditional.
        if_match: Option<u64>,
    },
    /// `POST /api/v1/doc/create`.
    CreateDoc {
        /// The (new) title.
        title: String,
        /// The folder to put it in (the first folder when absent).
        folder: Option<String>,
    },
    /// `POST /api/v1/doc/change-title`.
    RenameDoc {
        /// The document id.
        doc: String,
        /// The (new) title.
        title: String,
    },
    /// `POST /api/v1/doc/clone`.
    CloneDoc {
        /// The document id.
        doc: String,
        /// The (new) title.
        title: String,
    },
    /// `POST /api/v1/doc/add-collaborator`.
    ShareDoc {
        /// The document id.
        doc: String,
        /// The e-mail address of the account to share with.
        email: String,
    },
    /// `POST /api/v1/doc/empty`.
    EmptyDoc {
        /// The document id.
        doc: String,
    },
    /// `POST /api/v1/doc/delete`.
    DeleteDoc {
        /// The document id.
        doc: String,
    },
    /// `POST /api/v1/doc/move` (our extension): a document into another folder.
    MoveDoc {
        /// The document id.
        doc: String,
        /// The folder id.
        folder: String,
    },
    /// `POST /api/v1/folder/create`.
    CreateFolder {
        /// The title.
        title: String,
    },
    /// `POST /api/v1/folder/change-title`.
    RenameFolder {
        /// The folder id.
        folder: String,
        /// The new title.
        title: String,
    },
    /// `POST /api/v1/folder/delete`: the folder and its documents.
    DeleteFolder {
        /// The folder id.
        folder: String,
    },
    /// `GET /api/v1/doc/{doc}/history?before&limit` (our extension): a page of versions.
    History {
        /// The document id.
        doc: String,
        /// Versions older than this one (the newest page when absent).
        before: Option<u64>,
        /// At most this many.
        limit: usize,
    },
    /// `GET /api/v1/doc/{doc}/obj/{obj}/history?limit=1`: the newest version that changed an
    /// object.
    ObjectHistory {
        /// The document id.
        doc: String,
        /// The object id.
        obj: String,
    },
    /// `GET /api/v1/doc/{doc}/history/{version}`: one version with its changed objects.
    Version {
        /// The document id.
        doc: String,
        /// The version.
        version: u64,
    },
    /// `GET /api/v1/doc/{doc}/diff?from`: what changed from a version to the newest.
    DiffSince {
        /// The document id.
        doc: String,
        /// The older version.
        from: u64,
    },
    /// `GET /api/v1/doc/{doc}/obj/all?version`: the content as it was at a version.
    ContentAt {
        /// The document id.
        doc: String,
        /// The version.
        version: u64,
    },
    /// `POST /api/v1/create-diagram/{doc}`: entries laid out into the document.
    CreateDiagram {
        /// The document id.
        doc: String,
        /// The entries' media type (`text/csv`, `application/json`, `text/vnd.mermaid`,
        /// `text/vnd.graphviz`).
        content_type: String,
        /// The entries, as the file holds them.
        body: String,
    },
    /// `POST /api/v1/doc/{doc}/restore`: the content set back as it was at a version.
    Restore {
        /// The document id.
        doc: String,
        /// The version.
        version: u64,
        /// The document's version it must be at (`If-Match`): the newest the restore's
        /// question was worked out against, so that a write made since makes the server
        /// restore nothing (412).
        if_match: Option<u64>,
    },
}

impl Request {
    /// The document whose objects this request changes, if it is an object write.
    pub fn written_doc(&self) -> Option<&str> {
        match self {
            Request::UpdateObject { doc, .. }
            | Request::CreateObject { doc, .. }
            | Request::DeleteObject { doc, .. }
            | Request::UpdateWhere { doc, .. }
            | Request::BulkUpdate { doc, .. }
            | Request::SetContent { doc, .. }
            | Request::Restore { doc, .. }
            | Request::CreateDiagram { doc, .. } => Some(doc),
            _ => None,
        }
    }

    /// The HTTP method and path this request goes to, for the request log (never the key): the
    /// client's route of the call the worker makes for it.
    pub fn route(&self) -> (&'static str, String) {
        let route = match self {
            Request::WhoAmI => route::me(),
            Request::ListDocs => route::docs(),
            Request::Folders => route::folders(),
            Request::Details { doc } => route::doc(doc),
            Request::Embeds { doc } => route::embeds(doc),
            Request::Content { doc } => route::content(doc, true),
            Request::GetObject { doc, obj } => route::object(doc, obj),
            Request::GetObjects { doc, objs } => {
                let each = route::object(doc, "{obj}");
                let path = format!("{} (each of {})", each.path(), objs.len());
                return (each.method.as_str(), path);
            }
            Request::UpdateObject { doc, obj, .. } => route::update_object(doc, obj),
            Request::CreateObject { doc, .. } => route::create_object(doc),
            Request::DeleteObject { doc, obj, .. } => route::delete_object(doc, obj),
            Request::ObjectsWhere { doc, selector } => route::objects_where(doc, selector, true),
            Request::UpdateWhere { doc, .. } => route::update_where(doc),
            Request::BulkUpdate { doc, .. } => route::bulk_update(doc),
            Request::SetContent { doc, .. } => route::set_content(doc),
            Request::CreateDoc { .. } => route::create_doc(),
            Request::RenameDoc { .. } => route::rename_doc(),
            Request::CloneDoc { .. } => route::clone_doc(),
            Request::ShareDoc { .. } => route::share_doc(),
            Request::EmptyDoc { .. } => route::empty_doc(),
            Request::DeleteDoc { .. } => route::delete_doc(),
            Request::MoveDoc { .. } => route::move_doc(),
            Request::CreateFolder { .. } => route::create_folder(),
            Request::RenameFolder { .. } => route::rename_folder(),
            Request::DeleteFolder { .. } => route::delete_folder(),
            Request::History { doc, before, limit } => {
                route::history(doc, None, *before, Some(*limit))
            }
            Request::ObjectHistory { doc, obj } => route::history(doc, Some(obj), None, Some(1)),
            Request::Version { doc, version } => route::version(doc, *version),
            Request::DiffSince { doc, from } => route::diff(doc, *from, None),
            Request::ContentAt { doc, version } => route::content_at(doc, *version),
            Request::Restore { doc, .. } => route::restore(doc),
            Request::CreateDiagram { doc, .. } => route::create_diagram(doc, &[], false),
        };
        (route.method.as_str(), route.path())
    }
}

/// What a successful request answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The account behind the key.
    Me(UserRef),
    /// The document list.
    Docs(Vec<DocSummary>),
    /// The folder list.
    Folders(FolderList),
    /// One document's details.
    Details(DocDetails),
    /// One document's embeds.
    Embeds(EmbedList),
    /// Objects as values: a selector read's matches, and the versions of those the server
    /// gave one (none from a server without versions).
    Content(Content, ObjectVersions),
    /// A document's content, read by the worker into the compact model.
    Objects(Box<ObjectModel>),
    /// One object, with its version.
    Object(Versioned),
    /// Objects read again, by id, with their versions: `None` for one that no longer exists.
    Fresh(Vec<(String, Option<Versioned>)>),
    /// The id of something just created (document or object).
    Created(String),
    /// The answer of a selector update.
    Updated(SelectorUpdated),
    /// A write that returns nothing but success.
    Done,
    /// An object update that went through, with the object's new version (`ETag`; `None`
    /// from a server without versions).
    Written(Option<u64>),
    /// A page of a document's versions.
    History(HistoryPage),
    /// One version with its changed objects.
    Version(Box<VersionDetails>),
    /// What changed between two versions.
    Diff(Box<Diff>),
    /// What a restore answered.
    Restored(Restored),
    /// How many objects a create-diagram stored, and its notes: what of the file could not be
    /// drawn as written (`line N: ...`).
    DiagramCreated(usize, Vec<String>),
}

/// What a conditional write found instead of the versions it named (a 412): nothing was
/// written, and this is the state now, so nothing needs reading again to show it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stale {
    /// Each object whose version differed, as it is now (`None`: it is gone), and for a
    /// selector update each object that matches now but was not named; in id order.
    pub objects: Vec<(String, Option<Versioned>)>,
    /// A selector update's: the ids that match now and were not named.
    pub now_match: Vec<String>,
    /// A selector update's: the ids named that no longer match.
    pub no_longer_match: Vec<String>,
}

impl Stale {
    /// Every id whose state is not what the write expected, in id order.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = (self.objects.iter().map(|(id, _)| id))
            .chain(&self.now_match)
            .chain(&self.no_longer_match)
            .cloned()
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }
}

/// Why a request failed, as the app needs it: enough to explain and to branch on.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The HTTP status when the server answered.
    pub status: Option<u16>,
    /// The error code from the error body (`USER_NOT_FOUND`, ...).
    pub code: Option<diagtui_model::ErrorCode>,
    /// One readable line.
    pub message: String,
    /// A refused conditional write's (412): the state now.
    pub stale: Option<Box<Stale>>,
}

impl Failure {
    /// The worker answered a call with another call's answer (a bug in the app, never the
    /// server's doing).
    pub fn unexpected() -> Failure {
        Failure {
            status: None,
            code: None,
            message: "the answer was not one this request gives (a bug in diagtui: please \
                      report it)"
                .into(),
            stale: None,
        }
    }

    /// The status and code the server answered, `HTTP 404 USER_NOT_FOUND`: what a message that
    /// words a failure in its own terms adds, so that the code is on the screen, not only in
    /// the log. Empty when no server answered.
    pub fn code_text(&self) -> String {
        match (self.status, &self.code) {
            (Some(status), Some(code)) => format!("HTTP {status} {code}"),
            (Some(status), None) => format!("HTTP {status}"),
            (None, _) => String::new(),
        }
    }

    /// How a message says it failed: the status and code (once), the message, and the route
    /// `request` went to (`HTTP 400 VALIDATION_ERROR version: … (POST /api/v1/doc/…/restore)`).
    pub fn said_for(&self, request: &Request) -> String {
        let (method, path) = request.route();
        let code = self.code_text();
        if self.message.starts_with(&code) {
            // The client's words carry the status and code already: said once.
            format!("{} ({method} {path})", self.message)
        } else {
            format!("{code} {} ({method} {path})", self.message)
        }
    }
}

/// The answer to one request, tagged with its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The id given when the request was made.
    pub id: RequestId,
    /// How long it took.
    pub latency: Duration,
    /// The answer or why there was none.
    pub outcome: Result<Answer, Failure>,
}
