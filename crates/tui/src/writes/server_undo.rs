//! Undo through the server's history, where the server keeps one (our extension): it works
//! across sessions, after a restart, and for writes made elsewhere. `u` undoes the newest
//! version that changed the selected object, whoever made it and whenever (a second `u` undoes
//! that undo, as vi's `u`: the undo is itself the newest version); `u` in the history overlay
//! undoes a version's changes to the objects it touched. Either way the version becomes a write
//! of the write history (`record.rs`) and is undone as one (`undo.rs`): what it sends is shown
//! first, the objects are re-read, a change since is asked about. The write history lists it
//! only once the user chose to undo it.
//!
//! Against a server without the history routes (404), `u` undoes this session's writes as
//! before, and says once that the server keeps no history.

use crate::document::ObjectModel;
use crate::requests::api;
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, ServerUndoReply};
use crate::session::record::{ObjectWrite, Removed, Source, WriteKind, attached_line_groups};
use crate::text::json::Diff;
use crate::vocab::action::{Action, Cx};
use crate::writes::undo;
use diagtui_model::ErrorCode;
use diagtui_model::history::{HistoryPage, ObjectChange, VersionDetails, VersionKind};

/// `u` on object `obj` of `doc`: its newest version from the server's history, then the undo
/// of its part (asks first); this session's newest write to it when the server keeps none.
pub fn ask_object(doc: &str, obj: &str, cx: &Cx) -> Vec<Action> {
    if cx.writes.server_keeps() == Some(false) || cx.unsaved == Some(obj) {
        return undo::ask_object(doc, obj, cx);
    }
    let call = api::object_history(doc.to_owned(), obj.to_owned());
    let obj = obj.to_owned();
    vec![Action::Send(cx.send(call, move |page| {
        Answered::ServerUndo(ServerUndoReply::Newest(obj, page))
    }))]
}

/// `u` in the history overlay: undo version `details` of `doc` (asks first). A version that
/// replaced the content whole (set-content, empty, create-diagram, restore) is undone, when it
/// is the `newest`, by restoring the version before it.
pub fn ask_version(doc: &str, details: &VersionDetails, newest: bool, cx: &Cx) -> Vec<Action> {
    let version = &details.version;
    let whole = matches!(
        version.kind,
        VersionKind::SetContent
            | VersionKind::Empty
            | VersionKind::CreateDiagram
            | VersionKind::Restore
    );
    if whole && newest && version.version > 1 {
        return vec![Action::AskRestore(version.version - 1)];
    }
    let model = cx.doc.filter(|d| d.id() == doc).and_then(|d| d.model());
    match write_of(details, None, model) {
        Ok(kind) => vec![Action::UndoVersion {
            doc: doc.to_owned(),
            version: details.version.version,
            obj: None,
            kind,
        }],
        Err(why) => vec![Action::info(why)],
    }
}

/// An answer to one of its requests.
pub fn on_reply(reply: ServerUndoReply, request: Request, cx: &Cx) -> Vec<Action> {
    let (Request::ObjectHistory { doc, .. } | Request::Version { doc, .. }) = &request else {
        return Vec::new();
    };
    let doc = doc.clone();
    let (obj, outcome) = match reply {
        ServerUndoReply::Newest(obj, page) => (obj, page.map(Read::Newest)),
        ServerUndoReply::Details(obj, details) => (obj, details.map(Read::Details)),
    };
    let name = cx.name_of(&obj);
    match outcome {
        Ok(Read::Newest(page)) => match page.versions.first() {
            Some(newest) => {
                let call = api::version(doc, newest.version);
                vec![Action::Send(cx.send(call, move |details| {
                    Answered::ServerUndo(ServerUndoReply::Details(obj, details))
                }))]
            }
            None => vec![Action::info(format!(
                "nothing to undo for {name}: the server's history has no change to it"
            ))],
        },
        Ok(Read::Details(details)) => {
            let model = cx.doc.filter(|d| d.id() == doc).and_then(|d| d.model());
            match write_of(&details, Some(&obj), model) {
                Ok(kind) => vec![Action::UndoVersion {
                    doc,
                    version: details.version.version,
                    obj: Some(obj),
                    kind,
                }],
                Err(why) => vec![Action::info(why)],
            }
        }
        // A server without the history routes: a 404 that is not about the document or the
        // object (a route it does not have).
        Err(failure)
            if failure.status == Some(404)
                && !matches!(
                    failure.code,
                    Some(ErrorCode::DocNotFound | ErrorCode::ObjNotFound)
                ) =>
        {
            vec![Action::NoServerHistory { doc, obj }]
        }
        Err(failure) => vec![Action::error(format!(
            "could not read the history of {name} to undo: {}",
            failure.said_for(&request)
        ))],
    }
}

/// What an undo read of the server's history found.
enum Read {
    /// The newest versions that changed the object.
    Newest(HistoryPage),
    /// One version with its changed objects.
    Details(Box<VersionDetails>),
}

/// What undoing version `details` takes, as a write of the write history: its updates put back,
/// or its deleted objects created again (with the line groups `model` has attached to them);
/// only `only`'s part when given. A version that created objects, changed an object's type or
/// mixes kinds says why it is not undone this way.
pub fn write_of(
    details: &VersionDetails,
    only: Option<&str>,
    model: Option<&ObjectModel>,
) -> Result<WriteKind, String> {
    let version = details.version.version;
    let changes: Vec<&ObjectChange> = details
        .objects
        .iter()
        .filter(|c| only.is_none_or(|obj| c.obj_id == obj))
        .collect();
    let updates: Vec<ObjectWrite> = changes
        .iter()
        .filter_map(|c| match (&c.before, &c.after) {
            (Some(before), Some(after)) if before.kind == after.kind => {
                let diff = Diff::between(&before.data, &after.data);
                Some(ObjectWrite::from_diff(&c.obj_id, &diff)).filter(|w| !w.before.is_empty())
            }
            _ => None,
        })
        .collect();
    let deleted: Vec<&ObjectChange> = changes
        .iter()
        .copied()
        .filter(|c| c.before.is_some() && c.after.is_none())
        .collect();
    let kind = details.version.kind.as_str();
    if changes.is_empty() || (updates.is_empty() && deleted.is_empty()) {
        let left = changes
            .iter()
            .all(|c| c.before.is_some() && c.after.is_some());
        return Err(match left {
            true => format!("nothing to undo: version {version} ({kind}) left it as it was"),
            false => format!(
                "version {version} ({kind}) created objects: delete them, or restore the version before it in the history (H)"
            ),
        });
    }
    if !updates.is_empty() && deleted.is_empty() && updates.len() == changes.len() {
        return Ok(WriteKind::Update {
            source: Source::Version(version),
            objects: updates,
        });
    }
    if updates.is_empty() && deleted.len() == changes.len() {
        let ids: Vec<String> = deleted.iter().map(|c| c.obj_id.clone()).collect();
        let mut attached = model
            .map(|m| attached_line_groups(m, &ids))
            .unwrap_or_default();
        let removed = deleted
            .into_iter()
            .filter_map(|c| {
                Some(Removed {
                    obj: c.obj_id.clone(),
                    object: c.before.clone()?,
                    attached: attached.remove(&c.obj_id).unwrap_or_default(),
                    again: None,
                })
            })
            .collect();
        return Ok(WriteKind::Delete(removed));
    }
    Err(format!(
        "version {version} ({kind}) created, changed and deleted objects at once: restore the version before it in the history (H)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::DiagramObject;
    use diagtui_model::history::{Version, VersionNotes};
    use serde_json::json;

    fn object(data: serde_json::Value) -> DiagramObject {
        DiagramObject {
            kind: "component".into(),
            data: serde_json::from_value(data).unwrap(),
        }
    }

    fn details(objects: Vec<ObjectChange>) -> VersionDetails {
        VersionDetails {
            version: Version {
                version: 7,
                at: "2026-11-27T10:00:00.000Z".into(),
                account: None,
                kind: VersionKind::BulkUpdate,
                changed: objects.len() as u64,
                notes: VersionNotes::default(),
            },
            objects,
        }
    }

    fn change(
        obj: &str,
        before: Option<DiagramObject>,
        after: Option<DiagramObject>,
    ) -> ObjectChange {
        ObjectChange {
            obj_id: obj.into(),
            before,
            after,
        }
    }

    #[test]
    fn an_update_is_undone_by_the_values_it_replaced_one_object_or_all() {
        let version = details(vec![
            change(
                "a",
                Some(object(json!({"name": "a", "meta": {"s": "up"}}))),
                Some(object(
                    json!({"name": "a", "meta": {"s": "down"}, "icon": "x"}),
                )),
            ),
            change(
                "b",
                Some(object(json!({"name": "b"}))),
                Some(object(json!({"name": "B"}))),
            ),
        ]);
        let Ok(WriteKind::Update { source, objects }) = write_of(&version, Some("a"), None) else {
            panic!("an update")
        };
        assert_eq!(source, Source::Version(7));
        let [a] = objects.as_slice() else {
            panic!("a's part only")
        };
        assert_eq!(
            a.previous(),
            serde_json::from_value(json!({"meta": {"s": "up"}})).unwrap()
        );
        assert_eq!(a.added(), ["icon"]);
        let Ok(WriteKind::Update { objects, .. }) = write_of(&version, None, None) else {
            panic!("an update")
        };
        assert_eq!(objects.len(), 2);
    }

    #[test]
    fn a_delete_is_undone_by_creating_again_and_a_create_is_refused() {
        let gone = details(vec![change("a", Some(object(json!({"name": "a"}))), None)]);
        let Ok(WriteKind::Delete(removed)) = write_of(&gone, None, None) else {
            panic!("a delete")
        };
        assert_eq!(removed[0].obj, "a");
        let made = details(vec![change("a", None, Some(object(json!({"name": "a"}))))]);
        let why = write_of(&made, None, None).unwrap_err();
        assert!(
            why.contains("version 7 (bulk-update) created objects"),
            "{why}"
        );
        let same = details(vec![change(
            "a",
            Some(object(json!({"name": "a"}))),
            Some(object(json!({"name": "a"}))),
        )]);
        assert!(
            write_of(&same, None, None)
                .unwrap_err()
                .contains("left it as it was")
        );
    }
}
