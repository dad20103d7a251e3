//! The documents pane's answers: the list and the folders read, a document's details, and each
//! write's answer (done or failed) said and followed up; and the calls App forwards to it.

use std::path::PathBuf;

use super::*;

impl TypedPane for DocsPane {
    const NAME: &'static str = "Docs";
    const COLUMN: Column = Column::Left;
    const CONTEXTS: &'static [Context] = &[Context::Documents];

    type Reply = DocsReply;
    type Call = DocsCall;

    /// The answer to one of its requests.
    fn on_reply(
        &mut self,
        reply: DocsReply,
        id: RequestId,
        request: Request,
        cx: &Cx,
    ) -> Vec<Action> {
        match reply {
            DocsReply::List(Ok(docs)) => self.listed(id, docs, cx),
            DocsReply::List(Err(failure)) => {
                let retry = cx.key(Context::Global, Command::Refresh);
                if self.list.fail(id, failure.message.clone()) {
                    self.rows.clear();
                    self.cursor.set_len(0);
                }
                vec![Action::error(format!(
                    "could not list documents: {} ({retry} retries)",
                    failure.message
                ))]
            }
            DocsReply::Folders(Ok(folders)) => {
                self.folders = Some(folders);
                self.rebuild(self.selected_key());
                Vec::new()
            }
            DocsReply::Folders(Err(failure)) => vec![Action::error(format!(
                "could not list folders: {}",
                failure.message
            ))],
            DocsReply::Details(Ok(details)) => {
                self.details.settle(id, details);
                Vec::new()
            }
            DocsReply::Details(Err(failure)) => {
                self.details.fail(id, failure.message);
                Vec::new()
            }
            DocsReply::Embeds(Ok(list)) => {
                self.embeds.settle(id, list);
                self.fit();
                Vec::new()
            }
            DocsReply::Embeds(Err(failure)) => {
                self.embeds.fail(id, failure.message);
                self.fit();
                Vec::new()
            }
            DocsReply::Move { doc, folder, moved } => self.moved(doc, folder, moved, cx),
            DocsReply::RenameFolder(folder, outcome) => {
                let to = match &request {
                    Request::RenameFolder { title, .. } => title.clone(),
                    _ => String::new(),
                };
                let change = FolderChange::Renamed { folder, to };
                self.folder_written((DocAction::RenameFolder, change), &request, outcome, cx)
            }
            DocsReply::DeleteFolder(folder, docs, outcome) => {
                let change = FolderChange::Deleted { folder, docs };
                self.folder_written((DocAction::DeleteFolder, change), &request, outcome, cx)
            }
            DocsReply::Action(what, Ok(created)) => self.action_done(what, &request, created, cx),
            DocsReply::Action(what, Err(failure)) => {
                self.action_failed(what, &request, &failure, cx)
            }
            DocsReply::Export {
                doc,
                path,
                content: Ok(model),
            } => Self::export_written(doc, path, &model),
            DocsReply::Export {
                doc,
                content: Err(failure),
                ..
            } => vec![Action::error(format!(
                "could not read \"{}\" to export it: {}",
                doc.title, failure.message
            ))],
            DocsReply::Backup(doc, Ok(previous)) => self.replaced_read(doc, id, previous, cx),
            DocsReply::Backup(doc, Err(failure)) => self.backup_failed(doc, id, failure),
            DocsReply::Replace(doc, made) => self.replaced(doc, id, &request, made, cx),
        }
    }

    /// A call App forwards: a prompt's text or a confirmed action.
    fn fresh() -> DocsPane {
        DocsPane {
            cursor: ListCursor::with_lead(1),
            ..DocsPane::default()
        }
    }

    fn call(&mut self, call: DocsCall, cx: &Cx) -> Vec<Action> {
        match call {
            DocsCall::Submit(purpose, text) => self.submit(purpose, text, cx),
            DocsCall::Empty(doc, previous) => {
                let replaced = doc.clone();
                let sent = cx.send(api::empty_doc(doc.id.clone()), move |made| {
                    Answered::pane(DocsReply::Replace(replaced, made))
                });
                self.replacing = Some(Replacing::Writing {
                    sent: sent.id,
                    previous,
                });
                vec![Action::DocEmptied(doc.id), Action::Send(sent)]
            }
            DocsCall::Delete(doc) => {
                // The selection moves to the deleted document's neighbour, as in a file manager.
                let next = match self.selected_doc() {
                    Some(selected) if selected.id == doc.id => self.neighbour(),
                    selected => selected.map(|d| d.id.clone()),
                };
                if let Some(list) = self.list.value_mut() {
                    list.retain(|d| d.id != doc.id);
                }
                self.marked.remove(&doc.id);
                self.rebuild(next.map(RowKey::Doc));
                let mut actions = vec![
                    Action::DocDeleted(doc.id.clone()),
                    Action::Send(cx.send(api::delete_doc(doc.id), |deleted| {
                        Answered::pane(DocsReply::Action(DocAction::Delete, deleted.map(|()| None)))
                    })),
                ];
                actions.extend(self.request_details(cx));
                actions
            }
            DocsCall::Import(doc, content) => {
                self.read_before_replacing(doc, Next::Import(content), cx)
            }
            DocsCall::Move(docs, folder) => self.send_moves(docs, folder, cx),
            DocsCall::DeleteFolder(folder, docs) => self.delete_folder(folder, docs, cx),
            DocsCall::Refresh => self.refresh(cx),
        }
    }
}

impl DocsPane {
    /// The documents listed: the marks kept on those still there, the details read again when
    /// the selection moved.
    fn listed(&mut self, id: RequestId, docs: Vec<DocSummary>, cx: &Cx) -> Vec<Action> {
        let before = self.selected_id();
        // The first list selects the first document, not a heading shown before it.
        let kept = self.list.value().and_then(|_| self.selected_key());
        if !self.list.settle(id, docs) {
            return Vec::new();
        }
        let keep = self.select_when_listed.take().map(RowKey::Doc).or(kept);
        let listed: HashSet<&str> = (self.list.value().into_iter().flatten())
            .map(|d| d.id.as_str())
            .collect();
        self.marked.retain(|id| listed.contains(id.as_str()));
        self.rebuild(keep);
        let details_shown = self
            .details
            .value()
            .is_some_and(|d| Some(&d.id) == before.as_ref());
        if self.selected_id() != before || !details_shown {
            self.request_details(cx)
        } else {
            Vec::new()
        }
    }

    /// The content of `doc` read to export: written to `path` (never over a file).
    fn export_written(doc: DocSummary, path: PathBuf, model: &ObjectModel) -> Vec<Action> {
        match serde_json::to_string_pretty(&model) {
            Ok(text) => vec![Action::File(
                FileFor::Export(doc),
                FileJob::Write {
                    path,
                    text,
                    overwrite: false,
                },
            )],
            Err(e) => vec![Action::error(format!("could not write the export: {e}"))],
        }
    }

    /// The content of `doc` could not be read to keep for undo: nothing is replaced.
    fn backup_failed(&mut self, doc: DocSummary, id: RequestId, failure: Failure) -> Vec<Action> {
        let what = match self.replacing.take() {
            Some(Replacing::Reading { read, next }) if read == id => match next {
                Next::Import(_) => "imported",
                Next::AskEmpty => "emptied",
            },
            other => {
                self.replacing = other;
                return Vec::new();
            }
        };
        vec![Action::error(format!(
            "could not read the content of \"{}\" to keep it for undo, so nothing was {what}: {}",
            doc.title, failure.message
        ))]
    }

    /// A document action succeeded: say so and check the list against the server.
    pub(super) fn action_done(
        &mut self,
        what: DocAction,
        request: &Request,
        created: Option<String>,
        cx: &Cx,
    ) -> Vec<Action> {
        let note = match (request, created) {
            (Request::CreateDoc { title, .. } | Request::CloneDoc { title, .. }, Some(id)) => {
                if let Some(list) = self.list.value_mut() {
                    list.push(DocSummary {
                        id: id.clone(),
                        title: title.clone(),
                    });
                }
                let folder = match request {
                    Request::CreateDoc { folder, .. } => folder.as_ref(),
                    _ => None,
                };
                if let Some(entry) = folder.and_then(|f| self.folders.as_mut()?.get_mut(f)) {
                    entry.docs.insert(id.clone(), title.clone());
                }
                self.rebuild(Some(RowKey::Doc(id)));
                format!("{}: \"{title}\" created", what.name())
            }
            (Request::CreateFolder { title }, Some(id)) => {
                let folder = FolderRef {
                    id: id.clone(),
                    title: title.clone(),
                };
                let note = self.folder_created(id, title);
                let mut actions = vec![
                    Action::Record {
                        doc: FOLDERS.to_owned(),
                        kind: WriteKind::Folder {
                            change: FolderChange::Created(folder),
                            undone: false,
                        },
                    },
                    Action::info(note),
                ];
                actions.extend(self.refresh(cx));
                return actions;
            }
            (Request::RenameFolder { title, .. }, _) => format!("folder renamed to \"{title}\""),
            (Request::DeleteFolder { .. }, _) => "folder deleted with its documents".into(),
            (Request::ShareDoc { email, .. }, _) => format!("shared with {email}"),
            (Request::RenameDoc { title, .. }, _) => format!("renamed to \"{title}\""),
            (Request::DeleteDoc { .. }, _) => "document deleted".into(),
            _ => format!("{}: done", what.name()),
        };
        let mut actions = vec![Action::info(note)];
        actions.extend(self.refresh(cx));
        actions
    }

    /// A document action failed: say why plainly and restore the list from the server.
    pub(super) fn action_failed(
        &mut self,
        what: DocAction,
        request: &Request,
        failure: &Failure,
        cx: &Cx,
    ) -> Vec<Action> {
        let message = match (request, &failure.code) {
            (Request::ShareDoc { email, .. }, Some(ErrorCode::UserNotFound)) => {
                format!(
                    "no account has the e-mail {email}; the document was not shared ({})",
                    failure.code_text()
                )
            }
            _ => format!("{} failed: {}", what.name(), failure.message),
        };
        let mut actions = vec![Action::error(message)];
        actions.extend(self.load(cx));
        actions
    }
}
