//! The answers App hears: a request's reply goes to what it was for (its purpose: a pane, an
//! overlay, the open document's content, the objects read again); the change events' news
//! become reactions (objects to read again, a document's last change).

use crate::app::selector::{find_bulk, find_form};
use crate::app::update::{App, cx};
use crate::document::ObjectModel;
use crate::document::{RequestId, Versioned};
use crate::keys::{Command, Context};
use crate::overlays::SelectorForm;
use crate::panes::Replied;
use crate::requests::api;
use crate::requests::call::{Reply, Request};
use crate::requests::liveness::Reaction;
use crate::requests::purpose::{Answered, BulkOwner, Outcome, PaneReply};
use crate::text::notification::Notification;
use crate::vocab::action::{Action, Cx, Overlay};
use crate::vocab::calls::Pane;
use crate::writes::{server_undo, undo};

impl App {
    pub(super) fn on_reply(&mut self, reply: Reply) -> Vec<Action> {
        let Some(flight) = self.requests.answered(&reply) else {
            tracing::debug!(id = reply.id, "reply for nothing in flight dropped");
            return Vec::new();
        };
        let ok = reply.outcome.is_ok();
        let written = flight.request.written_doc().map(str::to_owned);
        let answered = flight.then.answer(reply.outcome);
        let purpose = match &answered {
            Answered::Pane(PaneReply(reply)) => self.panes.taker(&**reply).map(Pane::name),
            other => Some(other.purpose()),
        };
        tracing::debug!(
            id = reply.id,
            purpose = %purpose.unwrap_or("nothing"),
            ok,
            "reply"
        );
        let mut actions = self.route(answered, reply.id, flight.request);
        if let Some(doc) = written {
            actions.push(Action::Written(doc));
        }
        actions
    }

    /// Hands an answer to the component whose request it was.
    pub(super) fn route(
        &mut self,
        answered: Answered,
        id: RequestId,
        request: Request,
    ) -> Vec<Action> {
        let shown_form = self
            .overlays
            .last()
            .is_some_and(Overlay::is::<SelectorForm>);
        match answered {
            Answered::Account(Ok(user)) => {
                self.account = Some(user.email);
                Vec::new()
            }
            Answered::Account(Err(failure)) => vec![Action::error(format!(
                "could not read the account: {}",
                failure.message
            ))],
            Answered::Content(outcome) => self.content_answered(id, outcome),
            Answered::Fresh(outcome) => self.fresh_answered(id, request, outcome),
            Answered::Poll(outcome) => {
                let Request::Details { doc } = request else {
                    return Vec::new();
                };
                let answer = outcome
                    .map(|details| details.last_change)
                    .map_err(|failure| failure.message);
                let reactions = self.liveness.polled(&doc, answer);
                self.react(reactions)
            }
            Answered::Pane(PaneReply(reply)) => {
                let Some(pane) = self.panes.taker(&*reply) else {
                    tracing::error!(id, "a reply no pane takes was dropped");
                    return Vec::new();
                };
                let unsaved = self.panes.unsaved_for(pane);
                let cx = cx!(self, unsaved.as_deref());
                let replied = Replied { reply, id, request };
                let actions = self.panes.get_mut(pane).reply_boxed(replied, &cx);
                // A document renamed (here or elsewhere) shows its new title when open.
                self.retitle_open_doc();
                actions
            }
            Answered::Form(reply) => {
                let cx = cx!(self, self.panes.props.unsaved());
                let form = find_form(&mut self.overlays, &mut self.kept_form);
                match form {
                    Some(form) => form.on_reply(reply, id, request, &cx, shown_form),
                    None => Vec::new(),
                }
            }
            Answered::Bulk(BulkOwner::Form, reply) => {
                let cx = cx!(self, self.panes.props.unsaved());
                match find_form(&mut self.overlays, &mut self.kept_form) {
                    Some(form) => form.on_bulk_reply(reply, id, &cx),
                    None => Vec::new(),
                }
            }
            Answered::Bulk(BulkOwner::BulkEdit, reply) => {
                let cx = cx!(self, self.panes.props.unsaved());
                let bulk = find_bulk(&mut self.overlays, &mut self.kept_bulk);
                bulk.on_reply(reply, id, &cx)
            }
            Answered::Undo(reply) => {
                let cx = cx!(self, self.panes.props.unsaved());
                undo::on_reply(reply, request, &cx)
            }
            Answered::Versions(reply) => self.versions_answered(reply, id, request),
            Answered::FromFile(reply) => self.file_diagram_answered(reply, request),
            Answered::Departed(obj, reply) => self.departed_answered(&obj, request, reply),
            Answered::ServerUndo(reply) => {
                if reply.is_ok() {
                    self.writes.set_server_keeps(true);
                }
                let cx = cx!(self, self.panes.props.unsaved());
                server_undo::on_reply(reply, request, &cx)
            }
        }
    }

    /// The open document's content arrived (or failed): applied only when it is the one awaited.
    pub(super) fn content_answered(
        &mut self,
        id: RequestId,
        outcome: Outcome<Box<ObjectModel>>,
    ) -> Vec<Action> {
        let Some(doc) = self.doc.as_mut() else {
            return Vec::new();
        };
        match outcome {
            Ok(model) => {
                let n = model.len();
                if !doc.loaded(id, *model) {
                    tracing::debug!(id, "stale content dropped");
                    return Vec::new();
                }
                if doc.past.is_none() {
                    self.panes.docs.set_count(&doc.summary.id, n);
                }
                let cx = cx!(self, None);
                self.panes.objects.sync(&cx);
                self.show_selected();
                // Changed while the content was on its way: read those again now.
                self.read_fresh()
            }
            Err(failure) => {
                if doc.content.fail(id, failure.message.clone()) {
                    let cx = cx!(self, None);
                    self.panes.objects.sync(&cx);
                    vec![Action::error(format!(
                        "could not load the objects: {} ({} retries)",
                        failure.message,
                        self.keys.key(Context::Global, Command::Refresh)
                    ))]
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The open document's title as the document list has it now (retitled here or elsewhere).
    pub(super) fn retitle_open_doc(&mut self) {
        if let Some(open) = self.doc.as_mut()
            && let Some(listed) = self.panes.docs.docs().iter().find(|d| d.id == open.id())
            && listed.title != open.summary.title
        {
            open.summary.title.clone_from(&listed.title);
        }
    }

    /// Reads the open document's objects changed elsewhere that wait, when its content is
    /// there to take them and no such read is under way.
    pub(super) fn read_fresh(&mut self) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return Vec::new();
        };
        let ready = doc.model().is_some() && !doc.content.is_loading();
        let Some(objs) = self.fresh.take(ready) else {
            return Vec::new();
        };
        let doc = doc.id().to_owned();
        let sent = self
            .requests
            .prepare(api::get_objects(doc, objs), Answered::Fresh);
        self.fresh.reading(sent.id);
        vec![Action::Send(sent)]
    }

    /// Objects changed elsewhere, read again: put in place (the selection, the marks and the
    /// filter stay), then the next ones that wait are read.
    pub(super) fn fresh_answered(
        &mut self,
        id: RequestId,
        request: Request,
        outcome: Outcome<Vec<(String, Option<Versioned>)>>,
    ) -> Vec<Action> {
        if !self.fresh.answered(id) {
            return Vec::new();
        }
        let Request::GetObjects { doc, .. } = request else {
            return Vec::new();
        };
        if self.doc.as_ref().is_none_or(|d| d.id() != doc) {
            return Vec::new();
        }
        match outcome {
            Ok(objects) => self.take_fresh(objects),
            // Read them with the rest: the reload says what went wrong, if it goes wrong too.
            Err(_) => vec![Action::ReloadContent],
        }
    }

    /// Objects of the open document as the server has them now (read again, or given by a
    /// change event), with their versions, put in place: the selection, the marks and the
    /// filter stay; then the next ones that wait are read.
    pub(super) fn take_fresh(&mut self, objects: Vec<(String, Option<Versioned>)>) -> Vec<Action> {
        let Some(open) = self.doc.as_mut() else {
            return Vec::new();
        };
        open.apply_fresh(objects);
        let n = open.model().map_or(0, ObjectModel::len);
        let doc = open.id().to_owned();
        self.panes.docs.set_count(&doc, n);
        let cx = cx!(self, None);
        self.panes.objects.sync_after_removal(&cx);
        self.show_selected();
        self.read_fresh()
    }

    /// Objects `objs` of the open document changed elsewhere: read them again (or the whole
    /// content, when many wait).
    pub(super) fn refetch(&mut self, objs: Vec<String>) -> Vec<Action> {
        if self.fresh.want(objs) {
            self.read_fresh()
        } else {
            vec![Action::ReloadContent]
        }
    }

    /// Carries out what news from the server means: reloads in place (unsaved edits stay, see
    /// `show_selected`), polls, notes.
    pub(super) fn react(&mut self, reactions: Vec<Reaction>) -> Vec<Action> {
        let mut actions = Vec::new();
        for reaction in reactions {
            match reaction {
                // The past view shows a version that does not change: now is read on leaving it.
                Reaction::ReloadDoc | Reaction::Refetch(_) | Reaction::Apply(_)
                    if self.past().is_some() => {}
                Reaction::ReloadDoc => actions.push(Action::ReloadContent),
                Reaction::Refetch(objs) => actions.extend(self.refetch(objs)),
                Reaction::Apply(objects) => {
                    let ready = self
                        .doc
                        .as_ref()
                        .is_some_and(|d| d.model().is_some() && !d.content.is_loading());
                    if ready {
                        actions.extend(self.take_fresh(objects));
                    } else {
                        // The content on its way may be older than the event: read them after.
                        actions
                            .extend(self.refetch(objects.into_iter().map(|(id, _)| id).collect()));
                    }
                }
                Reaction::ReloadList => {
                    let cx = cx!(self, self.panes.props.unsaved());
                    actions.extend(self.panes.docs.refresh(&cx));
                }
                Reaction::DocGone(_) if self.panes.props.is_dirty() => {
                    actions.push(Action::Notify(Notification::warning(format!(
                        "the open document was deleted elsewhere; your unsaved edit stays \
                         until you leave it ({} takes it to $EDITOR)",
                        self.keys.key(Context::Properties, Command::ExternalEdit)
                    ))));
                }
                Reaction::DocGone(doc) => {
                    actions.push(Action::DocDeleted(doc));
                    actions.push(Action::Notify(Notification::warning(
                        "the open document was deleted elsewhere",
                    )));
                }
                Reaction::Poll(doc) => actions.push(Action::Send(
                    self.requests.prepare(api::details(doc), Answered::Poll),
                )),
                Reaction::Note(note) => actions.push(Action::Notify(note)),
                Reaction::LastChange(doc, at) => self.panes.docs.heard_change(&doc, at),
            }
        }
        actions
    }
}
