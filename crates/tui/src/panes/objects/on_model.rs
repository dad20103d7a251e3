//! The tree's commands on the open document's objects: moving, folding, marking, deleting,
//! creating, copying.

use super::*;

impl ObjectsPane {
    /// A command that needs the open document's objects.
    pub(super) fn on_model(
        &mut self,
        command: Command,
        model: &ObjectModel,
        cx: &Cx,
    ) -> Vec<Action> {
        let selected = match self.rows.get(self.cursor.selected()) {
            Some(TreeRow::Object(i)) => Some(*i),
            _ => None,
        };
        match command {
            Command::Activate => match self.rows.get(self.cursor.selected()) {
                Some(TreeRow::Group(..)) => {
                    self.fold(None, model);
                    Vec::new()
                }
                Some(TreeRow::Object(_)) => vec![Action::Focus(PROPS)],
                None => Vec::new(),
            },
            Command::Fold | Command::Unfold => {
                self.fold(Some(command == Command::Fold), model);
                Vec::new()
            }
            Command::Mark => match (selected, cx.doc) {
                (Some(i), _) => {
                    // Marked, it moves on to the next row (a run of rows marks key after key),
                    // unless that would ask to drop unsaved edits: then it stays.
                    let mut actions =
                        vec![Action::Marks(MarksChange::Toggle(model.id(i).to_string()))];
                    if cx.unsaved.is_none() {
                        actions.extend(self.go_to(self.cursor.target(1), cx));
                    }
                    actions
                }
                (None, Some(doc)) => self.mark_group(&doc.marks),
                (None, None) => Vec::new(),
            },
            Command::MarkShown => {
                let shown: Vec<usize> = self
                    .rows
                    .iter()
                    .filter_map(|row| match row {
                        TreeRow::Object(i) => Some(*i),
                        TreeRow::Group(..) => None,
                    })
                    .collect();
                let note = format!("marked {} shown", words::objects(shown.len()));
                vec![Action::Marks(MarksChange::Add(shown)), Action::info(note)]
            }
            Command::Delete => self.ask_delete(selected, model, cx),
            Command::Undo => match (cx.doc_id(), selected) {
                (Some(doc), Some(i)) => server_undo::ask_object(doc, model.id(i), cx),
                _ => vec![Action::info("select an object to undo a write to it")],
            },
            Command::CopyId => selected
                .map(|i| model.id(i))
                .map(|id| {
                    vec![
                        Action::Copy(id.to_string()),
                        Action::info(format!("copied the id of {}: {id}", cx.name_of(id))),
                    ]
                })
                .unwrap_or_default(),
            Command::CopyJson => selected
                .map(|i| model.at(i))
                .map(|(id, object)| {
                    let json = serde_json::to_string_pretty(object).unwrap_or_default();
                    vec![
                        Action::Copy(json),
                        Action::info(format!("copied the JSON of {}", cx.name_of(id))),
                    ]
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// `d`: asks to delete the marked objects, else the `selected` one.
    fn ask_delete(&self, selected: Option<usize>, model: &ObjectModel, cx: &Cx) -> Vec<Action> {
        match (cx.doc, selected) {
            (Some(open), _) if !open.marks.is_empty() => {
                let doc = open.summary.clone();
                let objs: Vec<String> = open.marked_ids().map(String::from).collect();
                let hidden = self.hidden(open);
                let text = format!(
                    "Delete the {} from \"{}\"?",
                    words::count(objs.len(), "marked object", "marked objects"),
                    doc.title,
                );
                let mut undo = format!(
                    "{} in the objects creates them again, with new ids.",
                    cx.key(Context::Objects, Command::History)
                );
                if let Some(note) = attached_note(model, &objs, cx) {
                    undo = format!("{note} {undo}");
                }
                vec![ask(
                    "Delete marked objects",
                    marked_rows(text, &objs, &hidden, model, undo, cx),
                    "delete them",
                    Action::to_pane(ObjectsCall::DeleteMarked { doc: doc.id, objs }),
                )]
            }
            (Some(open), Some(i)) => {
                let (doc, id) = (open.summary.clone(), model.id(i));
                let name = cx.names().at(model, i);
                let mut message =
                    format!("Delete {} ({id}) from \"{}\"?", name.described(), doc.title);
                if let Some(note) = attached_note(model, &[id.to_string()], cx) {
                    message = format!("{message} {note}");
                }
                vec![ask(
                    "Delete object",
                    Body::Text(message),
                    "delete it",
                    Action::to_pane(ObjectsCall::Delete {
                        doc: doc.id,
                        obj: id.to_string(),
                    }),
                )]
            }
            _ => Vec::new(),
        }
    }
}

/// `text`, then the first marked objects `objs` by their rows, those `hidden` first and marked
/// `hidden`, then how many the filter or a fold hides, then `last`.
pub(super) fn marked_rows(
    text: String,
    objs: &[String],
    hidden: &[String],
    model: &ObjectModel,
    last: String,
    cx: &Cx,
) -> Body {
    let shown = objs.iter().filter(|o| !hidden.contains(o));
    let rows: Vec<String> = hidden
        .iter()
        .map(|o| (o, "hidden "))
        .chain(shown.map(|o| (o, "       ")))
        .take(MARKED_ROWS)
        .filter_map(|(o, note)| {
            let name = cx.names().at(model, model.index_of(o)?);
            Some(format!("{note}{}", name.words()))
        })
        .collect();
    let hides = match hidden.len() {
        0 => String::new(),
        1 => "1 of them is hidden by the filter or a folded type. ".to_string(),
        n => format!("{n} of them are hidden by the filter or a folded type. "),
    };
    Body::Listed {
        text,
        more: objs.len().saturating_sub(rows.len()),
        rows,
        after: Some(format!("{hides}{last}")),
    }
}

/// What a delete question says of the line groups attached to `objs` (and not deleted with
/// them): the first few by their ends and ids, and what becomes of them.
pub(super) fn attached_note(model: &ObjectModel, objs: &[String], cx: &Cx) -> Option<String> {
    let deleted: BTreeSet<&str> = objs.iter().map(String::as_str).collect();
    let attached = attached_line_groups(model, objs);
    let groups: BTreeSet<&str> = attached
        .values()
        .flatten()
        .map(String::as_str)
        .filter(|lg| !deleted.contains(lg))
        .collect();
    if groups.is_empty() {
        return None;
    }
    let names = cx.names();
    let named: Vec<String> = groups
        .iter()
        .take(LINE_GROUPS)
        .map(|&lg| format!("{} ({lg})", names.text(lg)))
        .collect();
    let more = match groups.len().saturating_sub(LINE_GROUPS) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!(
        "{} attached to {}: {}{more}. They stay, naming the deleted ids; {} undoes the delete and points them at the new ones.",
        words::count(groups.len(), "line group is", "line groups are"),
        if objs.len() == 1 { "it" } else { "them" },
        named.join(", "),
        cx.key(Context::Objects, Command::History)
    ))
}

/// A yes/no question whose yes carries out `yes`.
pub(super) fn ask(title: &str, body: Body, yes_label: &str, yes: Action) -> Action {
    Action::Ask(
        Ask::new(
            title,
            body,
            vec![
                Choice::new(Command::Yes, yes_label, vec![yes]),
                Choice::new(Command::No, "no", Vec::new()),
            ],
        )
        .destructive(),
    )
}
