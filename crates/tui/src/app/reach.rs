//! Running an action from the palette wherever it works: here when it applies here; else in its
//! pane, shown in its column (the map in the properties' place) and focused first; else a
//! message saying where it works and what it needs (`mark_shown (V) works in the objects pane:
//! open a document first`).

use crate::app::update::App;
use crate::keys::{Command, Context};
use crate::panes::{DOCS, Panes};
use crate::text::notification::Notification;
use crate::vocab::action::Action;

impl App {
    /// Runs `command` of `context` as the palette picked it: where it works, going to its pane
    /// first, or says where it works and what it needs.
    pub(super) fn run_anywhere(&mut self, context: Context, command: Command) -> Vec<Action> {
        if self.applies(context) {
            return self.run(context, command);
        }
        let Some(pane) = Panes::of_context(context) else {
            return vec![self.works_in(context, command, None)];
        };
        if pane != DOCS && self.doc.is_none() {
            let open = format!(
                "open a document first ({} in the documents pane)",
                self.keys.key(Context::Documents, Command::Open)
            );
            return vec![self.works_in(context, command, Some(open))];
        }
        self.show(pane, true);
        if self.applies(context) {
            self.run(context, command)
        } else {
            let how = opener(context, command)
                .map(|(c, cmd)| format!("{} in the {} first", self.keys.key(c, cmd), c.title()));
            vec![self.works_in(context, command, how)]
        }
    }

    /// Whether the keys of `context` apply to what has the keys now.
    fn applies(&self, context: Context) -> bool {
        self.context().lineage().contains(&context)
    }

    /// The message that `command` works in `context`, with what it needs (`need`), else how
    /// that place is opened.
    fn works_in(&self, context: Context, command: Command, need: Option<String>) -> Action {
        let how = need.or_else(|| {
            opener(context, command)
                .map(|(c, cmd)| format!("{} in the {} opens it", self.keys.key(c, cmd), c.title()))
        });
        let mut text = format!(
            "{} ({}) works in {}",
            command.name(),
            self.keys.key(context, command),
            place(context, command)
        );
        if let Some(how) = how {
            text.push_str(": ");
            text.push_str(&how);
        }
        Action::Notify(Notification::warning(text))
    }
}

/// The key (by its context and command) that opens the place where `command` of `context`
/// works, when one does.
fn opener(context: Context, command: Command) -> Option<(Context, Command)> {
    if let Some((_, opened_by)) = only_in(context, command) {
        return Some(opened_by);
    }
    match context {
        Context::Edit => Some((Context::Properties, Command::Edit)),
        Context::Form | Context::FormField | Context::FormOperator | Context::Result => {
            Some((Context::Objects, Command::Selector))
        }
        Context::BulkEdit => Some((Context::Objects, Command::BulkEdit)),
        Context::History => Some((Context::Objects, Command::History)),
        Context::Connections => Some((Context::Objects, Command::Connections)),
        Context::Versions => Some((Context::Global, Command::Versions)),
        Context::Log => Some((Context::Global, Command::Log)),
        Context::Help => Some((Context::Global, Command::Help)),
        Context::Map => Some((Context::Global, Command::ToggleMap)),
        _ => None,
    }
}

/// The one place a command of a context shared by several works, when it has one, and the key
/// that opens that place: of a prompt's commands, `from_file` works only in the new-document
/// prompt, which `new` of the documents pane opens.
fn only_in(context: Context, command: Command) -> Option<(&'static str, (Context, Command))> {
    match (context, command) {
        (Context::Prompt, Command::FromFile) => Some((
            "the new-document prompt",
            (Context::Documents, Command::New),
        )),
        _ => None,
    }
}

/// Where `command` of `context` works, to follow "works in": `the objects pane`, `a
/// question`, `the new-document prompt` ([`only_in`]).
fn place(context: Context, command: Command) -> String {
    if let Some((place, _)) = only_in(context, command) {
        return place.to_owned();
    }
    let title = context.title();
    if title.starts_with("the ") || title.starts_with("a ") || title.starts_with("in ") {
        title.to_owned()
    } else {
        format!("the {title}")
    }
}
