//! The selector form's answers: the preview's matches, the apply's (done, or refused because the
//! matches changed since the preview), a bulk change's.

use super::*;

impl SelectorForm {
    /// The answer to the nested merge's re-read or bulk update.
    pub fn on_bulk_reply(&mut self, reply: BulkReply, id: RequestId, cx: &Cx) -> Vec<Action> {
        match self.merge.on_reply(reply, id, cx) {
            Settled::Pending(actions) => actions,
            Settled::Done(plan) => {
                let selector = self
                    .merging
                    .take()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                let n = plan.changes.len();
                let mut actions = vec![
                    Action::Record {
                        doc: plan.doc.clone(),
                        kind: plan.write(Source::Selector(selector)),
                    },
                    Action::info(format!("merged into {}", words::objects(n))),
                    Action::Remember(self.saved()),
                ];
                if cx.doc_id() == Some(plan.doc.as_str()) {
                    let updated = SelectorUpdated {
                        success: true,
                        updated_object_count: n,
                        updated_object_ids: plan.ids(),
                    };
                    actions.push(Action::ShowSelectorResult(Applied {
                        updated,
                        expected: None,
                    }));
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            Settled::Failed(message) => {
                self.error = Some(format!("apply failed: {message}"));
                vec![Action::error(format!(
                    "apply failed, the form is kept: {message}"
                ))]
            }
        }
    }

    /// The answer to one of its requests; `shown` when the form is on top of the screen.
    pub fn on_reply(
        &mut self,
        reply: FormReply,
        id: RequestId,
        request: Request,
        cx: &Cx,
        shown: bool,
    ) -> Vec<Action> {
        // Answers for a document the user has left change nothing but the form's state.
        let open = cx.doc_id() == Some(self.doc.as_str());
        match reply {
            FormReply::Preview {
                then_apply,
                read: Ok((content, versions)),
            } => {
                let Request::ObjectsWhere { selector, .. } = request else {
                    return Vec::new();
                };
                if !open {
                    self.preview = Load::Idle;
                    return Vec::new();
                }
                let ids: Vec<String> = content.keys().cloned().collect();
                let n = ids.len();
                if !self
                    .preview
                    .settle_dropping_elsewhere(id, preview(selector, content, versions))
                {
                    return Vec::new();
                }
                let mut actions = vec![
                    Action::Marks(MarksChange::Preview(ids)),
                    Action::info(format!(
                        "{} (◇ in the tree; {} marks them)",
                        words::objects_match(n),
                        cx.key(Context::Form, Command::MarkMatches)
                    )),
                    Action::Remember(self.saved()),
                ];
                if then_apply && shown && self.preview_is_current() {
                    actions.push(self.ask_apply(cx));
                }
                actions
            }
            FormReply::Apply {
                expected,
                updated: Ok(updated),
            } => {
                if !self.apply.settle(id, ()) {
                    return Vec::new();
                }
                let written = self.written(&request, &updated.updated_object_ids);
                let applied = Applied { updated, expected };
                let n = applied.updated.updated_object_count;
                let mut actions: Vec<Action> = written.into_iter().collect();
                actions.extend([
                    match applied.mismatch() {
                        Some(mismatch) => Action::error(format!("updated {n}; {mismatch}")),
                        None => Action::info(format!("updated {}", words::objects(n))),
                    },
                    Action::Remember(self.saved()),
                ]);
                // The write is done either way; its result list and reload belong only to the
                // document it changed, and only while that one is open.
                if open {
                    actions.push(Action::ShowSelectorResult(applied));
                    actions.push(Action::ReloadAfterWrite);
                }
                actions
            }
            FormReply::Apply {
                updated:
                    Err(Failure {
                        stale: Some(stale),
                        message,
                        ..
                    }),
                ..
            } => {
                if !self.apply.fail(id, message) {
                    return Vec::new();
                }
                self.error = Some("apply refused: the matches changed since the preview".into());
                vec![changed_since_preview(&stale, cx)]
            }
            FormReply::Preview {
                read: Err(failure), ..
            } => {
                self.preview.fail(id, failure.message.clone());
                self.failed("preview", &failure)
            }
            FormReply::Apply {
                updated: Err(failure),
                ..
            } => {
                self.apply.fail(id, failure.message.clone());
                self.failed("apply", &failure)
            }
        }
    }

    /// The preview or the apply (`what`) failed: said in the form and the status bar.
    fn failed(&mut self, what: &str, failure: &Failure) -> Vec<Action> {
        self.error = Some(format!("{what} failed: {}", failure.message));
        vec![Action::error(format!(
            "{what} failed, the form is kept: {}",
            failure.message
        ))]
    }

    /// The write history's record of an apply that updated `updated`: each updated object the
    /// preview had, with the values the update replaced.
    pub(super) fn written(&self, request: &Request, updated: &[String]) -> Option<Action> {
        let Request::UpdateWhere {
            doc,
            selector,
            props,
            ..
        } = request
        else {
            return None;
        };
        let preview = self.preview.value().filter(|p| &p.selector == selector)?;
        let updated: HashSet<&str> = updated.iter().map(String::as_str).collect();
        let objects: Vec<ObjectWrite> = preview
            .matches
            .iter()
            .filter(|(id, _)| updated.contains(id.as_str()))
            .map(|(id, object)| ObjectWrite::from_diff(id, &Diff::of_merge(&object.data, props)))
            .filter(|part| !part.before.is_empty())
            .collect();
        (!objects.is_empty()).then(|| Action::Record {
            doc: doc.clone(),
            kind: WriteKind::Update {
                source: Source::Selector(selector.to_string()),
                objects,
            },
        })
    }
}

/// The question when an apply was refused because the matches changed since the preview
/// (`stale`): which ones, and how; it offers to preview again.
pub(super) fn changed_since_preview(stale: &Stale, cx: &Cx) -> Action {
    let names = cx.names();
    let ids = stale.ids();
    let rows = ids
        .iter()
        .take(PREVIEW_ROWS)
        .map(|id| {
            let how = if stale.now_match.contains(id) {
                "matches now"
            } else if stale.no_longer_match.contains(id) {
                "no longer matches"
            } else if stale
                .objects
                .iter()
                .any(|(o, now)| o == id && now.is_none())
            {
                "deleted"
            } else {
                "changed"
            };
            format!("{}: {how}", names.of(id).words())
        })
        .collect();
    Action::Ask(
        Ask::new(
            "Changed since the preview",
            Body::Listed {
                text: format!(
                    "Nothing was written: {} changed on the server since the preview.",
                    words::count(ids.len(), "object", "objects")
                ),
                rows,
                more: ids.len().saturating_sub(PREVIEW_ROWS),
                after: None,
            },
            vec![
                Choice::new(
                    Command::Reload,
                    "preview again (then asks to apply)",
                    vec![Action::PreviewSelectorAgain],
                ),
                Choice::new(Command::Cancel, "back to the form", Vec::new()),
            ],
        )
        .in_context(Context::Conflict),
    )
}

pub(super) fn preview(selector: Selector, content: Content, versions: ObjectVersions) -> Preview {
    let versioned = !content.is_empty() && content.keys().all(|id| versions.contains_key(id));
    Preview {
        selector,
        matches: content.into_iter().collect(),
        versions: versioned.then_some(versions),
    }
}
