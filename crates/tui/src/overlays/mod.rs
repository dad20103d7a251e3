//! The overlays drawn over the panes, each a component owning its state. App keeps them in a
//! stack: the top one has the keys; closing it shows the one below (a declined question returns
//! to the form that asked it). The selector form and the bulk edit keep their content when
//! closed: App keeps them aside until they are opened again. Each is held as an
//! `Overlay` (`vocab::overlay`).
//!
//! May import `writes`, `widgets`, `vocab` and the rooms below it; never `panes`, `app` or the
//! runtime.

mod bulk_edit;
mod connections;
mod folder_picker;
mod help;
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
pub use pickers::TypePicker;
pub use prompt::Prompt;
pub use question::{Question, Shown};
pub use selector_form::SelectorForm;
pub use selector_result::SelectorResult;
pub use versions::VersionsView;
pub use write_list::WritesView;
