//! The object tree's answers: a delete's (one object or the marked ones), a create's; and the
//! calls App forwards to it.

use super::*;

impl TypedPane for ObjectsPane {
    const NAME: &'static str = "Objects";
    const COLUMN: Column = Column::Middle;
    const CONTEXTS: &'static [Context] = &[Context::Objects];

    type Reply = ObjectsReply;
    type Call = ObjectsCall;

    /// The answer to one of its requests.
    fn on_reply(
        &mut self,
        reply: ObjectsReply,
        id: RequestId,
        request: Request,
        cx: &Cx,
    ) -> Vec<Action> {
        match reply {
            ObjectsReply::Create(Ok(obj)) => {
                let Request::CreateObject { doc, kind, props } = request else {
                    return Vec::new();
                };
                let object = DiagramObject { kind, data: props };
                let name = cx.names().of_object(&obj, &object).described();
                let mut actions = vec![Action::info(format!("created {name}"))];
                if cx.doc_id() == Some(doc.as_str()) {
                    let shown = cx.doc.and_then(|d| d.model()?.index_of(&obj)).is_some();
                    self.select_after_load = Some(obj);
                    if shown {
                        // Its change event came first and put it in already.
                        self.sync(cx);
                    }
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            ObjectsReply::Create(Err(failure)) => vec![Action::error(format!(
                "could not create the object: {}",
                failure.message
            ))],
            ObjectsReply::Delete(Ok(())) => {
                let mut actions = Vec::new();
                if let Request::DeleteObject { doc, obj, .. } = request {
                    let removed = self.removing.remove(&id);
                    let name = match &removed {
                        Some(r) => cx.names().of_object(&r.obj, &r.object).described(),
                        None => obj,
                    };
                    actions.extend(removed.map(|r| Action::Record {
                        doc,
                        kind: WriteKind::Delete(vec![r]),
                    }));
                    actions.push(Action::info(format!(
                        "deleted {name} ({} undoes)",
                        cx.key(Context::Objects, Command::History)
                    )));
                }
                actions.push(Action::ReloadAfterWrite);
                actions
            }
            ObjectsReply::Delete(Err(failure)) => {
                self.removing.remove(&id);
                let message = match failure.stale {
                    Some(_) => "deleted nothing: the object changed since it was read (another \
                                client wrote it); the document is read again, look and delete \
                                again"
                        .to_owned(),
                    None => format!("could not delete the object: {}", failure.message),
                };
                vec![Action::error(message), Action::ReloadContent]
            }
            ObjectsReply::DeleteMarked(outcome) => {
                let Request::DeleteObject { doc, obj, .. } = request else {
                    return Vec::new();
                };
                let failed = outcome.err().map(|failure| (obj, failure.message));
                self.marked_deleted(id, &doc, failed, cx)
            }
        }
    }

    /// A call App forwards.
    fn call(&mut self, call: ObjectsCall, cx: &Cx) -> Vec<Action> {
        match call {
            ObjectsCall::SelectRow(row) => match cx.doc.and_then(|d| d.model()) {
                Some(model) => self.select_row(row, model),
                None => Vec::new(),
            },
            ObjectsCall::Create(kind, props) => self.create(kind, props, cx),
            ObjectsCall::Delete { doc, obj } => {
                let call = api::delete_object(doc.clone(), obj.clone(), server_version(cx, &obj));
                let sent = cx.send(call, |deleted| {
                    Answered::pane(ObjectsReply::Delete(deleted))
                });
                self.keep_removed(std::slice::from_ref(&obj), &[sent.id], cx);
                vec![
                    Action::RemoveObjects {
                        doc,
                        objs: vec![obj],
                    },
                    Action::Send(sent),
                ]
            }
            ObjectsCall::DeleteMarked { doc, objs } => {
                let sends: Vec<_> = objs
                    .iter()
                    .map(|obj| {
                        let call =
                            api::delete_object(doc.clone(), obj.clone(), server_version(cx, obj));
                        cx.send(call, |deleted| {
                            Answered::pane(ObjectsReply::DeleteMarked(deleted))
                        })
                    })
                    .collect();
                let ids: Vec<RequestId> = sends.iter().map(|s| s.id).collect();
                self.keep_removed(&objs, &ids, cx);
                self.bulk_delete = BulkDelete::Running {
                    waiting: ids.into_iter().collect(),
                    deleted: 0,
                    gone: Vec::new(),
                    failed: Vec::new(),
                };
                let mut actions = vec![
                    Action::RemoveObjects { doc, objs },
                    Action::Marks(MarksChange::Clear),
                ];
                actions.extend(sends.into_iter().map(Action::Send));
                actions
            }
            ObjectsCall::Jump(obj) => self.jump(&obj, cx),
        }
    }
}

impl ObjectsPane {
    /// One delete of the marked objects answered; the last one reports and reloads.
    pub(super) fn marked_deleted(
        &mut self,
        id: RequestId,
        doc: &str,
        failure: Option<(String, String)>,
        cx: &Cx,
    ) -> Vec<Action> {
        let removed = self.removing.remove(&id);
        let BulkDelete::Running {
            waiting,
            deleted,
            gone,
            failed,
        } = &mut self.bulk_delete
        else {
            return Vec::new();
        };
        if !waiting.remove(&id) {
            return Vec::new();
        }
        match failure {
            Some(failure) => failed.push(failure),
            None => {
                *deleted += 1;
                gone.extend(removed);
            }
        }
        if !waiting.is_empty() {
            return Vec::new();
        }
        let undo = cx.key(Context::Objects, Command::History);
        let report = match failed.first() {
            None => Action::info(format!(
                "deleted {} ({undo} undoes)",
                words::objects(*deleted)
            )),
            Some((obj, why)) => Action::error(format!(
                "deleted {deleted}, {} failed (first: {}: {why})",
                failed.len(),
                cx.name_of(obj)
            )),
        };
        let mut actions = Vec::new();
        if !gone.is_empty() {
            actions.push(Action::Record {
                doc: doc.to_string(),
                kind: WriteKind::Delete(std::mem::take(gone)),
            });
        }
        self.bulk_delete = BulkDelete::Idle;
        actions.extend([report, Action::ReloadAfterWrite]);
        actions
    }
}
