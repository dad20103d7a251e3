//! Replacing a document's content (an import, an empty): its content is read first, kept so the
//! write can be undone, then replaced; an import file's report, asked about before.

use super::*;

impl DocsPane {
    /// Reads the content of `doc` that a write will replace whole (kept to undo it), to do
    /// `next` once it is read.
    pub(super) fn read_before_replacing(
        &mut self,
        doc: DocSummary,
        next: Next,
        cx: &Cx,
    ) -> Vec<Action> {
        let call = api::content(doc.id.clone());
        let sent = cx.send(call, move |read| {
            Answered::pane(DocsReply::Backup(doc, read))
        });
        self.replacing = Some(Replacing::Reading {
            read: sent.id,
            next,
        });
        vec![Action::Send(sent)]
    }

    /// The content a write will replace was read: the import is sent, the empty asked (with
    /// how many objects go).
    pub(super) fn replaced_read(
        &mut self,
        doc: DocSummary,
        id: RequestId,
        previous: Box<ObjectModel>,
        cx: &Cx,
    ) -> Vec<Action> {
        let next = match self.replacing.take() {
            Some(Replacing::Reading { read, next }) if read == id => next,
            other => {
                self.replacing = other;
                return Vec::new();
            }
        };
        match next {
            Next::Import(content) => {
                let call = api::set_content(doc.id.clone(), content, None);
                let sent = cx.send(call, move |made| {
                    Answered::pane(DocsReply::Replace(doc, made))
                });
                self.replacing = Some(Replacing::Writing {
                    sent: sent.id,
                    previous,
                });
                vec![Action::Send(sent)]
            }
            Next::AskEmpty if previous.is_empty() => vec![Action::info(format!(
                "\"{}\" has no objects: nothing to empty",
                doc.title
            ))],
            Next::AskEmpty => {
                let kinds: Vec<String> = previous
                    .groups()
                    .iter()
                    .map(|g| format!("{} {}", g.kind, g.members.len()))
                    .collect();
                let text = format!(
                    "Remove all {} from \"{}\" ({})? The document itself stays; its content is kept for {} in its objects to undo.",
                    words::objects(previous.len()),
                    doc.title,
                    kinds.join(" · "),
                    cx.key(Context::Objects, Command::History)
                );
                vec![Action::Ask(
                    Ask::new(
                        "Empty document",
                        Body::Text(text),
                        vec![
                            Choice::new(
                                Command::Yes,
                                &format!("remove the {}", words::objects(previous.len())),
                                vec![Action::to_pane(DocsCall::Empty(doc, previous))],
                            ),
                            Choice::new(Command::No, "keep them", Vec::new()),
                        ],
                    )
                    .destructive(),
                )]
            }
        }
    }

    /// The import or the empty answered: kept in the write history when it went through.
    pub(super) fn replaced(
        &mut self,
        doc: DocSummary,
        id: RequestId,
        request: &Request,
        outcome: Outcome<Option<u64>>,
        cx: &Cx,
    ) -> Vec<Action> {
        let previous = match self.replacing.take() {
            Some(Replacing::Writing { sent, previous }) if sent == id => Some(previous),
            other => {
                self.replacing = other;
                None
            }
        };
        let by = match request {
            Request::SetContent { content, .. } => Replacement::Import(content.len()),
            _ => Replacement::Empty,
        };
        let (failure, made) = match outcome {
            Ok(made) => (None, made),
            Err(failure) => (Some(failure.message), None),
        };
        let mut actions = Vec::new();
        match (by, failure) {
            (by, None) => {
                let gone = previous.as_ref().map_or(0, |p| p.len());
                actions.extend(previous.map(|previous| Action::Record {
                    doc: doc.id.clone(),
                    kind: WriteKind::Replace {
                        by,
                        previous,
                        made,
                        undone: false,
                    },
                }));
                let undo = cx.key(Context::Objects, Command::History);
                match by {
                    Replacement::Import(n) => {
                        self.set_count(&doc.id, n);
                        actions.push(Action::info(format!(
                            "imported {} into \"{}\" ({undo} in its objects undoes)",
                            words::objects(n),
                            doc.title,
                        )));
                        actions.extend(self.request_details(cx));
                        actions.push(Action::ContentReplaced(doc.id));
                    }
                    Replacement::Empty => {
                        self.set_count(&doc.id, 0);
                        actions.push(Action::info(format!(
                            "emptied \"{}\": {} removed ({undo} in its objects undoes)",
                            doc.title,
                            words::objects(gone),
                        )));
                        actions.extend(self.refresh(cx));
                    }
                }
            }
            (Replacement::Import(_), Some(why)) => actions.push(Action::error(format!(
                "import into \"{}\" failed; its content is as it was: {why}",
                doc.title
            ))),
            (Replacement::Empty, Some(why)) => {
                actions.push(Action::error(format!(
                    "empty of \"{}\" failed: {why}",
                    doc.title
                )));
                actions.extend(self.load(cx));
                actions.push(Action::ReloadContent);
            }
        }
        actions
    }

    /// A file job of an export or an import finished.
    pub fn on_file(&mut self, what: FileFor, job: FileJob, outcome: FileOutcome) -> Vec<Action> {
        let path = job.path().display().to_string();
        match (what, outcome) {
            (FileFor::Export(doc), Ok(_)) => vec![Action::info(format!(
                "exported \"{}\" to {path}",
                doc.title
            ))],
            (FileFor::Export(doc), Err(FileError::Exists)) => {
                let FileJob::Write { path, text, .. } = job else {
                    return Vec::new();
                };
                let replace = FileJob::Write {
                    path,
                    text,
                    overwrite: true,
                };
                let title = doc.title.clone();
                vec![Action::Ask(
                    Ask::new(
                        "File exists",
                        Body::Text(format!(
                            "{} already exists. Replace it with the export of \"{title}\"?",
                            replace.path().display()
                        )),
                        vec![
                            Choice::new(
                                Command::Yes,
                                "replace it",
                                vec![Action::File(FileFor::Export(doc), replace)],
                            ),
                            Choice::new(
                                Command::No,
                                "keep it",
                                vec![Action::info("export cancelled; the file is as it was")],
                            ),
                        ],
                    )
                    .destructive(),
                )]
            }
            (FileFor::Import(doc), Ok(text)) => import_report(doc, &job, &text),
            (FileFor::Export(_) | FileFor::Import(_), Err(e)) => {
                let why = match e {
                    FileError::Exists => "it exists".to_string(),
                    FileError::Failed(why) => why,
                };
                vec![Action::error(format!("{path}: {why}"))]
            }
            (FileFor::History | FileFor::Diagram { .. } | FileFor::Complete(_), _) => Vec::new(),
        }
    }
}

/// The import file was read: the report of what it holds, which is also the confirmation (and
/// an error at once when the file is refused).
pub(super) fn import_report(doc: DocSummary, job: &FileJob, text: &str) -> Vec<Action> {
    let report: Result<ContentReport, String> = match serde_json::from_str(text) {
        Ok(value) => check_content(&value),
        Err(e) => Err(format!("not JSON: {e}")),
    };
    let path = job.path().to_path_buf();
    let content: Option<Content> = report.as_ref().ok().and_then(|r| r.content.clone());
    let mut actions: Vec<Action> = report
        .as_ref()
        .err()
        .map(|why| Action::error(format!("{} refused: {why}", path.display())))
        .into_iter()
        .collect();
    let cancel = vec![Action::info("import cancelled; nothing was changed")];
    let choices = match content {
        Some(content) => vec![
            Choice::new(
                Command::Yes,
                &format!(
                    "replace the content of \"{}\" with these {}",
                    doc.title,
                    words::objects(content.len())
                ),
                vec![Action::to_pane(DocsCall::Import(doc.clone(), content))],
            ),
            Choice::new(Command::No, "cancel; nothing is changed", cancel),
        ],
        None => vec![Choice::new(
            Command::No,
            "close; nothing is changed",
            cancel,
        )],
    };
    let question = Ask::new("Import", Body::Import { doc, path, report }, choices).destructive();
    actions.push(Action::Ask(question));
    actions
}
