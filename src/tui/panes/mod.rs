//! The three panes: documents, objects, properties.

mod docs;
mod objects;
mod props;

pub use docs::DocsPane;
pub use objects::{ObjectsPane, ask_to_drop_edits};
pub use props::{PropsPane, Target};
