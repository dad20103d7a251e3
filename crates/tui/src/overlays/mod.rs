//! The overlays drawn over the panes, each a component owning its state. App keeps them in a
//! stack: the top one has the keys; closing it shows the one below (a declined question returns
//! to the form that asked it). The selector form and the bulk edit keep their content when
//! closed: App keeps them aside until they are opened again.

mod bulk_edit;
mod connections;
mod help;
mod log;
mod palette;
mod pickers;
mod prompt;
mod question;
mod search;
mod selector_form;
mod selector_result;
mod writes;

pub use bulk_edit::BulkEdit;
pub use connections::ConnectionsView;
pub use help::Help;
pub use log::LogView;
pub use palette::{Entry, Palette};
pub use pickers::{ComponentPicker, TypePicker};
pub use prompt::Prompt;
pub use question::{Body, Choice, Question, Shown};
pub use selector_form::{Applied, SelectorForm};
pub use selector_result::SelectorResult;
pub use writes::WritesView;

use super::component::Component;

/// An overlay.
#[derive(Debug)]
pub enum Overlay {
    /// A question with its answers: confirmations, the save and bulk diffs, the import
    /// report, the save conflict.
    Question(Question),
    /// A one-line prompt.
    Prompt(Prompt),
    /// The keys of where it was opened.
    Help(Help),
    /// The request log.
    Log(LogView),
    /// The command palette.
    Palette(Palette),
    /// The type of a new object.
    TypePicker(TypePicker),
    /// The componentId of a new component.
    ComponentPicker(ComponentPicker),
    /// The selector form.
    Form(Box<SelectorForm>),
    /// The selector update's answer.
    Result(SelectorResult),
    /// The bulk edit of the marked objects.
    BulkEdit(Box<BulkEdit>),
    /// The open document's write history.
    Writes(WritesView),
    /// What connects to a component.
    Connections(ConnectionsView),
}

/// The component inside each variant, as `$convert` gives it from a box.
macro_rules! inside {
    ($overlay:expr, $convert:ident) => {
        match $overlay {
            Overlay::Question(c) => c,
            Overlay::Prompt(c) => c,
            Overlay::Help(c) => c,
            Overlay::Log(c) => c,
            Overlay::Palette(c) => c,
            Overlay::TypePicker(c) => c,
            Overlay::ComponentPicker(c) => c,
            Overlay::Form(c) => c.$convert(),
            Overlay::Result(c) => c,
            Overlay::BulkEdit(c) => c.$convert(),
            Overlay::Writes(c) => c,
            Overlay::Connections(c) => c,
        }
    };
}

impl Overlay {
    /// It, as a component.
    pub fn component(&self) -> &dyn Component {
        inside!(self, as_ref)
    }

    /// It, as a component to change.
    pub fn component_mut(&mut self) -> &mut dyn Component {
        inside!(self, as_mut)
    }
}
