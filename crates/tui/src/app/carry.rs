//! Carrying out the actions components return: [`App::carry_out`] hands each to the handler of
//! its area: here the effects for the runner, the status bar and the overlays; `open_doc.rs` the
//! open document; `selector.rs` the selector form and the bulk edit; `past.rs` the writes, undo
//! and the server's history; a pane's own calls go to the pane.

use std::any::Any;

use crate::app::update::{App, Effect, cx};
use crate::keys::Command;
use crate::overlays::{BulkEdit, Question, SelectorForm};
use crate::requests::purpose::Sent;
use crate::text::notification::{Level, Notification};
use crate::transfer::FileFor;
use crate::vocab::action::{Action, Ask, Choice, Cx, Overlay, PaneCall};
use crate::vocab::calls::Body;

impl App {
    /// Carries out one action; returns the actions it leads to.
    pub(super) fn carry_out(&mut self, action: Action, effects: &mut Vec<Effect>) -> Vec<Action> {
        match action {
            Action::Send(sent) => self.send(sent, effects),
            Action::Notify(notification) => self.notify(notification),
            Action::ClearError => self.status.clear_error(),
            Action::Focus(pane) => self.focus_on(pane),
            Action::Show(pane, show) => self.show(pane, show),
            Action::Open(overlay) => self.open(overlay),
            Action::Ask(ask) => self.open(Overlay::new(Question::from(ask))),
            Action::Close => self.close(),
            Action::Quit => effects.push(Effect::Quit),
            Action::AskQuit => return self.ask_quit(),
            Action::Copy(text) => effects.push(Effect::Copy(text)),
            Action::ExternalEditor(text) => effects.push(Effect::OpenEditor(text)),
            Action::File(what, job) => effects.push(Effect::File(what, job)),
            Action::Run(context, command) => return self.run_anywhere(context, command),
            Action::OpenDoc(doc) => return self.open_doc(doc, effects),
            Action::CancelOpen => return self.cancel_open(effects),
            Action::DropEdits => self.panes.props.close(),
            Action::ShowSelected => self.show_selected(),
            Action::ExternalEdit => return self.external_edit(),
            Action::ReloadAfterWrite => return self.reload_after_write(),
            Action::ReloadContent => return self.reload_content(),
            Action::DocRetitled { doc, title } => self.doc_retitled(&doc, title),
            Action::DocEmptied(doc) => self.doc_emptied(&doc),
            Action::DocDeleted(doc) => self.doc_deleted(&doc, effects),
            Action::ContentReplaced(doc) => return self.content_replaced(&doc),
            Action::Marks(change) => self.change_marks(change),
            Action::RemoveObjects { doc, objs } => self.remove_objects(&doc, &objs),
            Action::ObjectData {
                doc,
                obj,
                data,
                version,
            } => self.object_data(&doc, &obj, data, version),
            Action::Written(doc) => return self.written(&doc),
            Action::ToPane(PaneCall(call)) => return self.call_pane(call),
            Action::OpenForm => return self.open_form(),
            Action::OpenBulkEdit(hidden) => return self.open_bulk_edit(hidden),
            Action::ShowSelectorResult(applied) => return self.show_selector_result(applied),
            Action::ApplySelector => return self.apply_selector(),
            Action::PreviewSelectorAgain => return self.preview_selector_again(),
            Action::Bulk(owner, call) => return self.bulk_call(owner, call),
            Action::Remember(saved) => {
                if let Some(job) = self.history.push(saved) {
                    effects.push(Effect::File(FileFor::History, job));
                }
            }
            Action::Record { doc, kind } => {
                self.writes.record(doc, kind);
            }
            Action::Undone(mark) => self.writes.mark(mark),
            Action::Undoing(write) => self.writes.confirm(write),
            Action::UndoVersion {
                doc,
                version,
                obj,
                kind,
            } => return self.undo_version(doc, version, obj, kind),
            Action::NoServerHistory { doc, obj } => return self.no_server_history(&doc, &obj),
            Action::ShowVersion(version) => return self.show_version(version),
            Action::AskRestore(version) => return self.ask_restore(version),
        }
        Vec::new()
    }

    /// Hands `call` to the pane whose calls have its type.
    fn call_pane(&mut self, call: Box<dyn Any>) -> Vec<Action> {
        let Some(pane) = self.panes.taker(&*call) else {
            tracing::error!("a call no pane takes was dropped");
            return Vec::new();
        };
        let unsaved = self.panes.unsaved_for(pane);
        let cx = cx!(self, unsaved.as_deref());
        self.panes.get_mut(pane).call_boxed(call, &cx)
    }

    /// Logs `sent` and hands it to the runner.
    fn send(&mut self, sent: Sent, effects: &mut Vec<Effect>) {
        tracing::debug!(id = sent.id, request = ?sent.request, "request");
        let (id, request) = self.requests.register(sent);
        effects.push(Effect::Request(id, request));
    }

    /// Shows `notification` in the status bar and keeps it in the log.
    fn notify(&mut self, notification: Notification) {
        if notification.level == Level::Error {
            tracing::warn!(message = %notification.text, "error shown");
        }
        self.requests.note(notification.clone());
        self.status.show(notification, self.tick);
    }

    /// Opens `overlay` on top, sized to the screen.
    fn open(&mut self, mut overlay: Overlay) {
        overlay.component_mut().set_area(self.size);
        self.overlays.push(overlay);
    }

    /// Closes the top overlay; the selector form and the bulk edit are kept aside.
    fn close(&mut self) {
        match self.overlays.pop().map(Overlay::take::<SelectorForm>) {
            Some(Ok(mut form)) => {
                // Closing the form ends its preview; the marks stay the user's.
                form.end_preview();
                self.kept_form = Some(form);
                if let Some(doc) = self.doc.as_mut() {
                    doc.end_preview();
                }
            }
            Some(Err(other)) => {
                if let Ok(bulk) = other.take::<BulkEdit>() {
                    self.kept_bulk = Some(bulk);
                }
            }
            None => {}
        }
    }

    /// Quits, asking first when the properties pane holds unsaved edits.
    fn ask_quit(&mut self) -> Vec<Action> {
        if !self.panes.props.is_dirty() {
            return vec![Action::Quit];
        }
        vec![Action::Ask(
            Ask::new(
                "Quit",
                Body::Text("Quit and lose the unsaved edits in the properties pane?".into()),
                vec![
                    Choice::new(Command::Yes, "quit", vec![Action::Quit]),
                    Choice::new(Command::No, "stay", Vec::new()),
                ],
            )
            .destructive(),
        )]
    }
}
