//! The properties pane's answers: a save's (done, refused by a newer version, in conflict), the
//! object read again, an undo's; and the calls App forwards to it.

use super::*;

impl TypedPane for PropsPane {
    const NAME: &'static str = "Props";
    const COLUMN: Column = Column::Right;
    const CONTEXTS: &'static [Context] = &[Context::Properties, Context::Edit];

    type Reply = PropsReply;
    type Call = PropsCall;

    /// The answer to one of its requests.
    fn on_reply(
        &mut self,
        reply: PropsReply,
        id: RequestId,
        request: Request,
        cx: &Cx,
    ) -> Vec<Action> {
        match reply {
            PropsReply::Check(Ok(read)) => {
                let diff = match &self.save {
                    Save::Checking { id: awaited, diff }
                        if *awaited == id && self.holds_request(&request) =>
                    {
                        diff.clone()
                    }
                    _ => return Vec::new(),
                };
                if read.object.data == self.original {
                    return self.send_save(diff, None, cx);
                }
                self.conflict(diff, read)
            }
            PropsReply::Save(Err(Failure {
                stale: Some(stale), ..
            })) if matches!(&self.save, Save::Sending { id: awaited, .. } if *awaited == id)
                && self.holds_request(&request) =>
            {
                self.refused(*stale, cx)
            }
            PropsReply::Check(Err(failure)) | PropsReply::Save(Err(failure)) => {
                self.save = Save::Idle;
                vec![Action::error(format!(
                    "save failed, your edit is kept: {}",
                    failure.message
                ))]
            }
            PropsReply::Save(Ok(version)) => self.saved(request, version, cx),
            PropsReply::Reread(Ok(read)) => self.reread(request, read),
            PropsReply::Reread(Err(failure)) => vec![Action::error(format!(
                "could not re-read the object: {}",
                failure.message
            ))],
            PropsReply::Recreate(Ok(id)) => {
                self.close();
                vec![
                    Action::ReloadAfterWrite,
                    Action::info(format!("created it again from your edit, as {id}")),
                ]
            }
            PropsReply::Recreate(Err(failure)) => vec![Action::error(format!(
                "could not create it again, your edit is kept: {}",
                failure.message
            ))],
        }
    }

    /// A call App forwards (a question's answer).
    fn call(&mut self, call: PropsCall, cx: &Cx) -> Vec<Action> {
        match call {
            PropsCall::ConfirmSave(diff) => {
                let Some(target) = self.target.clone() else {
                    return Vec::new();
                };
                if self.version.is_some() {
                    return self.send_save(diff, self.version, cx);
                }
                let sent = cx.send(api::get_object(target.doc, target.obj), |read| {
                    Answered::pane(PropsReply::Check(read))
                });
                self.save = Save::Checking { id: sent.id, diff };
                let mut actions = vec![Action::Send(sent)];
                if !std::mem::replace(&mut self.told_not_atomic, true) {
                    actions.push(Action::Notify(Notification::warning(
                        "this server gives no versions: a save re-reads the object, then \
                         writes, and a change made between the two is overwritten",
                    )));
                }
                actions
            }
            PropsCall::Overwrite => match std::mem::take(&mut self.save) {
                Save::Conflict { diff, version } => self.send_save(diff, version, cx),
                other => {
                    self.save = other;
                    Vec::new()
                }
            },
            PropsCall::Reload(read) => {
                self.save = Save::Idle;
                let Some(target) = self.target.clone() else {
                    return Vec::new();
                };
                self.show(&target.doc, &target.obj, &read.object, read.version);
                vec![
                    Action::ObjectData {
                        doc: target.doc,
                        obj: target.obj,
                        data: read.object.data,
                        version: read.version,
                    },
                    Action::info("reloaded the object from the server; your edit was dropped"),
                ]
            }
            PropsCall::CancelSave => {
                self.save = Save::Idle;
                Vec::new()
            }
        }
    }
}

impl PropsPane {
    /// A save went through (`version`: the object's new version, if the server gives one):
    /// recorded for undo, the pane's original moved on, read again unless the version says.
    fn saved(&mut self, request: Request, version: Option<u64>, cx: &Cx) -> Vec<Action> {
        let Request::UpdateObject {
            doc,
            obj,
            props,
            if_match,
        } = request
        else {
            return Vec::new();
        };
        let diff = match std::mem::take(&mut self.save) {
            Save::Sending { diff, .. } => diff,
            _ => Diff::default(),
        };
        let mut actions = vec![Action::Record {
            doc: doc.clone(),
            kind: WriteKind::Update {
                source: Source::Save,
                objects: vec![ObjectWrite::from_diff(&obj, &diff)],
            },
        }];
        // An overwrite names the newer version another client made, not the one the edit
        // started from: the object holds their change as well as this edit, which the pane
        // never showed, so it is read again rather than taken as the edit merged.
        let overwrote = if_match.is_some() && if_match != self.version;
        if self.holds(&doc, &obj) {
            let mut data = self.original.clone();
            merge(&mut data, &props);
            self.original_text = pretty(&data);
            self.original = data.clone();
            self.version = version;
            self.server.saved(&self.original);
            // The buffer now matches what was saved unless it was typed into meanwhile.
            if check(&self.text()).1.as_ref() == Some(&self.original) {
                let cursor = self.buffer.cursor();
                self.set_text(&self.original_text.clone());
                self.buffer
                    .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
            }
            if !overwrote {
                actions.push(Action::ObjectData {
                    doc: doc.clone(),
                    obj: obj.clone(),
                    data,
                    version,
                });
            }
        }
        actions.push(Action::info(format!(
            "saved {} ({} undoes)",
            words::count(props.len(), "property", "properties"),
            cx.key(Context::Properties, Command::Undo)
        )));
        // A conditional write went through on the very version the edit started
        // from: the object is what was merged here, nothing to read again.
        if if_match.is_none() || version.is_none() || overwrote {
            actions.push(Action::Send(cx.send(api::get_object(doc, obj), |read| {
                Answered::pane(PropsReply::Reread(read))
            })));
        }
        actions
    }

    /// The object read again after a save: shown unless the pane holds edits.
    fn reread(&mut self, request: Request, read: Versioned) -> Vec<Action> {
        let Request::GetObject { doc, obj } = request else {
            return Vec::new();
        };
        if self.holds(&doc, &obj) && !self.is_dirty() {
            let cursor = self.buffer.cursor();
            let mode = self.mode;
            let save = std::mem::take(&mut self.save);
            self.show(&doc, &obj, &read.object, read.version);
            self.buffer
                .move_cursor(CursorMove::Jump(cursor.0 as u16, cursor.1 as u16));
            self.mode = mode;
            self.save = save;
            self.fit();
        }
        vec![Action::ObjectData {
            doc,
            obj,
            data: read.object.data,
            version: read.version,
        }]
    }

    /// The object changed on the server since the edit started (`now`): the question of what
    /// to do with the edit (`diff`).
    pub(super) fn conflict(&mut self, diff: Diff, now: Versioned) -> Vec<Action> {
        self.save = Save::Conflict {
            diff,
            version: now.version,
        };
        vec![Action::Ask(
            Ask::new(
                "Changed on the server",
                Body::Text("This object changed on the server since you opened it.".into()),
                vec![
                    Choice::new(
                        Command::Overwrite,
                        "overwrite with your edit",
                        vec![Action::to_pane(PropsCall::Overwrite)],
                    ),
                    Choice::new(
                        Command::Reload,
                        "reload it and lose your edit",
                        vec![Action::to_pane(PropsCall::Reload(now))],
                    ),
                    Choice::new(
                        Command::Cancel,
                        "cancel the save, keep editing",
                        vec![
                            Action::to_pane(PropsCall::CancelSave),
                            Action::info("save cancelled; the edit is kept"),
                        ],
                    ),
                ],
            )
            .in_context(Context::Conflict)
            .destructive(),
        )]
    }

    /// The server refused the save (412): the object is not at the version the edit started
    /// from. Its answer holds the object now: the conflict question, or, when it was deleted,
    /// the banner that offers to create it again. Nothing was written.
    pub(super) fn refused(&mut self, stale: Stale, cx: &Cx) -> Vec<Action> {
        let Save::Sending { diff, .. } = std::mem::take(&mut self.save) else {
            return Vec::new();
        };
        let Some(target) = self.target.clone() else {
            return Vec::new();
        };
        let now = stale
            .objects
            .into_iter()
            .find(|(id, _)| *id == target.obj)
            .and_then(|(_, now)| now);
        match now {
            Some(now) => self.conflict(diff, now),
            None => {
                self.server.compare(&self.original, None);
                vec![Action::error(format!(
                    "not saved: the object was deleted on the server; your edit is kept ({} \
                     creates it again from your edit)",
                    cx.key(Context::Properties, Command::Recreate)
                ))]
            }
        }
    }
}
