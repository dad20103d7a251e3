//! The write requests that replace many of a document's objects at once: emptying it,
//! setting its whole content (also a restore), adding objects under given ids
//! (create-diagram).

use std::sync::Arc;

use super::{BULKY_OBJECTS, Made, check_visible, document_version, record_version};
use crate::batch::{Batch, report};
use crate::change::{DocChange, DocEvent};
use crate::condition;
use crate::content::ContentUpload;
use crate::history::Objects;
use crate::history::record;
use crate::object::{Kinds, StoredObject};
use crate::writer::request::{Applied, Write, area_ops};
use crate::writer::statements::Statements;
use diagtui_model::history::{VersionKind, VersionNotes};
use diagtui_model::versions::VersionCondition;

area_ops! {
    EmptyDoc,
    SetContent,
    AddObjects,
}

/// Remove every object of a document; answers the version it made.
pub struct EmptyDoc {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
}

impl Write for EmptyDoc {
    type Answer = u64;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<u64> {
        let (account_id, doc_id) = (&self.account_id, &self.doc_id);
        check_visible(batch, s, account_id, doc_id).await?;
        let before = s.current(doc_id, None).await?;
        let changes = record::replaced(before, Objects::new());
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, changes.len()).await?;
        let change = s.empty_doc(account_id, doc_id).await?;
        let made = Made::plain(account_id, VersionKind::Empty);
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        Ok((version, report(change.at(version))))
    }
}

/// Replace a document's content.
pub struct SetContent {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The new content.
    pub content: ContentUpload,
    /// The version it sets the content back to, when it is a restore.
    pub restore: Option<u64>,
    /// The document version the content must be at (`If-Match`), else nothing is written.
    pub if_match: Option<VersionCondition>,
}

/// What setting a content answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentSet {
    /// The version it made.
    pub version: u64,
    /// How many objects it changed.
    pub changed: u64,
}

impl Write for SetContent {
    type Answer = ContentSet;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<ContentSet> {
        let (account_id, doc_id) = (&self.account_id, &self.doc_id);
        check_visible(batch, s, account_id, doc_id).await?;
        if let Some(condition) = &self.if_match {
            let now = document_version(s, batch, doc_id).await?;
            if !condition.matches(Some(now)) {
                return Err(condition::document_failed(now));
            }
        }
        let before = s.current(doc_id, None).await?;
        let changes = record::replaced(before, uploaded(&self.content));
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, changes.len()).await?;
        s.delete_objects(doc_id).await?;
        s.insert_content(doc_id, &self.content, head.head).await?;
        let (kind, notes) = match self.restore {
            Some(version) => (
                VersionKind::Restore,
                VersionNotes {
                    restored_from: Some(version),
                    ..VersionNotes::default()
                },
            ),
            None => (VersionKind::SetContent, VersionNotes::default()),
        };
        let changed = changes.len() as u64;
        let made = Made {
            account: account_id,
            kind,
            notes,
        };
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        let change = DocChange::event(doc_id, Some(batch.now.clone()), DocEvent::ContentReplaced);
        Ok((ContentSet { version, changed }, report(change.at(version))))
    }

    fn is_bulky(&self) -> bool {
        self.content.len() > BULKY_OBJECTS
    }
}

/// An upload's objects.
fn uploaded(content: &ContentUpload) -> Objects {
    let mut kinds = Kinds::default();
    content
        .rows()
        .map(|(id, kind, data)| {
            let object = StoredObject::new(kinds.get(kind), data);
            (id.to_owned(), Arc::new(object))
        })
        .collect()
}

/// Add objects under given ids, replacing objects with the same ids (create-diagram); answers
/// the version it made.
pub struct AddObjects {
    /// The account acting.
    pub account_id: String,
    /// The document.
    pub doc_id: String,
    /// The objects, each under its id.
    pub objects: Vec<(String, Arc<StoredObject>)>,
    /// Remove every object of the document first.
    pub replace: bool,
}

impl Write for AddObjects {
    type Answer = u64;
    type Area = Op;

    async fn apply(&mut self, s: &impl Statements, batch: &mut Batch<'_>) -> Applied<u64> {
        let (account_id, doc_id, replace) = (&self.account_id, &self.doc_id, self.replace);
        check_visible(batch, s, account_id, doc_id).await?;
        let before = s.current(doc_id, None).await?;
        let mut after = if replace {
            Objects::new()
        } else {
            before.clone()
        };
        after.extend(self.objects.iter().cloned());
        let changes = record::replaced(before, after);
        let head = record::open(s, &mut batch.histories, &batch.now, doc_id, changes.len()).await?;
        if replace {
            s.delete_objects(doc_id).await?;
        }
        for (id, object) in self.objects.iter_mut() {
            if !replace {
                s.delete_object(doc_id, id).await?;
            }
            StoredObject::set_version(object, head.head);
            s.insert_object(doc_id, id, object).await?;
        }
        let made = Made::plain(account_id, VersionKind::CreateDiagram);
        let version = record_version(s, batch, doc_id, head, made, changes).await?;
        let change = if replace {
            DocChange::event(doc_id, Some(batch.now.clone()), DocEvent::ContentReplaced)
        } else {
            let mut change = batch.objects_changed(doc_id);
            change.changed = std::mem::take(&mut self.objects);
            change
        };
        Ok((version, report(change.at(version))))
    }

    fn is_bulky(&self) -> bool {
        self.objects.len() > BULKY_OBJECTS
    }
}
