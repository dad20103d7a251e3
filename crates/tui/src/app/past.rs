//! The open document's history, App's part: opening the history overlay (`H`), showing the
//! document as it was at a version (the past view: its content read at that version, the
//! objects changed since marked, every write refused), going back to now, and the restore
//! with its question; undoing a version (as a write of the session's), or this session's writes
//! only when the server keeps no history. The overlay itself is `overlays/versions.rs`.

use crate::app::update::{App, cx};
use crate::document::ObjectModel;
use crate::document::Past;
use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::overlays::VersionsView;
use crate::requests::api::{self, Call};
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, Outcome, VersionsReply};
use crate::session::record::WriteKind;
use crate::text::notification::Notification;
use crate::vocab::action::{Action, Ask, Choice, Cx, Overlay};
use crate::vocab::calls::Body;
use crate::writes::undo;
use diagtui_model::history::{Diff, Restored};

/// How many objects a restore question names.
const NAMED: usize = 8;

/// The commands that write to the open document, refused while it shows an earlier version.
const WRITES: &[(Context, Command)] = &[
    (Context::Global, Command::Save),
    (Context::Objects, Command::Add),
    (Context::Objects, Command::Delete),
    (Context::Objects, Command::BulkEdit),
    (Context::Objects, Command::Selector),
    (Context::Objects, Command::ExternalEdit),
    (Context::Objects, Command::Undo),
    (Context::Objects, Command::History),
    (Context::Properties, Command::Edit),
    (Context::Properties, Command::ExternalEdit),
    (Context::Properties, Command::Undo),
    (Context::Properties, Command::Recreate),
    (Context::Documents, Command::Import),
    (Context::Documents, Command::Empty),
];

impl App {
    /// The version the open document shows instead of its content now, if any.
    pub(super) fn past(&self) -> Option<Past> {
        self.doc.as_ref().and_then(|d| d.past)
    }

    /// `H`: the open document's history.
    pub(super) fn open_versions(&mut self) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return vec![Action::info(format!(
                "open a document first: {} shows its history",
                self.keys.key(Context::Global, Command::Versions)
            ))];
        };
        let mut view =
            VersionsView::new(doc.id(), &doc.summary.title, self.past().map(|p| p.version));
        let cx = cx!(self, None);
        let page = view.next_page(&cx);
        let mut actions = vec![Action::Open(Overlay::new(view))];
        actions.extend(page);
        actions
    }

    /// A write of this app's to `doc` went through (a restore, an undo, any other): the history
    /// overlay open on it lists the versions again, from the newest.
    pub(super) fn relist_versions(&mut self, doc: &str) -> Vec<Action> {
        let shown = self.past().map(|p| p.version);
        let cx = cx!(self, None);
        let open = self
            .overlays
            .iter_mut()
            .find_map(|o| o.get_mut::<VersionsView>().filter(|view| view.doc() == doc));
        open.map(|view| view.relist(shown, &cx)).unwrap_or_default()
    }

    /// The refusal of `command` (found in `context`) while the open document shows an
    /// earlier version and the command would write to it.
    pub(super) fn refusal(&self, context: Context, command: Command) -> Option<Action> {
        let past = self.past()?;
        let writes = WRITES.contains(&(context, command));
        writes.then(|| {
            Action::Notify(Notification::warning(format!(
                "{}: this shows version {} as it was, read-only; {} then {} shows the document as it is now",
                self.keys.key(context, command),
                past.version,
                self.keys.key(Context::Global, Command::Versions),
                self.keys.key(Context::Versions, Command::Present),
            )))
        })
    }

    /// The request that reads the open document's content: now, or at the version the past
    /// view shows.
    pub(super) fn content_call(&self, doc: &str) -> Call<Box<ObjectModel>> {
        let doc = doc.to_owned();
        match self.past() {
            Some(past) => api::content_at(doc, past.version),
            None => api::content(doc),
        }
    }

    /// Shows the open document as it was at `version`, read-only (`None`: as it is now).
    pub(super) fn show_version(&mut self, version: Option<u64>) -> Vec<Action> {
        if self.panes.props.is_dirty() {
            return vec![Action::Notify(Notification::warning(
                "the properties hold an unsaved edit: save it or drop it before looking at another version",
            ))];
        }
        let Some(doc) = self.doc.as_mut() else {
            return Vec::new();
        };
        if doc.past.map(|p| p.version) == version {
            return Vec::new();
        }
        doc.past = version.map(Past::at);
        doc.end_preview();
        let title = doc.summary.title.clone();
        let id = doc.id().to_owned();
        let mut actions = vec![Action::ReloadContent];
        match version {
            Some(version) => {
                let since = self
                    .requests
                    .prepare(api::diff_since(id, version), move |diff| {
                        Answered::Versions(VersionsReply::Since(version, diff))
                    });
                actions.push(Action::Send(since));
                actions.push(Action::info(format!(
                    "\"{title}\" as it was at version {version}, read-only; {} then {} shows it as it is now",
                    self.keys.key(Context::Global, Command::Versions),
                    self.keys.key(Context::Versions, Command::Present),
                )));
            }
            None => actions.push(Action::info(format!("\"{title}\" as it is now"))),
        }
        actions
    }

    /// `r` in the history: reads what a restore of `version` would change, to ask.
    pub(super) fn ask_restore(&mut self, version: u64) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return Vec::new();
        };
        let call = api::diff_since(doc.id().to_owned(), version);
        let sent = self.requests.prepare(call, move |diff| {
            Answered::Versions(VersionsReply::Count(version, diff))
        });
        vec![
            Action::Send(sent),
            Action::info(format!(
                "reading what a restore of version {version} changes…"
            )),
        ]
    }

    /// An answer to a request about the history.
    pub(super) fn versions_answered(
        &mut self,
        reply: VersionsReply,
        id: RequestId,
        request: Request,
    ) -> Vec<Action> {
        match reply {
            VersionsReply::Page(_) | VersionsReply::Details(_) => {
                let cx = cx!(self, None);
                match self
                    .overlays
                    .iter_mut()
                    .find_map(Overlay::get_mut::<VersionsView>)
                {
                    Some(view) => view.on_reply(reply, id, request, &cx),
                    None => Vec::new(),
                }
            }
            VersionsReply::Since(version, diff) => self.since_answered(version, &request, diff),
            VersionsReply::Count(version, Ok(diff)) => self.restore_question(version, &diff),
            VersionsReply::Count(version, Err(failure)) => vec![Action::error(format!(
                "could not read what a restore of version {version} changes: {}",
                failure.said_for(&request)
            ))],
            VersionsReply::Restore(version, restored) => self.restored(version, &request, restored),
        }
    }

    /// What changed since the version the past view shows: marked (`◇`), counted in the title.
    fn since_answered(
        &mut self,
        version: u64,
        request: &Request,
        outcome: Outcome<Box<Diff>>,
    ) -> Vec<Action> {
        let Some(doc) = self
            .doc
            .as_mut()
            .filter(|d| d.past.map(|p| p.version) == Some(version))
        else {
            return Vec::new();
        };
        match outcome {
            Ok(diff) => {
                let ids: Vec<String> = diff
                    .changed
                    .keys()
                    .chain(diff.removed.keys())
                    .cloned()
                    .collect();
                doc.past = Some(Past {
                    version,
                    changed: Some(ids.len()),
                });
                doc.set_preview(&ids);
                Vec::new()
            }
            Err(failure) => vec![Action::Notify(Notification::warning(format!(
                "could not read what changed since version {version}: {}",
                failure.said_for(request)
            )))],
        }
    }

    /// The question before a restore: how many objects change, and which.
    fn restore_question(&mut self, version: u64, diff: &Diff) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return Vec::new();
        };
        let total = diff.added.len() + diff.removed.len() + diff.changed.len();
        let title = &doc.summary.title;
        if total == 0 {
            return vec![Action::info(format!(
                "version {version} of \"{title}\" holds what it holds now: nothing to restore"
            ))];
        }
        let cx = cx!(self, None);
        let names = cx.names();
        let mut rows: Vec<String> = Vec::new();
        rows.extend(
            diff.removed
                .iter()
                .map(|(id, o)| format!("+ {} ({id}) comes back", names.of_object(id, o).text())),
        );
        rows.extend(
            diff.changed
                .keys()
                .map(|id| format!("~ {} ({id}) is set back", names.text(id))),
        );
        rows.extend(
            diff.added
                .iter()
                .map(|(id, o)| format!("- {} ({id}) goes", names.of_object(id, o).text())),
        );
        let more = rows.len().saturating_sub(NAMED);
        rows.truncate(NAMED);
        let text = format!(
            "Restore \"{title}\" to version {version}? {total} object(s) change: {} come back, {} go, {} are set back.",
            diff.removed.len(),
            diff.added.len(),
            diff.changed.len()
        );
        let after = format!(
            "The restore is a new version (the title stays); restoring version {} undoes it.",
            diff.to
        );
        let restore = api::restore(doc.id().to_owned(), version, Some(diff.to));
        let sent = cx.send(restore, move |restored| {
            Answered::Versions(VersionsReply::Restore(version, restored))
        });
        let question = Ask::new(
            "Restore",
            Body::Listed {
                text,
                rows,
                more,
                after: Some(after),
            },
            vec![
                Choice::new(Command::Yes, "restore", vec![Action::Send(sent)]),
                Choice::new(Command::No, "no", Vec::new()),
            ],
        )
        .destructive();
        vec![Action::Ask(question)]
    }

    /// The restore answered: the document shows as it is now, the history lists the new version.
    fn restored(
        &mut self,
        version: u64,
        request: &Request,
        outcome: Outcome<Restored>,
    ) -> Vec<Action> {
        let restored = match outcome {
            Ok(restored) => restored,
            Err(failure) if failure.stale.is_some() => {
                return vec![Action::error(format!(
                    "restore to version {version} refused: the document was written since the \
                     question was shown, so nothing changed; {} in the history asks again with \
                     what it holds now",
                    self.keys.key(Context::Versions, Command::Restore)
                ))];
            }
            Err(failure) => {
                return vec![Action::error(format!(
                    "restore to version {version} failed; nothing changed: {}",
                    failure.said_for(request)
                ))];
            }
        };
        let Request::Restore { doc, .. } = request else {
            return Vec::new();
        };
        let mut actions = Vec::new();
        if let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) {
            open.past = None;
            open.end_preview();
            actions.push(Action::ContentReplaced(doc.clone()));
        }
        actions.push(Action::info(format!(
            "restored version {version} as version {}: {} object(s) changed (restoring version {} undoes it)",
            restored.version,
            restored.changed,
            restored.version.saturating_sub(1)
        )));
        actions
    }

    /// Undoes `version` of `doc` (the part of object `obj`, or all of it): keeps it in the
    /// write history as the write `kind`, then asks to undo it as any write.
    pub(super) fn undo_version(
        &mut self,
        doc: String,
        version: u64,
        obj: Option<String>,
        kind: WriteKind,
    ) -> Vec<Action> {
        let id = self.writes.of_version(doc, version, obj, kind);
        let cx = cx!(self, self.panes.props.unsaved());
        undo::ask_write(id, &cx)
    }

    /// The server keeps no history: says so once, then asks to undo the newest write of this
    /// session to object `obj` of `doc`.
    pub(super) fn no_server_history(&mut self, doc: &str, obj: &str) -> Vec<Action> {
        self.writes.set_server_keeps(false);
        let cx = cx!(self, self.panes.props.unsaved());
        let mut actions = vec![Action::Notify(Notification::warning(
            "this server keeps no history of the documents: undo takes back this session's writes only",
        ))];
        actions.extend(undo::ask_object(doc, obj, &cx));
        actions
    }
}
