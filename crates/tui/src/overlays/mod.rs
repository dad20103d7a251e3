//! The overlays drawn over the panes, each a component owning its state. App keeps them in a
//! stack: the top one has the keys; closing it shows the one below (a declined question returns
//! to the form that asked it). The selector form and the bulk edit keep their content when
//! closed: App keeps them aside until they are opened again. [`Overlay`] lists them;
//! `inside.rs` gives the component each holds.
//!
//! May import `app::{action, component, status}`, `writes`, `requests`, `document`, `widgets`,
//! `keys` and `theme`; never `panes`, `app::update` or the runtime.

mod bulk_edit;
mod connections;
mod folder_picker;
mod help;
mod inside;
mod log;
mod palette;
mod pickers;
mod prompt;
mod question;
mod search;
mod selector_form;
mod selector_result;
mod version_text;
mod versions;
mod write_list;

pub use bulk_edit::BulkEdit;
pub use connections::ConnectionsView;
pub use folder_picker::{FolderPicker, subject as docs_subject};
pub use help::Help;
pub use log::LogView;
pub use palette::{Entry, Palette};
pub use pickers::{ComponentPicker, TypePicker};
pub use prompt::Prompt;
pub use question::{Body, Choice, Question, Shown};
pub use selector_form::SelectorForm;
pub use selector_result::SelectorResult;
pub use versions::VersionsView;
pub use write_list::WritesView;

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
    /// The folder documents move to.
    FolderPicker(FolderPicker),
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
    /// The open document's history from the server.
    Versions(VersionsView),
}
