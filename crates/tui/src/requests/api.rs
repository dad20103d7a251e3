//! Each call the app makes, with the type of its answer: `api::list_docs()` is a
//! `Call<Vec<DocSummary>>`. A component sends one with `cx.send(call, then)`, where `then` turns
//! that answer (or the failure) into the component's own reply (`requests::purpose`), so the
//! compiler checks, where the request is made, that the reply expects what the call answers.
//!
//! The worker answers every call with the app's wire type, [`Answer`] (the tests answer with it
//! too); each function here knows which [`Answer`] its call gets, and the ledger takes it out
//! once, when the reply arrives.

use std::collections::BTreeMap;

use crate::document::{ObjectModel, ObjectVersions, Versioned};
use crate::requests::call::{Answer, Request};
use diagtui_model::embeds::EmbedList;
use diagtui_model::history::{Diff, HistoryPage, Restored, VersionDetails};
use diagtui_model::{
    Content, DocDetails, DocSummary, FolderList, Props, Selector, SelectorUpdated, UserRef,
};

/// A request with the type `A` of its answer.
pub struct Call<A> {
    request: Request,
    take: Box<dyn FnOnce(Answer) -> Option<A> + Send>,
}

impl<A: 'static> Call<A> {
    /// A call of `request`, whose answer `take` takes out of the worker's.
    fn new(request: Request, take: fn(Answer) -> Option<A>) -> Call<A> {
        Call {
            request,
            take: Box::new(take),
        }
    }

    /// The request it sends.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The same call, its answer turned into what `f` makes of it: so that one reply takes
    /// either of two calls (one object updated or several; one read by id or the content).
    pub fn map<B>(self, f: impl FnOnce(A) -> B + Send + 'static) -> Call<B> {
        let take = self.take;
        Call {
            request: self.request,
            take: Box::new(move |answer| take(answer).map(f)),
        }
    }

    /// The request, and what takes its answer out of the worker's (`None` for another call's
    /// answer).
    #[allow(clippy::type_complexity, reason = "a boxed function, named once")]
    pub fn into_parts(self) -> (Request, Box<dyn FnOnce(Answer) -> Option<A> + Send>) {
        (self.request, self.take)
    }
}

impl<A> std::fmt::Debug for Call<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Call").field(&self.request).finish()
    }
}

/// Takes `$variant`'s value out of an answer (`None` for another answer).
macro_rules! takes {
    ($variant:ident) => {
        |answer| match answer {
            Answer::$variant(value) => Some(value),
            _ => None,
        }
    };
}

/// A call whose answer is success alone.
fn done(request: Request) -> Call<()> {
    Call::new(request, |answer| {
        matches!(answer, Answer::Done).then_some(())
    })
}

/// A call that creates something: the new id.
fn created(request: Request) -> Call<String> {
    Call::new(request, takes!(Created))
}

/// A write answered with the version it left (`None` from a server without versions, which
/// may answer success alone).
fn written(request: Request) -> Call<Option<u64>> {
    Call::new(request, |answer| match answer {
        Answer::Written(version) => Some(version),
        Answer::Done => Some(None),
        _ => None,
    })
}

/// A read of a whole content into the compact model.
fn objects(request: Request) -> Call<Box<ObjectModel>> {
    Call::new(request, takes!(Objects))
}

/// A page of versions.
fn history_page(request: Request) -> Call<HistoryPage> {
    Call::new(request, takes!(History))
}

/// `GET /api/v1/me`.
pub fn who_am_i() -> Call<UserRef> {
    Call::new(Request::WhoAmI, takes!(Me))
}

/// `GET /api/v1/doc`.
pub fn list_docs() -> Call<Vec<DocSummary>> {
    Call::new(Request::ListDocs, takes!(Docs))
}

/// `GET /api/v1/folder/list`.
pub fn folders() -> Call<FolderList> {
    Call::new(Request::Folders, takes!(Folders))
}

/// `GET /api/v1/doc/{doc}`.
pub fn details(doc: String) -> Call<DocDetails> {
    Call::new(Request::Details { doc }, takes!(Details))
}

/// `GET /api/v1/embed/list/{doc}`.
pub fn embeds(doc: String) -> Call<EmbedList> {
    Call::new(Request::Embeds { doc }, takes!(Embeds))
}

/// The content of `doc`, with the objects' versions.
pub fn content(doc: String) -> Call<Box<ObjectModel>> {
    objects(Request::Content { doc })
}

/// The content of `doc` as it was at `version`.
pub fn content_at(doc: String, version: u64) -> Call<Box<ObjectModel>> {
    objects(Request::ContentAt { doc, version })
}

/// One object with its version.
pub fn get_object(doc: String, obj: String) -> Call<Versioned> {
    Call::new(Request::GetObject { doc, obj }, takes!(Object))
}

/// Objects read again, each with its version, `None` for one that is gone.
pub fn get_objects(doc: String, objs: Vec<String>) -> Call<Vec<(String, Option<Versioned>)>> {
    Call::new(Request::GetObjects { doc, objs }, takes!(Fresh))
}

/// An object's properties merged, if it is at `if_match`: the version it is at after.
pub fn update_object(
    doc: String,
    obj: String,
    props: Props,
    if_match: Option<u64>,
) -> Call<Option<u64>> {
    written(Request::UpdateObject {
        doc,
        obj,
        props,
        if_match,
    })
}

/// A new object of `kind`: its id.
pub fn create_object(doc: String, kind: String, props: Props) -> Call<String> {
    created(Request::CreateObject { doc, kind, props })
}

/// An object deleted, if it is at `if_match`.
pub fn delete_object(doc: String, obj: String, if_match: Option<u64>) -> Call<()> {
    done(Request::DeleteObject { doc, obj, if_match })
}

/// The objects `selector` picks, with the versions of those the server gave one.
pub fn objects_where(doc: String, selector: Selector) -> Call<(Content, ObjectVersions)> {
    Call::new(
        Request::ObjectsWhere { doc, selector },
        |answer| match answer {
            Answer::Content(content, versions) => Some((content, versions)),
            _ => None,
        },
    )
}

/// `props` merged into the objects `selector` picks, if those named are at their versions.
pub fn update_where(
    doc: String,
    selector: Selector,
    props: Props,
    if_versions: Option<ObjectVersions>,
) -> Call<SelectorUpdated> {
    Call::new(
        Request::UpdateWhere {
            doc,
            selector,
            props,
            if_versions,
        },
        takes!(Updated),
    )
}

/// Each object's own properties merged, if those named are at their versions.
pub fn bulk_update(
    doc: String,
    objects: BTreeMap<String, Props>,
    if_versions: Option<ObjectVersions>,
) -> Call<()> {
    done(Request::BulkUpdate {
        doc,
        objects,
        if_versions,
    })
}

/// The content replaced whole, if the document is at `if_match`: its version after.
pub fn set_content(doc: String, content: Content, if_match: Option<u64>) -> Call<Option<u64>> {
    written(Request::SetContent {
        doc,
        content,
        if_match,
    })
}

/// A new document: its id.
pub fn create_doc(title: String, folder: Option<String>) -> Call<String> {
    created(Request::CreateDoc { title, folder })
}

/// A document's new title.
pub fn rename_doc(doc: String, title: String) -> Call<()> {
    done(Request::RenameDoc { doc, title })
}

/// A copy of a document: its id.
pub fn clone_doc(doc: String, title: String) -> Call<String> {
    created(Request::CloneDoc { doc, title })
}

/// A document shared with the account of `email`.
pub fn share_doc(doc: String, email: String) -> Call<()> {
    done(Request::ShareDoc { doc, email })
}

/// A document emptied: its version after.
pub fn empty_doc(doc: String) -> Call<Option<u64>> {
    written(Request::EmptyDoc { doc })
}

/// A document deleted.
pub fn delete_doc(doc: String) -> Call<()> {
    done(Request::DeleteDoc { doc })
}

/// A document moved into `folder`.
pub fn move_doc(doc: String, folder: String) -> Call<()> {
    done(Request::MoveDoc { doc, folder })
}

/// A new folder: its id.
pub fn create_folder(title: String) -> Call<String> {
    created(Request::CreateFolder { title })
}

/// A folder's new title.
pub fn rename_folder(folder: String, title: String) -> Call<()> {
    done(Request::RenameFolder { folder, title })
}

/// A folder deleted with its documents.
pub fn delete_folder(folder: String) -> Call<()> {
    done(Request::DeleteFolder { folder })
}

/// A page of a document's versions older than `before`.
pub fn history(doc: String, before: Option<u64>, limit: usize) -> Call<HistoryPage> {
    history_page(Request::History { doc, before, limit })
}

/// The newest version that changed object `obj`.
pub fn object_history(doc: String, obj: String) -> Call<HistoryPage> {
    history_page(Request::ObjectHistory { doc, obj })
}

/// One version with its changed objects.
pub fn version(doc: String, version: u64) -> Call<Box<VersionDetails>> {
    Call::new(Request::Version { doc, version }, takes!(Version))
}

/// What changed from version `from` to the newest.
pub fn diff_since(doc: String, from: u64) -> Call<Box<Diff>> {
    Call::new(Request::DiffSince { doc, from }, takes!(Diff))
}

/// Entries (`body`, of media type `content_type`) laid out into `doc`: how many objects were
/// stored, and the notes on the file's lines.
pub fn create_diagram(
    doc: String,
    content_type: String,
    body: String,
) -> Call<(usize, Vec<String>)> {
    Call::new(
        Request::CreateDiagram {
            doc,
            content_type,
            body,
        },
        |answer| match answer {
            Answer::DiagramCreated(count, notes) => Some((count, notes)),
            _ => None,
        },
    )
}

/// The content set back as it was at `version`, if the document is at `if_match`.
pub fn restore(doc: String, version: u64, if_match: Option<u64>) -> Call<Restored> {
    Call::new(
        Request::Restore {
            doc,
            version,
            if_match,
        },
        takes!(Restored),
    )
}
