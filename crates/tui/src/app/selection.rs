//! One selection. The tree's selected row is *the* selection: the properties pane shows its
//! object (or its type's summary), the map highlights it (`App::follow_content`), and every key
//! that acts on "the selected object" (`Enter`, `i`, `e`, `d`, `u`, `y`, `>`...) reads it.
//! Whatever moved the row (a key, a click, an object created or pasted, an undo, a live change,
//! the filter, a fold, the history view, a jump from `>` or the map, a reload), App holds the
//! rest to it here, once after every message, so no path can move one without the others.
//!
//! One exception is the user's: unsaved edits are never dropped without asking, so while the
//! properties pane holds them the tree never selects another object: it is held to the edited
//! one (its row kept whatever the filter, its type unfolded, and said so), or rests on a type
//! heading, where no key acts on an object. An edited object deleted elsewhere stays in the
//! pane, its banner saying so, until the user saves it again or drops the edits.

use crate::app::update::{App, cx};
use crate::keys::{Command, Context};
use crate::vocab::action::{Action, Cx};

impl App {
    /// Holds the properties pane and the tree to one selection (see the module's doc); returns
    /// what to tell the user, if anything.
    pub(super) fn hold_selection(&mut self) -> Vec<Action> {
        if let Some(edited) = self.panes.props.unsaved().map(str::to_owned) {
            return self.hold_edited(&edited);
        }
        let Some(doc) = self.doc.as_ref() else {
            if self.panes.props.target().is_some() || self.panes.props.shows_type() {
                self.panes.props.close();
            }
            return Vec::new();
        };
        let Some(model) = doc.model() else {
            // Loading: the pane keeps what it shows until the content is there.
            return Vec::new();
        };
        self.panes.objects.unpin(model);
        let held = match (self.panes.objects.selected_id(), self.panes.props.target()) {
            (Some(id), Some(target)) => target.doc == doc.id() && target.obj == id,
            (Some(_), None) => false,
            (None, target) => {
                target.is_none()
                    && self
                        .panes
                        .objects
                        .selected_heading(model)
                        .map(|(kind, _)| kind)
                        == self.panes.props.shown_type()
            }
        };
        if !held {
            self.show_selected();
        }
        Vec::new()
    }

    /// The properties pane holds unsaved edits of `edited`: the tree's selection goes back to
    /// it when something moved it to another object (a type heading, where no key acts on an
    /// object, may be selected: the edit stays in place).
    fn hold_edited(&mut self, edited: &str) -> Vec<Action> {
        if self
            .panes
            .objects
            .selected_id()
            .is_none_or(|id| id == edited)
        {
            return Vec::new();
        }
        let Some(model) = self.doc.as_ref().and_then(|d| d.model()) else {
            return Vec::new();
        };
        if model.index_of(edited).is_none() {
            return Vec::new();
        }
        if !self.panes.objects.hold(edited, model) {
            return Vec::new();
        }
        let name = cx!(self, None).names().of(edited).described();
        vec![Action::info(format!(
            "{name} stays in the tree while its edits are unsaved ({} saves)",
            self.keys.key(Context::Global, Command::Save)
        ))]
    }
}
