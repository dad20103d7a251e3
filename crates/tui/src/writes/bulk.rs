//! A bulk change that gives each object its own values: the selector form's nested merge and
//! the bulk edit. The plan is worked out from the objects as read (each one's values merged
//! or replaced as `nested: merge | replace` says, checked by the model's property rules) and
//! shown as a diff by path; the yes sends one bulk update with each object's changed
//! properties. Where the server gives versions (ours), it sends the versions the plan was
//! worked out from (`ifVersions`), and the server writes nothing if any changed since: its
//! 412 holds their state now, so the question that follows needs no read. Against a server
//! without versions, when the values sent depend on what was read (a nested merge), the yes
//! first reads the objects again, as a save does. Either way, if any changed meanwhile, a
//! question offers to send anyway, to see the change against their values now (preview again),
//! or to cancel.

use std::borrow::Borrow;
use std::sync::Arc;

use crate::document::{ObjectVersions, RequestId};
use crate::keys::{Command, Context};
use crate::requests::api::{self, Call};
use crate::requests::call::{Failure, Stale};
use crate::requests::purpose::{Answered, BulkOwner, BulkReply};
use crate::session::record::{ObjectWrite, Source, WriteKind};
use crate::text::json::{BulkChange, Diff};
use crate::text::words;
use crate::vocab::action::{Action, Ask, Choice, Cx};
use crate::vocab::calls::{Body, BulkCall};
use diagtui_model::merge::{Nested, refusal, update_for};
use diagtui_model::{Content, Props};

/// What a bulk change sends to which objects.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The document.
    pub doc: String,
    /// The properties as given.
    pub props: Props,
    /// How a nested value is given.
    pub nested: Nested,
    /// Each object it changes and how, in id order.
    pub changes: Arc<[BulkChange]>,
    /// The versions on the server of the objects it changes, as they were read: sent as
    /// `ifVersions`, so that nothing is written if one changed since. `None` when the server
    /// gave none (or the plan is sent whatever changed).
    pub versions: Option<ObjectVersions>,
}

impl Plan {
    /// The plan of giving `props` (as `nested` says) to `objects`: (id, type, data), where the
    /// data needs to hold only the properties `props` names. Refused, naming the first
    /// objects, when a value it would send breaks a property rule.
    pub fn new<'a, D: Borrow<Props>>(
        doc: &str,
        props: &Props,
        nested: Nested,
        objects: impl IntoIterator<Item = (&'a str, &'a str, D)>,
    ) -> Result<Plan, String> {
        let mut changes = Vec::new();
        let mut refused = Vec::new();
        for (obj, kind, data) in objects {
            let data = data.borrow();
            match update_for(kind, data, props, nested) {
                Ok(sent) if sent.is_empty() => {}
                Ok(sent) => changes.push(BulkChange {
                    obj: obj.to_string(),
                    diff: Diff::of_merge(data, &sent),
                }),
                Err(problem) => refused.push(format!("{obj}: {problem}")),
            }
        }
        if !refused.is_empty() {
            return Err(refusal(nested, &refused));
        }
        Ok(Plan {
            doc: doc.to_string(),
            props: props.clone(),
            nested,
            changes: changes.into(),
            versions: None,
        })
    }

    /// The plan sending the versions `read` gives its objects (when it gives each one a
    /// version: else it stays unconditional).
    pub fn with_versions(mut self, read: &ObjectVersions) -> Plan {
        self.versions = (self.changes.iter())
            .map(|c| Some((c.obj.clone(), *read.get(&c.obj)?)))
            .collect();
        self
    }

    /// The same change worked out again where a conditional write found objects changed
    /// (`stale`: their state now), the others as they were: what would be sent now, at their
    /// versions now.
    pub fn refreshed(&self, stale: &Stale) -> Result<Plan, String> {
        let now = stale.objects.iter().filter_map(|(obj, now)| {
            let now = now.as_ref()?;
            Some((obj.as_str(), now.object.kind.as_str(), &now.object.data))
        });
        let changed_now = Plan::new(&self.doc, &self.props, self.nested, now)?;
        let is_stale = |obj: &str| stale.objects.iter().any(|(id, _)| id == obj);
        let mut changes: Vec<BulkChange> = (self.changes.iter())
            .filter(|c| !is_stale(&c.obj))
            .chain(changed_now.changes.iter())
            .cloned()
            .collect();
        changes.sort_by(|a, b| a.obj.cmp(&b.obj));
        let mut versions = self.versions.clone().unwrap_or_default();
        for (obj, now) in &stale.objects {
            if let Some(version) = now.as_ref().and_then(|now| now.version) {
                versions.insert(obj.clone(), version);
            }
        }
        Ok(Plan {
            changes: changes.into(),
            ..self.clone()
        }
        .with_versions(&versions))
    }

    /// The plan sent whatever changed since it was worked out (no versions named).
    fn unconditional(self) -> Plan {
        Plan {
            versions: None,
            ..self
        }
    }

    /// The same change worked out again on `content` (the objects as read now).
    pub fn again(&self, content: &Content) -> Result<Plan, String> {
        let objects = content
            .iter()
            .map(|(obj, object)| (obj.as_str(), object.kind.as_str(), &object.data));
        Plan::new(&self.doc, &self.props, self.nested, objects)
    }

    /// Whether the objects are read again before it is sent: its values depend on what was
    /// read (a nested merge of an object value), so that a change meanwhile matters, and it
    /// names no versions for the server to check.
    pub fn reads_first(&self) -> bool {
        self.versions.is_none()
            && self.nested == Nested::Merge
            && self.props.values().any(|v| v.is_object())
    }

    /// The ids of the objects it changes.
    pub fn ids(&self) -> Vec<String> {
        self.changes.iter().map(|c| c.obj.clone()).collect()
    }

    /// Its bulk update: each object's changed properties.
    pub fn call(&self) -> Call<()> {
        let objects = (self.changes.iter())
            .map(|c| (c.obj.clone(), c.diff.props()))
            .collect();
        api::bulk_update(self.doc.clone(), objects, self.versions.clone())
    }

    /// What the write history keeps of it once it went through: each object's values before.
    pub fn write(&self, source: Source) -> WriteKind {
        WriteKind::Update {
            source,
            objects: self
                .changes
                .iter()
                .map(|c| ObjectWrite::from_diff(&c.obj, &c.diff))
                .collect(),
        }
    }

    /// The objects `fresh` changes differently (or not at all, or in addition), in id order.
    fn differing(&self, fresh: &Plan) -> Vec<String> {
        fn by_id<'p>(plan: &'p Plan, obj: &str) -> Option<&'p BulkChange> {
            plan.changes
                .binary_search_by(|c| c.obj.as_str().cmp(obj))
                .ok()
                .map(|at| &plan.changes[at])
        }
        let changed = (self.changes.iter()).filter(|c| by_id(fresh, &c.obj) != Some(*c));
        let added = (fresh.changes.iter()).filter(|c| by_id(self, &c.obj).is_none());
        let mut ids: Vec<String> = changed.chain(added).map(|c| c.obj.clone()).collect();
        ids.sort();
        ids
    }
}

/// Where a bulk change stands.
#[derive(Debug, Clone, Default)]
enum Stage {
    /// Nothing asked.
    #[default]
    Idle,
    /// Shown in a question, waiting for its answer.
    Asked(Plan),
    /// Reading the objects again (request `id`) before sending.
    Checking { id: RequestId, plan: Plan },
    /// Some changed on the server meanwhile: `fresh` is the change against their values now.
    Conflict { plan: Plan, fresh: Plan },
    /// Sending (request `id`).
    Sending { id: RequestId, plan: Plan },
}

/// How a bulk change's request ended.
#[derive(Debug)]
pub enum Settled {
    /// Still under way (or not this one's): carry these out.
    Pending(Vec<Action>),
    /// The bulk update went through.
    Done(Plan),
    /// It failed: why.
    Failed(String),
}

/// One owner's bulk change, from the question to the answer of its bulk update.
#[derive(Debug, Clone)]
pub struct BulkWrite {
    owner: BulkOwner,
    stage: Stage,
}

impl BulkWrite {
    /// No change yet, for `owner`.
    pub fn new(owner: BulkOwner) -> BulkWrite {
        BulkWrite {
            owner,
            stage: Stage::Idle,
        }
    }

    /// Whether a re-read or the bulk update is under way.
    pub fn busy(&self) -> bool {
        matches!(self.stage, Stage::Checking { .. } | Stage::Sending { .. })
    }

    /// The question showing `plan` (what changes in each object, by path), under `heading`
    /// with `notes`; its yes checks and sends.
    pub fn ask(&mut self, plan: Plan, heading: String, mut notes: Vec<String>) -> Action {
        notes.push(format!(
            "nested: {} ({})",
            plan.nested.name(),
            match plan.nested {
                Nested::Merge => "an object given merges into each one's, other keys kept",
                Nested::Replace => "an object given replaces each one's whole",
            }
        ));
        let changes = Arc::clone(&plan.changes);
        let several = changes.len() > 1;
        let yes = if plan.reads_first() {
            "send the bulk update (re-reads the objects first)"
        } else {
            "send the bulk update"
        };
        self.stage = Stage::Asked(plan);
        Action::Ask(
            Ask::new(
                "Bulk update",
                Body::BulkDiff {
                    heading,
                    changes,
                    notes,
                },
                vec![
                    Choice::new(Command::Yes, yes, vec![self.call_action(BulkCall::Confirm)]),
                    Choice::new(
                        Command::No,
                        "back to the edit",
                        vec![self.call_action(BulkCall::Cancel)],
                    ),
                ],
            )
            .destructive_if(several),
        )
    }

    fn call_action(&self, call: BulkCall) -> Action {
        Action::Bulk(self.owner, call)
    }

    /// An answer to its questions; `reread` is the call that reads the plan's objects again
    /// (their values by id).
    pub fn call(
        &mut self,
        call: BulkCall,
        reread: impl FnOnce(&Plan) -> Call<Content>,
        cx: &Cx,
    ) -> Vec<Action> {
        match (call, std::mem::take(&mut self.stage)) {
            (BulkCall::Confirm, Stage::Asked(plan)) if plan.reads_first() => {
                let owner = self.owner;
                let sent = cx.send(reread(&plan), move |read| {
                    Answered::Bulk(owner, BulkReply::Check(read))
                });
                self.stage = Stage::Checking { id: sent.id, plan };
                vec![Action::Send(sent)]
            }
            (BulkCall::Confirm, Stage::Asked(plan)) => self.send(plan, cx),
            (BulkCall::Overwrite, Stage::Conflict { plan, .. }) => {
                self.send(plan.unconditional(), cx)
            }
            (BulkCall::Rebase, Stage::Conflict { fresh, .. }) => {
                if fresh.changes.is_empty() {
                    return vec![Action::info(
                        "nothing to change any more: the objects already have these values",
                    )];
                }
                let heading = format!(
                    "Against the values on the server now, {}:",
                    words::count(fresh.changes.len(), "object changes", "objects change")
                );
                vec![self.ask(fresh, heading, Vec::new())]
            }
            (BulkCall::Cancel, _) => vec![Action::info("bulk update cancelled; the edit is kept")],
            (_, stage) => {
                self.stage = stage;
                Vec::new()
            }
        }
    }

    fn send(&mut self, plan: Plan, cx: &Cx) -> Vec<Action> {
        let owner = self.owner;
        let sent = cx.send(plan.call(), move |sent| {
            Answered::Bulk(owner, BulkReply::Send(sent))
        });
        self.stage = Stage::Sending { id: sent.id, plan };
        vec![Action::Send(sent)]
    }

    /// The answer to request `id`.
    pub fn on_reply(&mut self, reply: BulkReply, id: RequestId, cx: &Cx) -> Settled {
        let awaited = match &self.stage {
            Stage::Checking { id: at, .. } | Stage::Sending { id: at, .. } => *at == id,
            _ => false,
        };
        if !awaited {
            return Settled::Pending(Vec::new());
        }
        let stage = std::mem::take(&mut self.stage);
        match (reply, stage) {
            (
                BulkReply::Send(Err(Failure {
                    stale: Some(stale), ..
                })),
                Stage::Sending { plan, .. },
            ) => {
                let fresh = match plan.refreshed(&stale) {
                    Ok(fresh) => fresh,
                    Err(refused) => return Settled::Failed(refused),
                };
                let ids = stale.ids();
                self.stage = Stage::Conflict { plan, fresh };
                Settled::Pending(vec![self.conflict(&ids, cx)])
            }
            (BulkReply::Send(Err(failure)) | BulkReply::Check(Err(failure)), _) => {
                Settled::Failed(failure.message)
            }
            (BulkReply::Send(Ok(())), Stage::Sending { plan, .. }) => Settled::Done(plan),
            (BulkReply::Check(Ok(content)), Stage::Checking { plan, .. }) => {
                let fresh = match plan.again(&content) {
                    Ok(fresh) => fresh,
                    Err(refused) => return Settled::Failed(refused),
                };
                let differing = plan.differing(&fresh);
                if differing.is_empty() {
                    return Settled::Pending(self.send(plan, cx));
                }
                self.stage = Stage::Conflict { plan, fresh };
                Settled::Pending(vec![self.conflict(&differing, cx)])
            }
            // An answer for a stage it is no longer at: a check's, or an update's, after the
            // other was sent (the stage ids rule that out).
            (_, stage) => {
                self.stage = stage;
                Settled::Pending(Vec::new())
            }
        }
    }

    /// The question when the objects `differing` changed on the server since the plan was
    /// made (named, the first few).
    fn conflict(&self, differing: &[String], cx: &Cx) -> Action {
        let names = cx.names();
        let mut named: Vec<String> = (differing.iter().take(NAMED))
            .map(|id| names.of(id).words())
            .collect();
        if differing.len() > NAMED {
            named.push(format!("{} more", differing.len() - NAMED));
        }
        Action::Ask(
            Ask::new(
                "Changed on the server",
                Body::Text(format!(
                    "{} changed on the server since the diff was worked out (or no longer \
                     match, or match now): {}. Nothing was written.",
                    words::count(differing.len(), "object", "objects"),
                    named.join(", ")
                )),
                vec![
                    Choice::new(
                        Command::Overwrite,
                        "send what was shown anyway",
                        vec![self.call_action(BulkCall::Overwrite)],
                    ),
                    Choice::new(
                        Command::Reload,
                        "preview again: the change against their values now",
                        vec![self.call_action(BulkCall::Rebase)],
                    ),
                    Choice::new(
                        Command::Cancel,
                        "cancel, keep the edit",
                        vec![self.call_action(BulkCall::Cancel)],
                    ),
                ],
            )
            .in_context(Context::Conflict)
            .destructive(),
        )
    }
}

/// How many of the objects that changed a conflict's question names.
const NAMED: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::requests::call::Request;
    use serde_json::{Value, json};

    fn props(v: Value) -> Props {
        v.as_object().unwrap().clone()
    }

    fn objects() -> Vec<(String, String, Props)> {
        vec![
            (
                "a".into(),
                "component".into(),
                props(
                    json!({"meta": {"owner": "dev", "status": "up"}, "position": {"x": 1, "y": 2}}),
                ),
            ),
            (
                "b".into(),
                "component".into(),
                props(json!({"meta": {"owner": "ops"}, "position": {"x": 3, "y": 4}})),
            ),
        ]
    }

    fn plan(given: Value, nested: Nested) -> Result<Plan, String> {
        let objects = objects();
        Plan::new(
            "d",
            &props(given),
            nested,
            objects
                .iter()
                .map(|(o, k, d)| (o.as_str(), k.as_str(), d.clone())),
        )
    }

    #[test]
    fn a_merge_sends_each_object_its_own_value_and_skips_the_unchanged() {
        let plan = plan(json!({"meta": {"owner": "ops"}}), Nested::Merge).unwrap();
        assert_eq!(plan.ids(), ["a"]);
        let Request::BulkUpdate { objects, .. } = plan.call().request().clone() else {
            panic!()
        };
        assert_eq!(
            Value::Object(objects["a"].clone()),
            json!({"meta": {"owner": "ops", "status": "up"}})
        );
        assert!(plan.reads_first());
    }

    #[test]
    fn a_partial_point_merges_but_refuses_to_replace() {
        let merged = plan(json!({"position": {"x": 3}}), Nested::Merge).unwrap();
        assert_eq!(merged.ids(), ["a"]);
        let refused = plan(json!({"position": {"x": 3}}), Nested::Replace).unwrap_err();
        assert!(refused.contains("a: position"), "{refused}");
        assert!(refused.contains("b: position"), "{refused}");
    }

    #[test]
    fn a_plan_worked_out_again_differs_where_the_objects_changed() {
        let before = plan(json!({"meta": {"owner": "ops"}}), Nested::Merge).unwrap();
        let mut content: Content = objects()
            .into_iter()
            .map(|(o, kind, data)| (o, diagtui_model::DiagramObject { kind, data }))
            .collect();
        assert!(
            before
                .differing(&before.again(&content).unwrap())
                .is_empty()
        );
        content.get_mut("a").unwrap().data["meta"] = json!({"owner": "dev", "zone": "z"});
        content.get_mut("b").unwrap().data["meta"] = json!({"owner": "x"});
        assert_eq!(
            before.differing(&before.again(&content).unwrap()),
            ["a", "b"]
        );
    }
}
