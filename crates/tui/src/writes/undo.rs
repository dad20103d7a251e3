//! Undo of the session's writes (`record.rs`): `u` undoes the newest write to one object, `U`
//! picks any write of the open document. Every undo first shows what it will send and what it
//! cannot put back exactly (a property a write added: the update route cannot remove it; a
//! write that only added properties asks whether to leave them), then checks on the server,
//! like a save, that the objects still hold what the write wrote, and asks again when they do
//! not; where the server gives versions, the undo names the versions that re-read found, so
//! that a change made between the re-read and the undo makes the server write nothing. Updates put back the values they replaced; deleted objects are created again (with new
//! ids), then the line groups that were attached to them are read and pointed at the new ids in
//! one bulk update; an import or an empty is undone by setting the previous content back. Only
//! the API's routes are used, so an undo works against any server that speaks it.
//!
//! The flow keeps no state of its own: each request's purpose names the write and the objects,
//! and the history in `Cx` has the rest.

use std::collections::{BTreeMap, BTreeSet};

use crate::document::ObjectModel;
use crate::document::{ObjectVersions, Versioned};
use crate::keys::Command;
use crate::keys::Context;
use crate::requests::api::{self, Call};
use crate::requests::call::{Failure, Request};
use crate::requests::purpose::{Answered, Batch, Outcome, Sent, UndoReply};
use crate::session::record::{ObjectWrite, UndoneMark, Write, WriteKind, repointed};
use crate::text::json::BulkChange;
use crate::text::notification::Notification;
use crate::text::words;
use crate::vocab::action::{Action, Ask, Choice, Cx};
use crate::vocab::calls::Body;
use crate::writes::folder_undo;
use diagtui_model::Props;

/// Rows listed in a question about many objects.
const ROWS: usize = 8;

/// Sends `call` for an undo, its answer made into the undo's reply by `reply`.
fn send<A: 'static>(
    cx: &Cx,
    call: Call<A>,
    reply: impl FnOnce(Outcome<A>) -> UndoReply + Send + 'static,
) -> Sent {
    cx.send(call, move |outcome| Answered::Undo(reply(outcome)))
}

/// `u`: undo the newest write to object `obj` of `doc` (asks first).
pub fn ask_object(doc: &str, obj: &str, cx: &Cx) -> Vec<Action> {
    let name = cx.name_of(obj);
    if cx.unsaved == Some(obj) {
        return vec![Action::error(format!(
            "save or drop your edits of {name} before undoing a write to it"
        ))];
    }
    match cx.writes.latest_of(doc, obj) {
        Some((write, part)) => ask_update(write, vec![part], cx),
        None => vec![Action::info(format!(
            "nothing to undo for {name}: no write to it in this session"
        ))],
    }
}

/// `U`, then a write picked: undo what is left of write `id` (asks first).
pub fn ask_write(id: u64, cx: &Cx) -> Vec<Action> {
    let Some(write) = cx.writes.get(id) else {
        return Vec::new();
    };
    match &write.kind {
        WriteKind::Update { objects, .. } => {
            let parts: Vec<&ObjectWrite> = objects.iter().filter(|o| !o.undone).collect();
            if parts.iter().any(|p| cx.unsaved == Some(p.obj.as_str())) {
                return vec![Action::error(
                    "save or drop your edits in the properties pane before undoing this write",
                )];
            }
            ask_update(write, parts, cx)
        }
        WriteKind::Delete(_) => ask_recreate(write, cx),
        WriteKind::Folder { .. } => folder_undo::ask(write, cx),
        WriteKind::Replace {
            previous, undone, ..
        } => ask_replaced(write, previous, *undone, cx),
    }
}

/// The question before undoing `parts` of update `write`: the diff, what cannot be put back,
/// and a yes that re-reads the objects first.
fn ask_update(write: &Write, parts: Vec<&ObjectWrite>, cx: &Cx) -> Vec<Action> {
    if parts.is_empty() {
        return undone_already(write);
    }
    let names = cx.names();
    let added: Vec<String> = parts
        .iter()
        .flat_map(|p| {
            let name = names.text(&p.obj);
            p.added()
                .into_iter()
                .map(move |key| format!("{key} ({name})"))
        })
        .collect();
    let cannot = (!added.is_empty()).then(|| {
        let more = match added.len().saturating_sub(ROWS) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        format!(
            "Cannot be undone exactly: the {} added {}{more}; an update cannot remove a property, so it stays.",
            write.name(),
            added[..added.len().min(ROWS)].join(", ")
        )
    });
    let objs: Vec<String> = parts.iter().map(|p| p.obj.clone()).collect();
    if parts.iter().all(|p| p.previous().is_empty()) {
        return ask_leave_added(write, objs, &added, cx);
    }
    let check = reread(&write.doc, &objs);
    let whom = match parts.as_slice() {
        [part] => names.of(&part.obj).described(),
        many => words::objects(many.len()),
    };
    let heading = format!(
        "Undo the {} (write {}) of {whom}: these values go back once a re-read shows nothing changed since:",
        write.name(),
        write.id
    );
    let body = match parts.as_slice() {
        [part] => Body::Diff {
            heading,
            diff: part.undo_diff(),
            notes: cannot.into_iter().collect(),
        },
        _ => Body::BulkDiff {
            heading,
            changes: parts
                .iter()
                .map(|p| BulkChange {
                    obj: p.obj.clone(),
                    diff: p.undo_diff(),
                })
                .filter(|c| !c.diff.changes.is_empty())
                .collect(),
            notes: cannot.into_iter().collect(),
        },
    };
    let several = objs.len() > 1;
    let write_id = write.id;
    let check = send(cx, check, move |read| UndoReply::Check {
        write: write_id,
        objs,
        read,
    });
    vec![Action::Ask(
        Ask::new(
            "Undo",
            body,
            vec![
                Choice::new(
                    Command::Yes,
                    "undo (re-reads first)",
                    vec![Action::Undoing(write.id), Action::Send(check)],
                ),
                Choice::new(Command::No, "keep it", Vec::new()),
            ],
        )
        .destructive_if(several),
    )]
}

/// The question when undoing update `write` of `objs` can put nothing back: it only added
/// properties (`added`, `key (object)`), which an update cannot remove. It names what stays;
/// yes leaves them and marks the write undone (so `u` reaches the write before it).
fn ask_leave_added(write: &Write, objs: Vec<String>, added: &[String], cx: &Cx) -> Vec<Action> {
    let whom = match objs.as_slice() {
        [obj] => cx.names().of(obj).described(),
        many => words::objects(many.len()),
    };
    let note = format!("left the properties the {} added", write.name());
    vec![Action::Ask(Ask::new(
        "Undo cannot put it back",
        Body::Listed {
            text: format!(
                "The {} (write {}) of {whom} only added properties; an update cannot remove one. These stay:",
                write.name(),
                write.id
            ),
            rows: added.iter().take(ROWS).map(|a| format!("  {a}")).collect(),
            more: added.len().saturating_sub(ROWS),
            after: Some(
                "Leave them and mark the write undone? Nothing is sent to the server.".into(),
            ),
        },
        vec![
            Choice::new(
                Command::Yes,
                "leave them (mark it undone)",
                vec![
                    Action::Undone(UndoneMark::Objects {
                        write: write.id,
                        objs,
                    }),
                    Action::info(note),
                ],
            ),
            Choice::new(Command::No, "keep it as it is", Vec::new()),
        ],
    ))]
}

/// The question before creating again the objects `write` deleted.
fn ask_recreate(write: &Write, cx: &Cx) -> Vec<Action> {
    let WriteKind::Delete(removed) = &write.kind else {
        return Vec::new();
    };
    let left: Vec<_> = removed.iter().filter(|r| r.again.is_none()).collect();
    if left.is_empty() {
        return undone_already(write);
    }
    let names = cx.names();
    let attached: Vec<String> = left
        .iter()
        .filter(|r| !r.attached.is_empty())
        .map(|r| {
            let groups: Vec<String> = r
                .attached
                .iter()
                .map(|g| format!("{} ({g})", names.text(g)))
                .collect();
            format!("{} (to {})", groups.join(", "), r.name(&names).text())
        })
        .collect();
    let words = RecreateWords::of(left.len());
    let after = (!attached.is_empty()).then(|| {
        format!(
            "Line groups attached to {}: {}. Once {} created, one bulk update points these anchors at the new {}.",
            words.them,
            attached.join("; "),
            words.created,
            words.ids
        )
    });
    let sends = std::iter::once(Action::Undoing(write.id))
        .chain(left.iter().map(|r| {
            let call = api::create_object(
                write.doc.clone(),
                r.object.kind.clone(),
                r.object.data.clone(),
            );
            let (write, old) = (write.id, r.obj.clone());
            let sent = send(cx, call, move |created| UndoReply::Recreate {
                write,
                old,
                created,
            });
            Action::Send(sent.in_batch(Batch::Recreating(write)))
        }))
        .collect();
    vec![Action::Ask(Ask::new(
        "Undo the delete",
        Body::Listed {
            text: words.question,
            rows: left
                .iter()
                .take(ROWS)
                .map(|r| r.name(&names).words())
                .collect(),
            more: left.len().saturating_sub(ROWS),
            after,
        },
        vec![
            Choice::new(Command::Yes, &format!("create {} again", words.them), sends),
            Choice::new(
                Command::No,
                &format!("keep {} deleted", words.them),
                Vec::new(),
            ),
        ],
    ))]
}

/// The words of the question before creating again some deleted objects: one is "it".
struct RecreateWords {
    question: String,
    them: &'static str,
    created: &'static str,
    ids: &'static str,
}

impl RecreateWords {
    /// The words for `n` objects.
    fn of(n: usize) -> RecreateWords {
        let why = "(an object cannot be created under its old id)";
        match n {
            1 => RecreateWords {
                question: format!(
                    "Create the deleted object again with its old data? It gets a new id {why}."
                ),
                them: "it",
                created: "it is",
                ids: "id",
            },
            n => RecreateWords {
                question: format!(
                    "Create the {n} deleted objects again with their old data? They get new ids {why}."
                ),
                them: "them",
                created: "the objects are",
                ids: "ids",
            },
        }
    }
}

/// What undoing a write that is undone already says.
fn undone_already(write: &Write) -> Vec<Action> {
    vec![Action::info(format!(
        "write {} is undone already",
        write.id
    ))]
}

/// The question before setting back the content an import or an empty replaced.
fn ask_replaced(write: &Write, previous: &ObjectModel, undone: bool, cx: &Cx) -> Vec<Action> {
    if undone {
        return undone_already(write);
    }
    let now = cx
        .doc
        .filter(|d| d.id() == write.doc)
        .and_then(|d| d.model())
        .map(|m| format!(" (the {} now)", words::objects(m.len())))
        .unwrap_or_default();
    let title = cx
        .doc
        .filter(|d| d.id() == write.doc)
        .map_or(write.doc.clone(), |d| d.summary.title.clone());
    let made = match &write.kind {
        WriteKind::Replace { made, .. } => *made,
        _ => None,
    };
    let call = api::set_content(write.doc.clone(), previous.to_content(), made);
    let write_id = write.id;
    let sent = send(cx, call, move |made| UndoReply::Replaced(write_id, made));
    let name = write.name();
    vec![Action::Ask(
        Ask::new(
            &format!("Undo the {name}"),
            Body::Text(format!(
                "Set the content of \"{title}\" back to the {} it had before the {name}? This replaces ALL its content{now}.",
                words::objects(previous.len())
            )),
            vec![
                Choice::new(
                    Command::Yes,
                    "set the previous content back",
                    vec![Action::Send(sent)],
                ),
                Choice::new(Command::No, &format!("keep the {name}"), Vec::new()),
            ],
        )
        .destructive(),
    )]
}

/// The answer to an undo's request.
pub fn on_reply(reply: UndoReply, request: Request, cx: &Cx) -> Vec<Action> {
    let doc = (cx.writes.get(reply.write()))
        .map(|w| w.doc.clone())
        .unwrap_or_default();
    let open = cx.doc_id() == Some(doc.as_str());
    match reply {
        UndoReply::Folder(write, reply) => folder_undo::on_reply(write, reply, request, cx),
        UndoReply::Check {
            write,
            objs,
            read: Ok((current, versions)),
        } => checked(write, &objs, &current, &versions, cx),
        UndoReply::Check {
            read: Err(failure), ..
        } => failed("the re-read; nothing was changed", &failure, false),
        UndoReply::Update {
            write,
            objs,
            done: Ok(()),
        } => updated(write, objs, open, cx),
        UndoReply::Update {
            done: Err(failure), ..
        } => failed("nothing was changed", &failure, open),
        UndoReply::Recreate {
            write,
            old,
            created: Ok(new),
        } => recreated(write, old, Some(new), cx),
        UndoReply::Recreate {
            write,
            old,
            created: Err(failure),
        } => {
            let mut actions = failed(&format!("{old} was not created again"), &failure, false);
            // The other objects of the delete go on: the last answer points the line
            // groups of those created at their new ids.
            actions.extend(recreated(write, old, None, cx));
            actions
        }
        UndoReply::Anchors(write, Ok(read)) => repoint(write, &read, cx),
        UndoReply::Anchors(_, Err(failure)) => failed(
            "reading the attached line groups; they still name the old ids",
            &failure,
            open,
        ),
        UndoReply::Repoint(write, Ok(())) => {
            let (Some(w), Request::BulkUpdate { objects, .. }) = (cx.writes.get(write), &request)
            else {
                return Vec::new();
            };
            let pointed = format!(
                "{} pointed at the new ids",
                words::count(objects.len(), "line group", "line groups")
            );
            let mut actions = vec![delete_undone(w, moved_ids(w).len(), &pointed, cx)];
            if open {
                actions.push(Action::ReloadAfterWrite);
            }
            actions
        }
        UndoReply::Repoint(_, Err(failure)) => failed(
            "pointing the line groups at the new ids; they still name the old ids",
            &failure,
            open,
        ),
        UndoReply::Replaced(write, Ok(_)) => set_back(write, doc, &request, cx),
        UndoReply::Replaced(_, Err(failure)) if failure.stale.is_some() => failed(
            "the document was written after it, so nothing was set back over that write; H \
             shows its versions",
            &failure,
            open,
        ),
        UndoReply::Replaced(_, Err(failure)) => failed("the content is as it was", &failure, open),
    }
}

/// The values of `objs` that update `write` replaced are back (`open`: its document is open).
fn updated(write: u64, objs: Vec<String>, open: bool, cx: &Cx) -> Vec<Action> {
    let name = cx.writes.get(write).map_or("write", Write::name);
    let said = match objs.as_slice() {
        [obj] => format!("undid the {name} of {}", cx.name_of(obj)),
        many => format!("undid the {name} of {}", words::objects(many.len())),
    };
    let mut actions = vec![
        Action::Undone(UndoneMark::Objects { write, objs }),
        Action::info(said),
    ];
    if open {
        actions.push(Action::ReloadAfterWrite);
    }
    actions
}

/// The content of `doc` that write `write` replaced is set back (by `request`).
fn set_back(write: u64, doc: String, request: &Request, cx: &Cx) -> Vec<Action> {
    let n = match request {
        Request::SetContent { content, .. } => content.len(),
        _ => 0,
    };
    let name = cx.writes.get(write).map_or("write", Write::name);
    vec![
        Action::Undone(UndoneMark::Replaced(write)),
        Action::info(format!(
            "set the content from before the {name} back ({})",
            words::objects(n)
        )),
        Action::ContentReplaced(doc),
    ]
}

/// An undo's request failed: the message says what was and was not done (`what`); the open
/// document is read again when `reload`.
fn failed(what: &str, failure: &Failure, reload: bool) -> Vec<Action> {
    let mut actions = vec![Action::error(format!(
        "undo failed ({what}): {}",
        failure.message
    ))];
    if reload {
        actions.push(Action::ReloadContent);
    }
    actions
}

/// The creation again of object `old`, deleted by `write`, was answered (`created`: its new
/// id, `None` when it failed). Once the last of them is answered, the line groups that were
/// attached to the ones created are read again, to point their anchors at the new ids.
fn recreated(write: u64, old: String, created: Option<String>, cx: &Cx) -> Vec<Action> {
    let Some(w) = cx.writes.get(write) else {
        return Vec::new();
    };
    let open = cx.doc_id() == Some(w.doc.as_str());
    let mut actions = Vec::new();
    let mut moved = moved_ids(w);
    if let Some(new) = created {
        moved.insert(old.clone(), new.clone());
        actions.push(Action::Undone(UndoneMark::Recreated { write, old, new }));
    }
    let more = cx.requests.waiting(Batch::Recreating(write));
    if more {
        return actions;
    }
    let line_groups = attached_now(w, &moved);
    if line_groups.is_empty() {
        actions.push(delete_undone(w, moved.len(), "with new ids", cx));
        if open {
            actions.push(Action::ReloadAfterWrite);
        }
        return actions;
    }
    let read = api::get_objects(w.doc.clone(), line_groups);
    actions.push(Action::Send(send(cx, read, move |read| {
        UndoReply::Anchors(write, read)
    })));
    actions
}

/// What the undo of delete `write` says once its last request is answered: `created` objects
/// are created again, then `done`; a warning when some were not (`U` tries those again).
fn delete_undone(write: &Write, created: usize, done: &str, cx: &Cx) -> Action {
    let all = match &write.kind {
        WriteKind::Delete(removed) => removed.len(),
        _ => created,
    };
    match all.saturating_sub(created) {
        0 => Action::info(format!(
            "undid the delete (write {}): {} created again, {done}",
            write.id,
            words::objects(created)
        )),
        left => Action::Notify(Notification::warning(format!(
            "undid the delete (write {}) in part: {} created again, {done}; {left} not ({} tries again)",
            write.id,
            words::objects(created),
            cx.key(Context::Objects, Command::History)
        ))),
    }
}

/// The old and new ids of the objects of delete `write` created again so far.
fn moved_ids(write: &Write) -> BTreeMap<String, String> {
    match &write.kind {
        WriteKind::Delete(removed) => removed
            .iter()
            .filter_map(|r| Some((r.obj.clone(), r.again.clone()?)))
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// The line groups that were attached to the objects of delete `write` created again
/// (`moved`: old id to new), by the ids they have now (a line group deleted with them and
/// created again has a new one), each once.
fn attached_now(write: &Write, moved: &BTreeMap<String, String>) -> Vec<String> {
    let WriteKind::Delete(removed) = &write.kind else {
        return Vec::new();
    };
    let ids: BTreeSet<String> = removed
        .iter()
        .filter(|r| moved.contains_key(&r.obj))
        .flat_map(|r| r.attached.iter())
        .filter_map(|lg| match removed.iter().any(|r| &r.obj == lg) {
            true => moved.get(lg).cloned(),
            false => Some(lg.clone()),
        })
        .collect();
    ids.into_iter().collect()
}

/// The line groups attached to the objects `write` deleted were read again: one bulk update
/// points each anchor that names an old id at its new one.
fn repoint(write: u64, read: &[(String, Option<Versioned>)], cx: &Cx) -> Vec<Action> {
    let Some(w) = cx.writes.get(write) else {
        return Vec::new();
    };
    let moved = moved_ids(w);
    let objects: BTreeMap<String, Props> = read
        .iter()
        .filter_map(|(id, object)| {
            let anchors = repointed(&object.as_ref()?.object.data, &moved)?;
            Some((
                id.clone(),
                [("anchors".to_string(), anchors)].into_iter().collect(),
            ))
        })
        .collect();
    let gone: Vec<&str> = read
        .iter()
        .filter(|(_, object)| object.is_none())
        .map(|(id, _)| id.as_str())
        .collect();
    let mut actions = Vec::new();
    if !gone.is_empty() {
        actions.push(Action::error(format!(
            "line groups deleted since, not pointed at the new ids: {}",
            gone.join(", ")
        )));
    }
    if objects.is_empty() {
        if cx.doc_id() == Some(w.doc.as_str()) {
            actions.push(Action::ReloadAfterWrite);
        }
        return actions;
    }
    let versions = (read.iter())
        .filter_map(|(id, read)| Some((id.clone(), read.as_ref()?.version?)))
        .collect();
    let if_versions = named_versions(&objects, &versions);
    let update = api::bulk_update(w.doc.clone(), objects, if_versions);
    actions.push(Action::Send(send(cx, update, move |done| {
        UndoReply::Repoint(write, done)
    })));
    actions
}

/// The objects were re-read (at `versions`, where the server gives them): undo at once when
/// they still hold what the write wrote, else ask whether to overwrite what changed since.
fn checked(
    write_id: u64,
    objs: &[String],
    current: &BTreeMap<String, Props>,
    versions: &ObjectVersions,
    cx: &Cx,
) -> Vec<Action> {
    let Some(write) = cx.writes.get(write_id) else {
        return Vec::new();
    };
    let parts: Vec<&ObjectWrite> = objs
        .iter()
        .filter_map(|obj| write.part(obj))
        .filter(|p| !p.undone)
        .collect();
    let names = cx.names();
    let gone: Vec<String> = parts
        .iter()
        .filter(|p| !current.contains_key(&p.obj))
        .map(|p| names.text(&p.obj))
        .collect();
    let changed: Vec<String> = parts
        .iter()
        .filter_map(|p| {
            let now = current.get(&p.obj)?;
            let differs: Vec<String> = p
                .after
                .iter()
                .filter(|(k, v)| now.get(*k) != Some(*v))
                .map(|(k, v)| match now.get(k) {
                    Some(now) => format!("{k} is {now} (the write made it {v})"),
                    None => format!("{k} is gone"),
                })
                .collect();
            (!differs.is_empty()).then(|| format!("{}: {}", names.text(&p.obj), differs.join(", ")))
        })
        .collect();
    let objects: BTreeMap<String, Props> = parts
        .iter()
        .filter(|p| current.contains_key(&p.obj))
        .map(|p| (p.obj.clone(), p.previous()))
        .filter(|(_, props)| !props.is_empty())
        .collect();
    let mut actions = Vec::new();
    if !gone.is_empty() {
        actions.push(Action::error(format!(
            "deleted since, left out of the undo: {}",
            gone.join(", ")
        )));
    }
    if objects.is_empty() {
        return actions;
    }
    let (objs, update) = update_call(&write.doc, objects, versions);
    let sent = send(cx, update, move |done| UndoReply::Update {
        write: write_id,
        objs,
        done,
    });
    if changed.is_empty() {
        actions.push(Action::Send(sent));
        return actions;
    }
    actions.push(Action::Ask(
        Ask::new(
            "Changed on the server",
            Body::Listed {
                text: format!(
                    "{} changed on the server since the {}:",
                    words::count(changed.len(), "object has", "objects have"),
                    write.name()
                ),
                rows: changed.iter().take(ROWS).cloned().collect(),
                more: changed.len().saturating_sub(ROWS),
                after: Some("Undoing puts the old values over these newer ones.".into()),
            },
            vec![
                Choice::new(Command::Overwrite, "undo anyway", vec![Action::Send(sent)]),
                Choice::new(Command::Cancel, "leave it as it is", Vec::new()),
            ],
        )
        .in_context(Context::Conflict)
        .destructive(),
    ));
    actions
}

/// The call that puts `objects`' values back, naming the `versions` they were read at (when
/// each has one): one update for one object, else one bulk update; with the objects it names.
fn update_call(
    doc: &str,
    objects: BTreeMap<String, Props>,
    versions: &ObjectVersions,
) -> (Vec<String>, Call<()>) {
    let objs: Vec<String> = objects.keys().cloned().collect();
    let if_versions = named_versions(&objects, versions);
    let call = match objects.len() {
        1 => {
            let (obj, props) = objects.into_iter().next().expect("one object");
            let if_match = if_versions.and_then(|v| v.get(&obj).copied());
            api::update_object(doc.to_string(), obj, props, if_match).map(|_| ())
        }
        _ => api::bulk_update(doc.to_string(), objects, if_versions),
    };
    (objs, call)
}

/// The call that reads objects `objs` of `doc` again before an undo: each one's properties
/// now (those gone left out), and the versions of those the server gave one. One object is
/// read alone, more with the content.
fn reread(doc: &str, objs: &[String]) -> Call<(BTreeMap<String, Props>, ObjectVersions)> {
    if let [obj] = objs {
        let obj = obj.clone();
        return api::get_object(doc.to_owned(), obj.clone()).map(move |read| {
            let version = read.version.map(|v| (obj.clone(), v));
            (
                [(obj, read.object.data)].into(),
                version.into_iter().collect(),
            )
        });
    }
    let objs = objs.to_vec();
    api::content(doc.to_owned()).map(move |model| {
        let current = (objs.iter())
            .filter_map(|obj| Some((obj.clone(), model.entry(model.index_of(obj)?).data())))
            .collect();
        let versions = (objs.iter())
            .filter_map(|obj| Some((obj.clone(), model.server_version_of(obj)?)))
            .collect();
        (current, versions)
    })
}

/// The versions of the objects a write sends, when `versions` has each one's (else the write
/// names none: a server without versions).
fn named_versions<T>(
    objects: &BTreeMap<String, T>,
    versions: &ObjectVersions,
) -> Option<ObjectVersions> {
    (objects.keys())
        .map(|obj| Some((obj.clone(), *versions.get(obj)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_object_is_put_back_with_one_update_many_with_one_bulk_update() {
        let props: Props = serde_json::from_value(json!({"n": 1})).unwrap();
        let (objs, call) = update_call(
            "d",
            [("a".to_string(), props.clone())].into(),
            &Default::default(),
        );
        assert_eq!(objs, vec!["a"]);
        assert!(matches!(call.request(), Request::UpdateObject { .. }));
        let (objs, call) = update_call(
            "d",
            [("a".to_string(), props.clone()), ("b".to_string(), props)].into(),
            &Default::default(),
        );
        assert_eq!(objs, vec!["a", "b"]);
        assert!(matches!(call.request(), Request::BulkUpdate { .. }));
    }
}
